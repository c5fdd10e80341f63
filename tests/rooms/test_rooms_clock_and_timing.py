"""The injected clock and the rule durations (DESIGN.md principle 5)."""

from __future__ import annotations

import pytest

from ahiko.rooms import timing
from ahiko.rooms.clock import ManualClock


def test_rule_durations_match_the_spec() -> None:
    assert timing.COMMITMENT_DISPLAY_S == 2  # R-FD-02
    assert timing.NEXT_HAND_DELAY_S == 8  # R-RM-11
    assert timing.BOT_AHIKO_WAIT_S == 20  # R-BA-01
    assert timing.DISCONNECTED_ACTION_S == 30  # R-TM-02
    assert timing.ABSENCE_WITHDRAWAL_S == 120  # R-TM-03
    assert timing.EMPTY_ROOM_CLOSE_S == 120  # R-RM-09
    assert timing.AHIKO_ACTION_DEADLINE_S == 20  # R-RM-11
    defaults = timing.Timing()
    assert (defaults.commitment_display_s, defaults.disconnected_action_s) == (2, 30)


def test_manual_clock_fires_timers_in_deadline_order_only_when_advanced() -> None:
    clock = ManualClock()
    fired: list[str] = []
    clock.call_later(5, lambda: fired.append("b"))
    clock.call_later(2, lambda: fired.append("a"))
    clock.call_later(5, lambda: fired.append("c"))
    assert clock.advance(1.999) == 0 and fired == []
    assert clock.advance(3.001) == 3
    assert fired == ["a", "b", "c"]
    assert clock.now() == pytest.approx(5.0)


def test_manual_clock_runs_timers_scheduled_by_timers_within_the_same_advance() -> None:
    clock = ManualClock()
    seen: list[float] = []

    def first() -> None:
        seen.append(clock.now())
        clock.call_later(1, lambda: seen.append(clock.now()))

    clock.call_later(1, first)
    clock.advance(10)
    assert seen == [1.0, 2.0]


def test_manual_clock_cancelled_timer_never_fires_and_time_never_goes_back() -> None:
    clock = ManualClock()
    fired: list[int] = []
    handle = clock.call_later(1, lambda: fired.append(1))
    handle.cancel()
    clock.advance(2)
    assert fired == []
    with pytest.raises(ValueError):
        clock.advance(-1)
    assert clock.wall_ms() == ManualClock.WALL_EPOCH_MS + 2000
