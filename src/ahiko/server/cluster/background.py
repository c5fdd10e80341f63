"""A node's background loop (lease renewals, leadership): started once, cancelled on stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)

#: How long ``stop_loop`` waits for a cancelled loop before cancelling it again.
STOP_PATIENCE_S = 1.0


class Background:
    """Subclasses define ``run`` (a loop until cancelled) and a task ``name``."""

    name = "background"

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run(), name=self.name)

    async def stop_loop(self) -> None:
        """Cancel the loop and wait until it ended. A cancellation swallowed on the way (a
        client library that catches it while it reconnects) would leave the loop running
        and this wait hanging forever (a CI run hung 600 s in the lease test this way), so
        the loop is cancelled again until it ends."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        while not task.done():
            await asyncio.wait({task}, timeout=STOP_PATIENCE_S)
            if not task.done():
                log.warning("%s: a cancellation was swallowed; cancelling again", self.name)
                task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class Stepping(Background):
    """A loop of ``step`` every ``period`` seconds, or at once after ``poke``; a round that
    fails (Redis or the database away) is logged and the next one tries again."""

    def __init__(self, period: float) -> None:
        super().__init__()
        self.period = period
        self._poked = asyncio.Event()

    def poke(self) -> None:
        self._poked.set()

    async def step(self) -> None:
        raise NotImplementedError

    async def run(self) -> None:
        while True:
            try:
                await self.step()
            except Exception as error:
                log.warning("%s: %s", self.name, error)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.period)
            self._poked.clear()
