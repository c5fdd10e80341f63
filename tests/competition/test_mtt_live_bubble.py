"""A multi-table tournament at live tables, on a manual clock (issue 20), two things the
tables do for the field:

- **The browser follows a move**: every player moved to another table (balancing, a table
  broken) gets a ``moved`` frame on the old table's socket naming the new room and seat
  (``SERVER_FRAME`` validates it), once they are up there.
- **Hand-for-hand on the bubble** of a paid MTT: from the moment the next bust is the
  bubble (players left = paid places + 1) until someone busts, every table finishes its hand
  before any table deals the next; players out in the same round at different tables are
  ranked by their stacks at that hand's start (R-TN-04)."""

from __future__ import annotations

import asyncio
from random import Random
from typing import Any

from mtt_play import play

from ahiko.competition.live_mtt import MttRooms
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.protocol import SERVER_FRAME


class Watched(MttRooms):
    """The live tournament, with a log of every hand's start and end at every table."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[str, int, bool]] = []  # (start|end, table, on the bubble)

    def hand_started(self, number: int) -> None:
        self.log.append(("start", number, self.bubble))
        super().hand_started(number)

    def hand_ended(self, number: int, outcome: HandOutcome) -> None:
        self.log.append(("end", number, self.bubble))
        super().hand_ended(number, outcome)


def test_moves_followed_and_hand_for_hand_on_the_bubble_at_live_tables() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"p{n}", f"P{n}") for n in range(25)]
    paid = 12  # the bubble at 13 players, over two tables
    mtt = Watched(registry, "hh", field, rng=Random(3), level_minutes=5, paid_places=paid)

    async def scenario() -> None:
        await mtt.start()
        rooms = dict(mtt.room_ids())
        players = await play(registry, clock, mtt)
        moves = [m for m in mtt.model.moves if m.reason in ("balance", "break")]
        assert len(moves) > 5
        destinations = {(m.player, rooms[m.to_table], m.to_seat) for m in moves}
        frames = [(pid, f) for (pid, _n), p in players.items() for f in p.of("moved")]
        for pid, frame in frames:
            SERVER_FRAME.validate_python(frame)
            # a frame names a move of that player (a player moved twice before reaching
            # the first new table goes straight to the second: one frame, the latest)
            assert (pid, frame["room_id"], frame["seat"]) in destinations
            assert frame["mtt"] == "hh" and rooms[frame["table"]] == frame["room_id"]
        assert {pid for pid, _f in frames} == {m.player for m in moves}
        assert len(frames) >= len(moves) * 0.8
        # nobody moved was taken for a leaver: everyone but the winner busted with no chips
        assert len(mtt.places) == 25 and mtt.model.over
        assert all(p.chips_at_hand_start for p in mtt.places[1:])  # a leaver's would be 0

        assert mtt.rounds >= 1  # hand-for-hand was played
        # every table finishes its hand before any deals the next, while on the bubble
        in_hand: set[int] = set()
        dealt: set[int] = set()
        bubble_starts = 0
        for event, table, bubble in mtt.log:
            if event == "start":
                if bubble:
                    assert table not in dealt, (table, dealt, in_hand)
                    bubble_starts += 1
                in_hand.add(table)
                dealt.add(table)
            else:
                in_hand.discard(table)
                if not in_hand:
                    dealt.clear()  # the round is over: every table may deal again
        assert bubble_starts >= 2
        # it stopped once someone busted: after the round that burst the bubble, nobody waits
        assert len(mtt.model.remaining()) == 1 and not mtt.in_round
        # players out in one round, whatever their tables: ranked by their stacks at its start
        place = {p.player: p.place for p in mtt.places}
        for _round, busts in mtt.round_log:
            out = {p: s for table in busts.values() for p, s in table.items()}
            by_stack = sorted(out, key=lambda p: place[p])
            stacks = [out[p] for p in by_stack]
            assert stacks == sorted(stacks, reverse=True), (busts, by_stack)
        burst = [busts for _r, busts in mtt.round_log if busts]
        assert burst, "the bubble burst in a hand-for-hand round"
        assert max(place[p] for t in burst[0].values() for p in t) == paid + 1

    asyncio.run(asyncio.wait_for(scenario(), 300))
