"""No account can flood the site: bounds on the rooms an account creates (open at
once and per time window), the close of rooms no person ever joined, the table sockets open
per account and per address, and the sockets of a session that signs out.

One ``SiteLimits`` per app (``app.state.limits``); the routes and the table socket consult
it. Its clock is monotonic and injectable, so the tests drive it without waiting."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ahiko.rooms import commands as c
from ahiko.server.errors import ApiError
from ahiko.server.security import RateLimit, SlidingWindow

if TYPE_CHECKING:
    from ahiko.rooms.registry import RoomRegistry

MonotonicClock = Callable[[], float]
WS_TOO_MANY = 4429
WS_SIGNED_OUT = 4401
ROOMS_CREATED = RateLimit(30, 3600.0)
MAX_REMEMBERED_REFUSALS = 10_000  # sessions refused a room, remembered (the oldest forgotten)


@dataclass(frozen=True, slots=True)
class LimitsPolicy:
    rooms_open_per_account: int = 10
    rooms_created: RateLimit = ROOMS_CREATED  # per account
    unjoined_room_seconds: float = 300.0  # a room no person joined closes after this
    sockets_per_account: int = 16
    sockets_per_address: int = 64
    sweep_every_seconds: float = 30.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> LimitsPolicy:
        """``AHIKO_ROOMS_OPEN_PER_ACCOUNT``, ``AHIKO_ROOMS_CREATED_LIMIT`` ("count/seconds"),
        ``AHIKO_UNJOINED_ROOM_SECONDS``, ``AHIKO_SOCKETS_PER_ACCOUNT``,
        ``AHIKO_SOCKETS_PER_ADDRESS``."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        if text := env.get("AHIKO_ROOMS_OPEN_PER_ACCOUNT"):
            values["rooms_open_per_account"] = int(text)
        if text := env.get("AHIKO_ROOMS_CREATED_LIMIT"):
            values["rooms_created"] = RateLimit.parse(text)
        if text := env.get("AHIKO_UNJOINED_ROOM_SECONDS"):
            values["unjoined_room_seconds"] = float(text)
        if text := env.get("AHIKO_SOCKETS_PER_ACCOUNT"):
            values["sockets_per_account"] = int(text)
        if text := env.get("AHIKO_SOCKETS_PER_ADDRESS"):
            values["sockets_per_address"] = int(text)
        return cls(**values)


