"""The failed-log-in throttle, decided in memory before any database read or
password hash, so that a guessing storm's refusals cost next to nothing.

Failures are counted by address and by account separately, over a sliding window. Each
attempt is recorded as a failure when it is let through (``begin``), *before* its password
is checked, in one atomic step with the decision, so concurrent guesses cannot all slip under
the limit; a right password then takes its failure back (``succeeded``). Refused:

- an address with ``per_address`` failures in the window, whatever the account;
- an account with ``per_account`` failures, from any address but one the account has
  signed in from before (``succeeded`` remembers it for ``KNOWN_ADDRESS_DAYS``). A storm
  spread over 40 addresses, one guess each, gets ``per_account`` passwords checked, not 40;
  the owner, at an address they have used, still signs in during it.

``LocalLoginThrottle`` keeps the counts in this process: the single server (one server per
database, ``store/server_lock.py``). A node of a cluster uses the same rule on counts shared
in Redis (``ahiko.server.cluster.counters.SharedLoginThrottle``). Either forgets its counts
on a restart, which gives a guesser at most one more window's worth of tries."""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ahiko.server.errors import ApiError
from ahiko.store.accounts import username_key

LOGIN_WINDOW_SECONDS = 300.0
MAX_FAILURES_PER_ACCOUNT = 5
MAX_FAILURES_PER_ADDRESS = 20  # higher: several people may share one address
MAX_KEYS = 100_000  # addresses and accounts remembered (the least recently used forgotten)
MAX_PER_KEY = 1_000  # failures remembered per key: far above any limit that refuses
# An address an account signed in from is its owner's for this long: an account under a
# guessing storm stays open to it.
KNOWN_ADDRESS_DAYS = 30
KNOWN_ADDRESS_SECONDS = KNOWN_ADDRESS_DAYS * 86_400.0
MAX_KNOWN_ADDRESSES = 100_000  # (account, address) pairs remembered, least recent forgotten


@dataclass(frozen=True, slots=True)
class LoginLimits:
    window_seconds: float = LOGIN_WINDOW_SECONDS
    per_account: int = MAX_FAILURES_PER_ACCOUNT
    per_address: int = MAX_FAILURES_PER_ADDRESS


@dataclass(frozen=True, slots=True)
class Attempt:
    """An attempt let through and counted as a failure until ``succeeded``."""

    id: str
    address: str  # the keys it was counted under
    account: str


@dataclass(frozen=True, slots=True)
class Refused:
    retry_after: int  # seconds until the failure that refused it leaves the window


def too_many_attempts(refused: Refused) -> ApiError:
    """The 429 a refused log-in gets, from the route or before it."""
    wait = refused.retry_after
    return ApiError(
        429,
        "too_many_attempts",
        f"too many failed logins; try again in {wait} s",
        {"Retry-After": str(wait)},
    )


def keys(username: str, address: str) -> tuple[str, str]:
    """The address and account keys of an attempt: an account is its unique username key
    (without regard to case or accents), so "Ana" and "ana" share one count."""
    return address[:64], username_key(username)[:64]


class LoginThrottle(Protocol):
    async def begin(self, username: str, address: str) -> Attempt | Refused:
        """Decide and count in one step: an ``Attempt`` (counted as a failure) or a
        ``Refused`` (nothing counted)."""
        ...

    async def succeeded(self, attempt: Attempt) -> None:
        """The right password: the attempt's failure is taken back."""
        ...

    def known_address_refusal(self, address: str) -> Refused | None:
        """The refusal an attempt from ``address`` would get whatever its account, when this
        process already knows it without a round trip (nothing counted, nothing waited for):
        the log-in route's first rule, taken before routing and body parsing (the
        attack bench). None when it does not know: the route then decides as usual."""
        ...


class LocalLoginThrottle:
    """The counts in this process's memory. ``clock`` is in seconds (the accounts' clock, so
    a test's manual clock moves the window). Thread-safe: the decision and the count are one
    step under a lock (held for microseconds), on the loop or on a worker thread."""

    def __init__(self, clock: Callable[[], float], limits: LoginLimits | None = None) -> None:
        self.limits = limits or LoginLimits()
        self._clock = clock
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._by_address: OrderedDict[str, OrderedDict[str, float]] = OrderedDict()
        self._by_account: OrderedDict[str, OrderedDict[str, float]] = OrderedDict()
        self._known: OrderedDict[tuple[str, str], float] = OrderedDict()  # signed in from

    async def begin(self, username: str, address: str) -> Attempt | Refused:
        return self.begin_now(username, address)

    async def succeeded(self, attempt: Attempt) -> None:
        self.succeeded_now(attempt)

    def begin_now(self, username: str, address: str) -> Attempt | Refused:
        address_key, account_key = keys(username, address)
        limits = self.limits
        with self._lock:
            now = self._clock()
            from_address = self._window(self._by_address, address_key, now)
            if len(from_address) >= limits.per_address:
                return self._refused(from_address, now)
            of_account = self._window(self._by_account, account_key, now)
            if len(of_account) >= limits.per_account and not self._known_address(
                account_key, address_key, now
            ):
                return self._refused(of_account, now)
            attempt = Attempt(str(next(self._ids)), address_key, account_key)
            for found in (from_address, of_account):
                found[attempt.id] = now
                if len(found) > MAX_PER_KEY:
                    found.popitem(last=False)
            return attempt

    def known_address_refusal(self, address: str) -> Refused | None:
        address_key = address[:64]
        with self._lock:
            found = self._by_address.get(address_key)
            if found is None or len(found) < self.limits.per_address:
                return None  # not failing (or not enough): no key made, none moved
            now = self._clock()
            from_address = self._window(self._by_address, address_key, now)
            if len(from_address) >= self.limits.per_address:
                return self._refused(from_address, now)
            return None

    def succeeded_now(self, attempt: Attempt) -> None:
        with self._lock:
            pair = (attempt.account, attempt.address)
            self._known.pop(pair, None)
            self._known[pair] = self._clock()
            if len(self._known) > MAX_KNOWN_ADDRESSES:
                self._known.popitem(last=False)
            for table, key in (
                (self._by_address, attempt.address),
                (self._by_account, attempt.account),
            ):
                found = table.get(key)
                if found is not None:
                    found.pop(attempt.id, None)
                    if not found:
                        del table[key]

    def failures(self, username: str, address: str) -> tuple[int, int]:
        """The failures in the window: (from the address, of the account)."""
        address_key, account_key = keys(username, address)
        with self._lock:
            now = self._clock()
            return (
                len(self._window(self._by_address, address_key, now)),
                len(self._window(self._by_account, account_key, now)),
            )

    def _window(
        self, table: OrderedDict[str, OrderedDict[str, float]], key: str, now: float
    ) -> OrderedDict[str, float]:
        """The key's failures still in the window (its older ones dropped); the key becomes
        the most recently used, and the least recently used beyond ``MAX_KEYS`` is forgotten."""
        found = table.pop(key, None)
        if found is None:
            found = OrderedDict()
        horizon = now - self.limits.window_seconds
        while found and next(iter(found.values())) <= horizon:
            found.popitem(last=False)
        table[key] = found
        if len(table) > MAX_KEYS:
            table.popitem(last=False)
        return found

    def _known_address(self, account_key: str, address_key: str, now: float) -> bool:
        since = self._known.get((account_key, address_key))
        return since is not None and now - since < KNOWN_ADDRESS_SECONDS

    def _refused(self, failures: OrderedDict[str, float], now: float) -> Refused:
        oldest = next(iter(failures.values()))
        return Refused(max(1, math.ceil(oldest + self.limits.window_seconds - now)))
