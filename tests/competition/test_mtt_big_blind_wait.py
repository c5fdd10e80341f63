"""A player moved to a live table of a multi-table tournament waits for the big blind (issue
20, R-TN-03: the blinds rotate every hand): seated, not dealt in until the hand whose big
blind falls on their seat under the room's own dealing (R-HE-02: the button one seat on every
hand), then dealt every hand; the room's seats say so meanwhile (``awaits_big_blind``). A player
seated at the start is dealt at once."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from competition_players import Scripted

from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind
from ahiko.rooms.dealing import big_blind_seat
from ahiko.rooms.hooks import NoHooks
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.room_view import RoomView


class Dealt(NoHooks):
    """Every hand's button and dealt seats, as the room deals it."""

    def __init__(self) -> None:
        self.hands: list[tuple[int, list[int]]] = []

    def on_hand_start(self, room: RoomView, hand_no: int, stacks: Mapping[int, int]) -> None:
        assert room.button is not None
        self.hands.append((room.button, sorted(stacks)))


def awaits_big_blind(summary: dict[str, Any]) -> set[str]:
    return {s["player_id"] for s in summary["seats"] if s and s["awaits_big_blind"]}


def test_R_TN_03_a_moved_player_is_dealt_in_first_at_their_big_blind() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    dealt = Dealt()
    config = RoomConfig(name="Mesa", kind=RoomKind.TOURNAMENT, seats=9, part_of="w")
    actor = registry.create(config, room_id="mtt-w-1", hooks=dealt)
    players = [Scripted(f"p{n}", cautious=True) for n in range(8)]

    async def hands(count: int) -> None:
        """Plays until ``count`` hands were dealt and the last one ended."""
        for _ in range(5_000):
            if len(dealt.hands) >= count and actor.room.dealer.hand is None:
                return
            turns = [(p, p.decision()) for p in players]
            for player, turn in turns:
                if turn is not None:
                    assert (await actor.ask(c.Act(player.player_id, *turn))).ok
            if not any(turn for _p, turn in turns):
                await asyncio.sleep(0)
                clock.advance(1.0)
        raise AssertionError("the hands did not come")

    async def scenario() -> None:
        for player in players:
            await player.join(actor)
        for seat in range(7):  # seats 0-6 at the start: dealt at once
            assert (await actor.ask(c.MoveIn(f"p{seat}", f"P{seat}", seat, 1000))).ok
        assert (await actor.ask(c.Start(None))).ok
        await hands(1)
        assert dealt.hands == [(0, list(range(7)))]  # button 0, big blind 2
        mover = c.MoveIn("p7", "P7", 7, 1000, waits_for_big_blind=True)
        assert (await actor.ask(mover)).ok
        assert awaits_big_blind(actor.summary()) == {"p7"}  # the table shows it
        await hands(8)
        # the button walks 1, 2, 3, 4 without seat 7; at button 5 seat 7 is the big blind
        for button, seats in dealt.hands[1:5]:
            assert 7 not in seats and big_blind_seat(seats, button) != 7
        button, seats = dealt.hands[5]
        assert button == 5 and 7 in seats and big_blind_seat(seats, button) == 7
        assert all(7 in seats for _b, seats in dealt.hands[6:])  # then dealt every hand
        assert awaits_big_blind(actor.summary()) == set()
        await registry.stop_all()

    asyncio.run(asyncio.wait_for(scenario(), 60))