class SiteLimits:
    def __init__(
        self, policy: LimitsPolicy | None = None, clock: MonotonicClock = time.monotonic
    ) -> None:
        self.policy = policy or LimitsPolicy.from_env()
        self._clock = clock
        self._created = SlidingWindow(self.policy.rooms_created, clock)
        self._born: dict[str, tuple[str, float]] = {}  # unjoined room id -> (host, created at)
        self._by_account: Counter[str] = Counter()
        self._by_address: Counter[str] = Counter()
        self._sessions: dict[str, set[Any]] = {}  # session token hash -> its open sockets
        self._refusing: dict[str, str] = {}  # session token hash -> account refused a room
        self._accounts: dict[str, str] = {}  # session token hash -> account, sockets open

    # --- rooms -----------------------------------------------------------------------------
    def admit_room(self, registry: RoomRegistry, host_id: str, session: str | None = None) -> None:
        """Raises the 429 when ``host_id`` may not create another room now; the refusal is
        remembered for ``session`` (its token's hash), so that the next attempts are refused
        before routing (``known_room_refusal``)."""
        error = self._room_refusal(registry, host_id, count=True)
        if error is None:
            return
        if session is not None:
            self._refusing.pop(session, None)
            self._refusing[session] = host_id
            while len(self._refusing) > MAX_REMEMBERED_REFUSALS:
                self._refusing.pop(next(iter(self._refusing)))
        raise error

    def known_room_refusal(self, registry: RoomRegistry, session: str) -> ApiError | None:
        """The 429 for a session already refused a room, while it still holds: checked
        again against the rooms and the window (no database, no session lookup), so a room
        closed or a window freed lets the next attempt through at once."""
        host_id = self._refusing.get(session)
        if host_id is None:
            return None
        error = self._room_refusal(registry, host_id, count=False)
        if error is None:
            del self._refusing[session]
        return error

    def _room_refusal(
        self, registry: RoomRegistry, host_id: str, *, count: bool
    ) -> ApiError | None:
        policy = self.policy
        open_now = sum(
            1 for actor in registry.actors() if actor.host_id == host_id and actor.is_open
        )
        if open_now >= policy.rooms_open_per_account:
            return ApiError(
                429,
                "too_many_rooms",
                f"you have {open_now} open rooms; close one first "
                f"(at most {policy.rooms_open_per_account} at once)",
            )
        if count and self._created.allow(host_id):
            return None
        if not count and self._created.would_allow(host_id):
            return None
        wait = self._created.retry_after(host_id)
        return ApiError(
            429,
            "too_many_rooms",
            f"at most {policy.rooms_created.count} new rooms per "
            f"{policy.rooms_created.seconds:g} s; try again in {wait} s",
            {"Retry-After": str(wait)},
        )

    def room_created(self, room_id: str, host_id: str) -> None:
        self._born[room_id] = (host_id, self._clock())

    def room_joined(self, room_id: str) -> None:
        """A person connected to the room: it is no longer a candidate for the sweep."""
        self._born.pop(room_id, None)

    async def sweep(self, registry: RoomRegistry) -> list[str]:
        """Closes and forgets the rooms no person joined within ``unjoined_room_seconds``;
        returns their ids."""
        deadline = self._clock() - self.policy.unjoined_room_seconds
        stale = [room_id for room_id, (_, born) in self._born.items() if born <= deadline]
        closed = []
        for room_id in stale:
            host_id, _ = self._born.pop(room_id)
            actor = registry.get(room_id)
            if actor is None:
                continue
            if actor.is_open:
                await actor.ask(c.Close(host_id))
            registry.forget(room_id)
            closed.append(room_id)
        return closed

    async def run_sweeper(self, registry: RoomRegistry) -> None:
        while True:
            await asyncio.sleep(self.policy.sweep_every_seconds)
            with contextlib.suppress(Exception):
                await self.sweep(registry)

    # --- sockets ---------------------------------------------------------------------------
    def socket_refusal(self, account: str | None, address: str) -> str | None:
        """Why one more socket from ``account`` at ``address`` is refused, or None."""
        policy = self.policy
        if self._by_address[address] >= policy.sockets_per_address:
            return f"at most {policy.sockets_per_address} table sockets per address"
        if account is not None and self._by_account[account] >= policy.sockets_per_account:
            return f"at most {policy.sockets_per_account} table sockets per account"
        return None

    def known_socket_refusal(self, session: str | None, address: str) -> str | None:
        """``socket_refusal`` from what is in memory, before the session's lookup: the
        address's count, and the account of a session that already has sockets open (None
        when the route must decide)."""
        account = None if session is None else self._accounts.get(session)
        return self.socket_refusal(account, address)

    def socket_opened(
        self, connection: Any, account: str | None, address: str, session: str | None
    ) -> None:
        self._by_address[address] += 1
        if account is not None:
            self._by_account[account] += 1
        if session is not None:
            self._sessions.setdefault(session, set()).add(connection)
            if account is not None:
                self._accounts[session] = account

    def socket_closed(
        self, connection: Any, account: str | None, address: str, session: str | None
    ) -> None:
        _decrement(self._by_address, address)
        if account is not None:
            _decrement(self._by_account, account)
        if session is not None:
            found = self._sessions.get(session)
            if found is not None:
                found.discard(connection)
                if not found:
                    del self._sessions[session]
                    self._accounts.pop(session, None)

    def accounts(self) -> list[str]:
        """The accounts with a table socket open."""
        return list(self._by_account)

    def sockets_open(self, account: str) -> int:
        return self._by_account[account]

    def session_ended(self, session: str) -> int:
        """Revokes every socket of the signed-out ``session``: each is marked (it can no
        longer sit, act or add bots) and closed. Returns how many."""
        self._refusing.pop(session, None)
        self._accounts.pop(session, None)
        found = self._sessions.pop(session, set())
        for connection in found:
            connection.revoke()
        return len(found)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def site_limits(app: Any) -> SiteLimits:
    found: SiteLimits | None = getattr(app.state, "limits", None)
    if found is None:
        found = app.state.limits = SiteLimits()
    return found
