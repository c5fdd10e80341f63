"""The cluster's leader: the one node that runs the cluster-wide policies, such as
the Ahiko lobby rule (at least two rooms a tier, more as they fill, the surplus closed).

Leadership is a lease like a room's (``ahiko:lease:leader``): every node tries to take it every
third of its life; the holder renews it. ``on_change(True)`` tells a node it now leads (start
the lobby's rebalancing), ``on_change(False)`` that it no longer does (stop at once: another
node may lead already). The token is the leader's fencing token, for writes that must never
come from two leaders.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from ahiko.server.cluster.background import Background
from ahiko.server.cluster.lease import Held, Leases

log = logging.getLogger(__name__)

LEADER = "leader"


class Leadership(Background):
    name = "leader"

    def __init__(self, leases: Leases, on_change: Callable[[bool], None] | None = None) -> None:
        super().__init__()
        self.leases = leases
        self.on_change = on_change
        self.held: Held | None = None
        self.changes = 0  # how often this node became or stopped being the leader (monitoring)

    @property
    def leading(self) -> bool:
        return self.held is not None

    @property
    def token(self) -> int | None:
        return None if self.held is None else self.held.token

    async def step(self) -> bool:
        """One round: renew the lease if we lead, else try to take it. Answers ``leading``."""
        try:
            if self.held is not None:
                if not await self.leases.renew(self.held):
                    self._set(None)
            else:
                held = await self.leases.acquire(LEADER)
                if held is not None:
                    self._set(held)
        except Exception as error:  # Redis unreachable: a leader stops leading
            log.warning("leader lease: %s", error)
            if self.held is not None:
                self._set(None)
        return self.leading

    def _set(self, held: Held | None) -> None:
        self.held = held
        self.changes += 1
        if held is None:
            log.warning("node %s stopped leading the cluster", self.leases.node)
        else:
            log.info("node %s leads the cluster (token %d)", self.leases.node, held.token)
        if self.on_change is not None:
            self.on_change(held is not None)

    async def run(self) -> None:
        period = self.leases.ttl_ms / 3000
        while True:
            await self.step()
            await asyncio.sleep(period)

    async def stop(self) -> None:
        """Stop taking part; a leader hands the lease back so another takes over at once."""
        await self.stop_loop()
        await self.resign()

    async def resign(self) -> None:
        """Stop leading now (the lease back); the next ``step`` may lead again."""
        if self.held is not None:
            with contextlib.suppress(Exception):
                await self.leases.release(self.held)
            self._set(None)
