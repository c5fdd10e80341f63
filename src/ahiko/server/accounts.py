"""Accounts and sessions: sign-up rules, argon2id passwords, login rate limiting and
database-backed session tokens."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError

from ahiko.server.errors import ApiError
from ahiko.store import accounts as store
from ahiko.wallet.ledger import Clock, as_utc
from ahiko.wallet.operations import open_wallet

USERNAME_PATTERN = re.compile(r"[A-Za-z0-9_]{3,20}")
PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 256  # argon2 of a megabyte is a cheap denial of service
SESSION_LIFETIME = timedelta(days=30)
LOGIN_WINDOW = timedelta(minutes=5)
MAX_FAILURES_PER_USERNAME = 5
MAX_FAILURES_PER_IP = 20  # higher: several people may share one address
INVALID_CREDENTIALS = "wrong username or password"


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    def __init__(self, engine: Engine, clock: Clock, hasher: PasswordHasher | None = None) -> None:
        self._engine = engine
        self._clock = clock
        self._hasher = hasher or PasswordHasher()  # argon2id with the library's defaults
        # Verified against when the username is unknown, so both failures take as long.
        self._dummy_hash = self._hasher.hash(secrets.token_hex(16))

    def sign_up(self, username: str, password: str) -> User:
        if not USERNAME_PATTERN.fullmatch(username):
            raise ApiError(
                422, "invalid_username", "username must be 3–20 letters, digits or underscores"
            )
        if not PASSWORD_MIN_LENGTH <= len(password) <= PASSWORD_MAX_LENGTH:
            raise ApiError(
                422,
                "invalid_password",
                f"password must be {PASSWORD_MIN_LENGTH} to {PASSWORD_MAX_LENGTH} characters",
            )
        password_hash = self._hasher.hash(password)
        now = as_utc(self._clock())
        try:
            with self._engine.begin() as conn:
                user_id = store.insert_user(conn, username, password_hash, now)
                open_wallet(conn, user_id, now)
        except IntegrityError:
            raise ApiError(409, "username_taken", f"username {username!r} is taken") from None
        return User(user_id, username)

    def log_in(self, username: str, password: str, ip: str) -> tuple[User, str]:
        """Returns the user and a new session token; the same error for an unknown user and a
        wrong password; 429 after too many recent failures (checked before the password)."""
        now = as_utc(self._clock())
        by_name, by_ip = store.recent_failures(self._engine, username, ip, now - LOGIN_WINDOW)
        if by_name >= MAX_FAILURES_PER_USERNAME or by_ip >= MAX_FAILURES_PER_IP:
            raise ApiError(
                429, "too_many_attempts", "too many failed logins; try again in a few minutes"
            )
        record = store.find_user_by_name(self._engine, username)
        if not self._password_matches(record.password_hash if record else None, password):
            store.record_login_attempt(self._engine, username, ip, False, now)
            raise ApiError(401, "invalid_credentials", INVALID_CREDENTIALS)
        assert record is not None
        store.record_login_attempt(self._engine, username, ip, True, now)
        token = secrets.token_urlsafe(32)
        store.insert_session(
            self._engine, token_hash(token), record.id, now, now + SESSION_LIFETIME
        )
        return User(record.id, record.username), token

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
