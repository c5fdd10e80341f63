"""A node's background loop stops even when something inside it swallows a cancellation
(a client library catching it on its way through a reconnect): ``stop_loop`` cancels again
instead of waiting forever, as a CI run once did for 600 s in the lease test."""

from __future__ import annotations

import asyncio

import pytest

from ahiko.server.cluster import background
from ahiko.server.cluster.background import Background


class Stubborn(Background):
    name = "stubborn"

    def __init__(self) -> None:
        super().__init__()
        self.swallowed = 0
        self.rounds = 0

    async def run(self) -> None:
        while True:
            try:
                await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                if self.swallowed == 0:  # the first one is eaten, as a library might
                    self.swallowed += 1
                    continue
                raise
            self.rounds += 1


def test_a_swallowed_cancellation_does_not_hang_the_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "STOP_PATIENCE_S", 0.05)

    async def scenario() -> Stubborn:
        loop = Stubborn()
        loop.start()
        await asyncio.sleep(0.05)
        await asyncio.wait_for(loop.stop_loop(), timeout=5)
        return loop

    loop = asyncio.run(scenario())
    assert loop.swallowed == 1 and loop._task is None


def test_a_loop_that_obeys_stops_at_the_first_cancellation() -> None:
    async def scenario() -> Stubborn:
        loop = Stubborn()
        loop.swallowed = 1  # obeys from the start
        loop.start()
        await asyncio.sleep(0.05)
        rounds = loop.rounds
        await loop.stop_loop()
        await asyncio.sleep(0.05)
        assert loop.rounds == rounds  # no round after the stop
        return loop

    assert asyncio.run(scenario())._task is None
