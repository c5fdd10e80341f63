"""The rooms one node owns: a Redis lease per room, renewed while the node lives,
and the lease's fencing token recorded in the database before the node writes anything about
the room.

``claim(room_id)`` takes the room's lease, raises the room's fence in the database to the new
token (``claim_fence``: it waits for a write of the previous owner still in flight) and puts
the token in the node's ``FenceBook``, which every write about the room then carries. ``run``
renews every lease a third of the way through its life. A room is *lost* (``on_lost``) when a
renewal finds the lease gone or another node's, or when the database refused one of the node's
writes about it (a newer owner exists): the node must stop serving it at once (its actor
stopped, its subscribers told to resubscribe) and never write about it again; its stale token
would be refused anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from sqlalchemy import Engine

from ahiko.server.cluster.background import Background
from ahiko.server.cluster.lease import Held, Leases
from ahiko.store.fences import FenceBook, FencedOut, claim_fence

log = logging.getLogger(__name__)


def room_lease(room_id: str) -> str:
    return f"room:{room_id}"


class RoomOwnership(Background):
    name = "room-leases"

    def __init__(
        self,
        leases: Leases,
        engine: Engine,
        book: FenceBook,
        on_lost: Callable[[str, str], None] | None = None,
    ) -> None:
        super().__init__()
        self.leases = leases
        self.engine = engine
        self.book = book
        self.on_lost = on_lost
        self._held: dict[str, Held] = {}
        self.lost: list[tuple[str, str]] = []  # (room, why), for monitoring and tests
        # A blip of Redis (unreachable, frozen, restarted empty): until a lease after it, a
        # free lease may only mean Redis forgot it while its owner lives and is about to put
        # it back (``Leases.renew_many``), so no room is taken over (``settled``).
        self._run_id: str | None = None
        self._unsettled_until = 0.0
        self.blips = 0  # Redis blips seen (monitoring and tests)

    @property
    def rooms(self) -> list[str]:
        return sorted(self._held)

    def token(self, room_id: str) -> int | None:
        held = self._held.get(room_id)
        return None if held is None else held.token

    async def claim(self, room_id: str) -> int | None:
        """The room's new fencing token, or None while another node holds its lease."""
        name = room_lease(room_id)
        for _ in range(2):
            held = await self.leases.acquire(name)
            if held is None:
                return None
            try:
                await asyncio.to_thread(
                    claim_fence, self.engine, room_id, held.token, self.leases.node
                )
            except FencedOut as behind:
                # Redis's counter is behind the database (Redis lost its data): move it past.
                await self.leases.raise_floor(name, behind.newest or 0)
                await self.leases.release(held)
                continue
            self._held[room_id] = held
            self.book.hold(room_id, held.token)
            log.info("node %s owns room %s (token %d)", self.leases.node, room_id, held.token)
            return held.token
        return None

    def lose(self, room_id: str, why: str) -> None:
        """Stop owning ``room_id`` (idempotent); ``on_lost`` tells the node to drop the room."""
        if self._held.pop(room_id, None) is None:
            return
        self.book.drop(room_id)
        self.lost.append((room_id, why))
        log.warning("node %s lost room %s: %s", self.leases.node, room_id, why)
        if self.on_lost is not None:
            self.on_lost(room_id, why)

    def fenced(self, room_id: str) -> None:
        """The database refused a write about ``room_id`` (``FenceBook.on_fenced``)."""
        self.lose(room_id, "a newer owner exists (write refused by the fence)")

    def settled(self) -> bool:
        """Redis answered promptly, and was the same server, for the last lease at least."""
        return asyncio.get_running_loop().time() >= self._unsettled_until

    def blip(self, why: str) -> None:
        """Redis was away, slow or restarted: take over no room for a lease's time."""
        if self.settled():
            self.blips += 1
            log.warning("Redis blip (%s): no room is taken over for a lease's time", why)
        self._unsettled_until = asyncio.get_running_loop().time() + self.leases.ttl_ms / 1000

    async def check_redis(self) -> bool:
        """Ask Redis who it is (a new run id: restarted, maybe empty); answers ``settled()``."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            run_id = await self.leases.run_id()
        except Exception as error:
            self.blip(f"unreachable: {error}")
            return False
        if loop.time() - began > self.leases.ttl_ms / 3000:
            self.blip("it answered after a third of a lease")
        if self._run_id is not None and run_id != self._run_id:
            self.blip("it restarted")
        self._run_id = run_id
        return self.settled()

    async def renew_all(self) -> None:
        """Renew every lease this node holds, in one round trip (``Leases.renew_many``); a
        lease Redis forgot (restarted empty, frozen past its expiry) that nobody took is put
        back under its token: the owner keeps serving through the blip."""
        await self.check_redis()
        held = list(self._held.items())
        if not held:
            return
        try:
            ours = await self.leases.renew_many([h for _, h in held])
        except Exception as error:  # Redis unreachable: keep serving, renew when it is back
            self.blip(f"renewing: {error}")
            log.warning("renewing %d room lease(s) failed: %s", len(held), error)
            return
        for (room_id, lease), still in zip(held, ours, strict=True):
            # A room released (or released and claimed again) meanwhile is not lost.
            if not still and self._held.get(room_id) is lease:
                self.lose(room_id, "lease expired or taken by another node")

    async def release(self, room_id: str) -> None:
        held = self._held.pop(room_id, None)
        if held is not None:
            self.book.drop(room_id)
            await self.leases.release(held)

    async def release_all(self) -> None:
        for room_id in list(self._held):
            with contextlib.suppress(Exception):
                await self.release(room_id)

    async def run(self) -> None:
        """Renew every lease a third of the way through its life, until cancelled: every
        ``period`` from the last round's start, however long the round took."""
        period = self.leases.ttl_ms / 3000
        loop = asyncio.get_running_loop()
        began = loop.time()
        while True:
            await asyncio.sleep(max(0.0, began + period - loop.time()))
            began = loop.time()
            await self.renew_all()

    async def stop(self) -> None:
        await self.stop_loop()
