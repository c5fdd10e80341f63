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
import itertools
from collections.abc import Sequence
from random import Random
from typing import Any

from mtt_play import play

from ahiko.competition.live_mtt import MttRooms
from ahiko.competition.mtt import Move
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.seats import Occupant
from ahiko.server.protocol import SERVER_FRAME


class Watched(MttRooms):
    """The live tournament, with a log of every hand's start and end at every table, and
    of every hand's big blind as the room dealt it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[str, int, bool]] = []  # (start|end, table, on the bubble)
        self.hands_at: dict[int, list[tuple[dict[int, str], str]]] = {}  # seats, big blind
        # moved: (player, table, seat, hands the table had dealt when the move was decided)
        self.left_from: list[tuple[str, int, int, int]] = []
        self.seen_at_arrival: list[dict[int, str]] = []
        self.out_on_the_way: set[str] = set()  # moved in a hand they busted in: never went

    def hand_started(self, number: int, button: int | None, seats: Sequence[int]) -> None:
        self.log.append(("start", number, self.bubble))
        players = {s: self.seated[number][s] for s in seats}
        assert button is not None
        # the button of this hand is ``button``: its big blind is the second after it
        # (heads-up: the one that is not the button)
        order = sorted(seats)
        later = [x for x in order if x > button] + [x for x in order if x <= button]
        big = later[0] if len(order) == 2 else later[1]
        self.hands_at.setdefault(number, []).append((players, players[big]))
        super().hand_started(number, button, seats)

    def player_left(self, number: int, occupant: Occupant) -> dict[str, Any] | None:
        count = len(self.arrivals)
        leaving_for_a_move = self.moving.get(occupant.player_id) == number
        moved = super().player_left(number, occupant)
        if leaving_for_a_move and moved is None:
            self.out_on_the_way.add(occupant.player_id)
        if len(self.arrivals) > count:  # the field at the new table as its seat was chosen
            table = self.model.tables[self.arrivals[-1][1]]
            self.seen_at_arrival.append(dict(table.seats))
        return moved

    def _apply(self, moves: Sequence[Move]) -> None:
        for move in moves:
            if move.player not in self.moving and move.reason == "balance":
                seat = next(s for s, p in self.seated[move.from_table].items() if p == move.player)
                dealt = len(self.hands_at.get(move.from_table, []))
                self.left_from.append((move.player, move.from_table, seat, dealt))
        super()._apply(moves)

    def hand_ended(self, number: int, outcome: HandOutcome) -> None:
        self.log.append(("end", number, self.bubble))
        super().hand_ended(number, outcome)


def test_R_HE_02_R_TN_04_moves_and_hand_for_hand_on_the_bubble_at_live_tables() -> None:
    """Every tournament is checked in full; the big-blind checks only count moves where
    nothing else changed at either table, which the rooms' (unseeded) shuffles may leave
    none of in one tournament: another is played then, up to three in all."""
    sources = arrivals = 0
    for seed in (3, 4, 5):
        more_sources, more_arrivals = play_one_tournament(seed)
        sources, arrivals = sources + more_sources, arrivals + more_arrivals
        if sources and arrivals:
            break
    assert sources >= 1 and arrivals >= 1, (sources, arrivals)


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


def check_big_blinds(mtt: Watched) -> tuple[int, int]:
    """Nobody skips a big blind by moving, as the live tables deal (R-HE-02, the button one
    seat on every hand): the player a balancing move takes is the one the source table's
    next hand would have made big blind (that hand, dealt without them, makes the player
    after them big blind instead, when nobody else came or went there); at the new table
    they take the free seat where the big blind comes soonest, and it comes in the very hand
    the tournament counted at their arrival (when nobody else came or went there).
    Returns how many departures and arrivals could be checked."""
    sources = 0
    for player, number, seat, dealt in mtt.left_from:
        hands = mtt.hands_at[number]
        # their last hand there: the one being played when the move was decided, if they
        # were in it, else the one before (they may come back to this table later)
        last = dealt - 1
        if last < 0 or player not in hands[last][0].values() or last + 1 >= len(hands):
            continue  # not dealt in there before the move, or the table dealt no hand after
        seats, big = hands[last + 1]
        if {**seats, seat: player} != hands[last][0]:
            continue  # someone else came or went there too
        order = sorted(seats)
        after = [s for s in order if s > seat] + [s for s in order if s < seat]
        assert big == seats[after[0]], (player, number, seat, hands[last], hands[last + 1])
        sources += 1
    arrivals = 0
    for (player, number, seat, soon), field in zip(mtt.arrivals, mtt.seen_at_arrival, strict=True):
        dealt = [h for h in mtt.hands_at.get(number, []) if h[0].get(seat) == player]
        steady = list(itertools.takewhile(lambda h, f=field: h[0] == f, dealt))  # nobody came/went
        bigs = [i for i, (_seats, big) in enumerate(steady) if big == player]
        if bigs:  # their first big blind came in the hand counted at their arrival
            assert bigs[0] + 1 == soon, (player, number, seat, soon, steady)
            arrivals += 1
        else:
            assert len(steady) < soon  # the table changed (or ended) before their turn
    return sources, arrivals
