"""A node's background loop (lease renewals, leadership): started once, cancelled on stop."""

from __future__ import annotations

import asyncio
import contextlib


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
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
