"""A multi-table tournament at live tables, on a manual clock (issue 20), three things the
tables do for the field:

- **Nobody skips a big blind by moving** (R-HE-02, R-TN-03; ``check_big_blinds``), for every
  move: a balancing move takes the source table's next big blind, and a moved player's first
  hand at the new table is their big blind.

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

from mtt_play import play
from mtt_watch import Watched, check_big_blinds

from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.protocol import SERVER_FRAME


def test_R_HE_02_R_TN_03_R_TN_04_moves_and_hand_for_hand_on_the_bubble_at_live_tables() -> None:
    departures, arrivals = play_one_tournament(3)
    assert departures >= 1 and arrivals >= 3, (departures, arrivals)


def play_one_tournament(seed: int) -> tuple[int, int]:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"p{n}", f"P{n}") for n in range(25)]
    mtt = Watched(registry, "hh", field, rng=Random(seed), level_minutes=5, paid_places=1)
    checked = (0, 0)

    def pay_the_field_left() -> None:
        """The places paid are fixed when the field first falls to 14 or fewer, at two
        tables: the bubble is then the next bust, whatever the cards (a fixed number could
        be jumped over by a hand busting two). Late registration changes them too."""
        left = len(mtt.model.remaining())
        if mtt.model.paid_places == 1 and 10 <= left <= 14 and len(mtt.model.tables) > 1:
            mtt.model.paid_places = left - 1

    async def scenario() -> None:
        await mtt.start()
        rooms = dict(mtt.room_ids())
        players = await play(registry, clock, mtt, pay_the_field_left)
        moves = [m for m in mtt.model.moves if m.reason in ("balance", "break")]
        assert len(moves) > 5
        # the seat is chosen again at the arrival (where the big blind comes soonest then)
        destinations = {(m.player, rooms[m.to_table]) for m in moves}
        seats = {(p, rooms[n], seat) for p, n, seat, _soon in mtt.arrivals}
        frames = [(pid, f) for (pid, _n), p in players.items() for f in p.of("moved")]
        for pid, frame in frames:
            SERVER_FRAME.validate_python(frame)
            # a frame names a move of that player (a player moved twice before reaching
            # the first new table goes straight to the second: one frame, the latest)
            assert (pid, frame["room_id"]) in destinations
            assert (pid, frame["room_id"], frame["seat"]) in seats
            assert frame["mtt"] == "hh" and rooms[frame["table"]] == frame["room_id"]
        # a player moved during a hand they then busted in stays out, and is told nothing
        framed = {pid for pid, _f in frames}
        assert framed <= {m.player for m in moves}
        assert {m.player for m in moves} - framed <= mtt.out_on_the_way
        assert len(frames) >= len(moves) * 0.8
        # nobody moved was taken for a leaver: everyone but the winner busted with no chips
        assert len(mtt.places) == 25 and mtt.model.over
        assert all(p.chips_at_hand_start for p in mtt.places[1:])  # a leaver's would be 0

        nonlocal checked
        checked = check_big_blinds(mtt)
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
        assert max(place[p] for t in burst[0].values() for p in t) == mtt.model.paid_places + 1

    asyncio.run(asyncio.wait_for(scenario(), 300))
    return checked
