"""Time as an injected dependency (DESIGN.md principle 5).

A room reads ``now()`` and schedules callbacks with ``call_later``; it never sleeps. The real
clock rides on the asyncio loop; ``ManualClock`` fires timers only when a test advances it,
in deadline order, so two minutes of table time pass in microseconds and always the same way.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences matter)."""
        ...

    def wall_ms(self) -> int:
        """Milliseconds since the epoch, for timestamps that leave the server."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Run ``callback`` once, ``delay`` seconds from now, on the room's thread."""
        ...


class AsyncioClock:
    """The production clock: the running loop's time. ``speed`` > 1 makes every wait
    ``speed`` times shorter (simulations and end-to-end tests)."""

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("clock speed must be positive")
        self._speed = speed
        self._origin = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self._origin) * self._speed

    def wall_ms(self) -> int:
        return int(time.time() * 1000)

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, delay) / self._speed, callback)


@dataclass(order=True)
class _Timer:
    when: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told to. Timers due at the same instant fire in the
    order they were scheduled; timers scheduled by a firing callback fire within the same
    ``advance`` if they fall due inside it."""

    WALL_EPOCH_MS = 1_700_000_000_000

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[_Timer] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def wall_ms(self) -> int:
        return self.WALL_EPOCH_MS + round(self._now * 1000)

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        timer = _Timer(self._now + max(0.0, delay), next(self._order), callback)
        heapq.heappush(self._timers, timer)
        return timer

    def advance(self, seconds: float) -> int:
        """Move time forward by ``seconds``, firing every timer that falls due; returns how
        many fired."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        target = self._now + seconds
        fired = 0
        while self._timers and self._timers[0].when <= target:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._now = timer.when
            timer.callback()
            fired += 1
        self._now = target
        return fired

    def pending(self) -> list[float]:
        """Due times of the live timers, soonest first (for tests and diagnostics)."""
        return sorted(t.when for t in self._timers if not t.cancelled)

    def next_due(self) -> float | None:
        due = self.pending()
        return due[0] if due else None
