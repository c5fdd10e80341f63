"""The clock of one run of a room: everything the run schedules, and nothing after it stops.

A room runs from its creation (or a node's take-over of it) until it closes or its node drops
it. A node drops a room when another node took it over (its lease ran out while it was frozen,
say): from then on nothing of that run may happen, not a deadline, not the next hand, not a
told command; otherwise a timer set before the freeze fires minutes later and settles a hand
the new owner cancelled. ``RunClock`` wraps the process's clock for one run: it keeps every
timer the run set, and ``stop`` cancels them all and refuses new ones.

It also runs every callback in the run's ``contextvars`` context, when the run has one (a node
of a cluster gives each run its fencing token that way, ``ahiko.store.fences.run_context``),
so the writes a timer sets off carry the run's token, not the node's current one.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable

from ahiko.rooms.clock import Clock, TimerHandle


class _RunTimer:
    __slots__ = ("_callback", "_run", "handle")

    def __init__(self, run: RunClock, callback: Callable[[], None]) -> None:
        self._run = run
        self._callback = callback
        self.handle: TimerHandle | None = None

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self._run.forget(self)

    def fire(self) -> None:
        if self.handle is None:  # cancelled after the base clock took it up
            return
        self.handle = None
        self._run.forget(self)
        self._run.call(self._callback)


class RunClock:
    """``Clock`` for one run of a room; ``stop()`` when the run ends."""

    def __init__(self, base: Clock, context: contextvars.Context | None = None) -> None:
        self.base = base
        self.context = context
        self.stopped = False
        self._live: set[_RunTimer] = set()

    def now(self) -> float:
        return self.base.now()

    def wall_ms(self) -> int:
        return self.base.wall_ms()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        timer = _RunTimer(self, callback)
        if self.stopped:
            return timer  # never fires: the run is over
        timer.handle = self.base.call_later(delay, timer.fire)
        self._live.add(timer)
        return timer

    def call(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` now, as part of this run (nothing once it stopped)."""
        if self.stopped:
            return
        if self.context is None:
            callback()
        else:
            # A copy each time: a callback may run while another of the run is on the stack
            # (a test's manual clock fires timers from inside a command).
            self.context.copy().run(callback)

    def forget(self, timer: _RunTimer) -> None:
        self._live.discard(timer)

    @property
    def live(self) -> int:
        """Timers set and not yet fired nor cancelled (tests, diagnostics)."""
        return len(self._live)

    def stop(self) -> None:
        """The run is over: cancel every timer it set; later ones never fire."""
        self.stopped = True
        for timer in list(self._live):
            timer.cancel()
        self._live.clear()
