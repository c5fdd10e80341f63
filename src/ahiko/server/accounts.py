"""Accounts and sessions: sign-up rules, argon2id passwords, login rate limiting and
database-backed session tokens.

Log-in throttling counts failures by address and by account separately, in memory
(``login_throttle``; in Redis on a cluster), decided and counted in one step *before* any
database read or password hash: a refused guess costs no query, and concurrent guesses cannot
all slip under the limit; a right password takes its failure back. An address that has failed
too often is refused; an account that has been guessed at too often refuses every address
but those it has signed in from before, so a storm spread over many addresses gets no more
passwords checked than the account's limit, and the owner at a usual address still signs in.

Password hashes (argon2 takes 64 MiB each) run in a small bounded pool: at most
``HashGate.workers`` at once, a few more waiting, and the rest refused at once with 429 and
``Retry-After``, before any failure is counted."""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from ahiko.server.errors import ApiError
from ahiko.server.login_throttle import (
    MAX_FAILURES_PER_ACCOUNT,
    MAX_FAILURES_PER_ADDRESS,
    LocalLoginThrottle,
    LoginThrottle,
    Refused,
    too_many_attempts,
)
from ahiko.server.sign_up_paths import require_counted_sign_up
from ahiko.store import accounts as store
from ahiko.store.operators import suspension_of
from ahiko.wallet.ledger import Clock, as_utc
from ahiko.wallet.operations import open_wallet

# Letters (accents welcome: "joão"), digits or underscores, compared in NFC; unique without
# regard to case or accents (ahiko.store.accounts.username_key).
USERNAME_PATTERN = re.compile(r"[^\W]{3,20}")
PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 256  # argon2 of a megabyte is a cheap denial of service
SESSION_LIFETIME = timedelta(days=30)
MAX_FAILURES_PER_USERNAME = MAX_FAILURES_PER_ACCOUNT
MAX_FAILURES_PER_IP = MAX_FAILURES_PER_ADDRESS
INVALID_CREDENTIALS = "wrong username or password"
HASH_WORKERS = 2  # argon2 hashes in flight at once (64 MiB each with the default profile)
HASH_QUEUE = 8  # more may wait for a worker; beyond that, 429 at once
T = TypeVar("T")


