"""Blind levels of a multi-table tournament by hands (issue 20: "a blind schedule by level
(time or hands)"; R-TN-03: the blinds double, here every ``level_hands`` hands): each table
deals its k-th hand at 25/50 doubled (k - 1) // level_hands times, whatever the clock; the
tournament's level is its furthest table's. By default the levels stay by time."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from random import Random
from typing import Any

from mtt_play import play

from ahiko.competition.live_mtt import MttRooms
from ahiko.rooms.blinds import TOURNAMENT_BIG_BLIND, BlindIncrease
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry

LEVEL_HANDS = 3


class Staked(MttRooms):
    """The live tournament, with each table's big blinds in the order its hands were dealt
    and the tournament's level at each deal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bigs: dict[int, list[int]] = {}
        self.levels: list[tuple[int, int]] = []  # (the furthest table's hands, level)

    def hand_started(self, number: int, button: int | None, seats: Sequence[int]) -> None:
        hand = self.actors[number].room.dealer.hand
        assert hand is not None
        self.bigs.setdefault(number, []).append(hand.stakes.big_blind)
        super().hand_started(number, button, seats)
        self.levels.append((max(len(b) for b in self.bigs.values()), self.level))


def test_R_TN_03_mtt_blind_levels_by_hands_at_every_table() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"p{n}", f"P{n}") for n in range(12)]
    mtt = Staked(registry, "lh", field, rng=Random(5), level_minutes=1, level_hands=LEVEL_HANDS)
    assert mtt.schedule.increase is BlindIncrease.HANDS

    async def scenario() -> None:
        await mtt.start()
        assert mtt.level == 1
        await play(registry, clock, mtt)

    asyncio.run(asyncio.wait_for(scenario(), 300))
    assert len(mtt.bigs) == 2 and max(len(b) for b in mtt.bigs.values()) > 2 * LEVEL_HANDS
    for bigs in mtt.bigs.values():
        doubled = [TOURNAMENT_BIG_BLIND << (k // LEVEL_HANDS) for k in range(len(bigs))]
        assert bigs == doubled, bigs
    # the furthest table has dealt h hands, the next is at 1 + h // LEVEL_HANDS
    assert all(level == 1 + hands // LEVEL_HANDS for hands, level in mtt.levels)


def test_mtt_blind_levels_by_time_by_default() -> None:
    registry = RoomRegistry(clock=ManualClock())
    mtt = MttRooms(registry, "lt", [("a", "A"), ("b", "B")], rng=Random(1), level_minutes=5)
    assert (mtt.schedule.increase, mtt.schedule.every) == (BlindIncrease.MINUTES, 5)