class HashGate:
    """Bounds the password hashes in flight (memory) and waiting (latency): ``workers`` run,
    ``queue`` more wait, any further one is refused with 429 and ``Retry-After`` without
    waiting. Thread-safe: the routes run on the server's worker threads, off the event loop."""

    def __init__(self, workers: int = HASH_WORKERS, queue: int = HASH_QUEUE) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a hash gate needs at least one worker and a queue of 0 or more")
        self.workers = workers
        self.queue = queue
        self._admitted = threading.BoundedSemaphore(workers + queue)
        self._running = threading.BoundedSemaphore(workers)
        self._seconds = 0.1  # a running estimate of one hash's duration
        self._lock = threading.Lock()
        self.in_flight = 0
        self.peak_in_flight = 0  # the most hashes that ever ran at once (tests, benchmarks)
        self.shed = 0

    def admit(self) -> None:
        """Takes a place (running or waiting), or raises the 429."""
        if not self._admitted.acquire(blocking=False):
            with self._lock:
                self.shed += 1
            wait = max(1, math.ceil(self._seconds * (self.workers + self.queue) / self.workers))
            raise ApiError(
                429,
                "busy",
                f"too many sign-ins at once; try again in {wait} s",
                {"Retry-After": str(wait)},
            )

    def release(self) -> None:
        self._admitted.release()

    def run(self, work: Callable[[], T]) -> T:
        """Runs ``work`` (a hash) once a worker is free; the caller holds an admission."""
        with self._running:
            with self._lock:
                self.in_flight += 1
                self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            started = time.monotonic()
            try:
                return work()
            finally:
                with self._lock:
                    self.in_flight -= 1
                    self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - started)


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(
        self,
        engine: Engine,
        clock: Clock,
        hasher: PasswordHasher | None = None,
        gate: HashGate | None = None,
    ) -> None:
        self._engine = engine
        self._clock = clock
        self._hasher = hasher or PasswordHasher()  # argon2id with the library's defaults
        self.gate = gate or HashGate()
        # Failed log-ins, in this process; a node of a cluster replaces it with the shared one.
        self.throttle: LoginThrottle = LocalLoginThrottle(lambda: as_utc(clock()).timestamp())
        # Verified against when the username is unknown, so both failures take as long.
        self._dummy_hash = self._hasher.hash(secrets.token_hex(16))

    def sign_up(self, username: str, password: str) -> User:
        require_counted_sign_up()  # in a request, only through a rate-limited sign-up path
        username = unicodedata.normalize("NFC", username)
        if not USERNAME_PATTERN.fullmatch(username) or not username.isprintable():
            raise ApiError(
                422,
                "invalid_username",
                "username must be 3–20 letters (accents welcome), digits or underscores",
            )
        if not PASSWORD_MIN_LENGTH <= len(password) <= PASSWORD_MAX_LENGTH:
            raise ApiError(
                422,
                "invalid_password",
                f"password must be {PASSWORD_MIN_LENGTH} to {PASSWORD_MAX_LENGTH} characters",
            )
        self.gate.admit()
        try:
            password_hash = self.gate.run(lambda: self._hasher.hash(password))
        finally:
            self.gate.release()
        now = as_utc(self._clock())
        try:
            with self._engine.begin() as conn:
                user_id = store.insert_user(conn, username, password_hash, now)
                open_wallet(conn, user_id, now)
        except IntegrityError:
            raise ApiError(409, "username_taken", f"username {username!r} is taken") from None
        return User(user_id, username)

    def open_session(self, user: User) -> str:
        """A new session token for ``user`` (just signed up: no password to check again)."""
        now = as_utc(self._clock())
        token = secrets.token_urlsafe(32)
        store.insert_session(self._engine, token_hash(token), user.id, now, now + SESSION_LIFETIME)
        return token

    def log_in(self, username: str, password: str, ip: str) -> tuple[User, str]:
        """``log_in_async`` for a script or a test outside any event loop."""
        return asyncio.run(self.log_in_async(username, password, ip))

    async def log_in_async(self, username: str, password: str, ip: str) -> tuple[User, str]:
        """Returns the user and a new session token; the same error for an unknown user and a
        wrong password; 429 when the address, or the account from a failing address, has
        failed too often. Everything up to the password's check runs on the event loop with
        no database read, so a shed or throttled attempt never takes a worker thread; the
        lookup, the hash and the new session run on one."""
        self.gate.admit()  # a shed attempt is not counted as a failure
        try:
            attempt = await self.throttle.begin(username, ip)
            if isinstance(attempt, Refused):
                raise too_many_attempts(attempt)
            found = await run_in_threadpool(self._check_password, username, password)
            if found is None:
                raise ApiError(401, "invalid_credentials", INVALID_CREDENTIALS)
            await self.throttle.succeeded(attempt)
            return found
        finally:
            self.gate.release()

    def _check_password(self, username: str, password: str) -> tuple[User, str] | None:
        """The user and a new session when ``password`` is theirs (the caller holds a place
        in the hash gate); None otherwise, after as long a check for an unknown name."""
        record = store.find_user_by_name(self._engine, username)
        stored = record.password_hash if record else None
        if not self.gate.run(lambda: self._password_matches(stored, password)):
            return None
        assert record is not None
        suspended = suspension_of(self._engine, record.id)  # an operator's
        if suspended is not None:
            message = f"this account is suspended: {suspended['reason']}"
            raise ApiError(403, "account_suspended", message)
        user = User(record.id, record.username)
        return user, self.open_session(user)

    def _password_matches(self, stored_hash: str | None, password: str) -> bool:
        if len(password) > PASSWORD_MAX_LENGTH:
            return False
        try:
            return self._hasher.verify(stored_hash or self._dummy_hash, password) and bool(
                stored_hash
            )
        except (VerificationError, InvalidHashError):
            return False

    def log_out(self, token: str) -> None:
        store.delete_session(self._engine, token_hash(token))

    def user_for_token(self, token: str | None) -> User | None:
        if not token:
            return None
        record = store.session_user(self._engine, token_hash(token), as_utc(self._clock()))
        return None if record is None else User(record.id, record.username)
