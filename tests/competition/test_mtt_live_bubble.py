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
from collections.abc import Sequence
from random import Random
from typing import Any

from mtt_play import play

from ahiko.competition.live_mtt import MttRooms
from ahiko.competition.mtt import Move, MultiTable, Table
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.dealing import big_blind_seat
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.seats import Occupant
from ahiko.server.protocol import SERVER_FRAME


class RecordedField(MultiTable):
    """The model, keeping each balancing move's source table as it was when it chose the
    mover, with how many hands the tables had dealt then (``dealt_log``'s length)."""

    decided: list[tuple[str, int, dict[int, str], set[int], int | None, int]]
    dealt_log: list[tuple[int, dict[int, str], str]]

    def _move(self, player: str, source: Table, target: Table, reason: str) -> Move:
        if reason == "balance":
            state = (dict(source.seats), set(source.waiting), source.button)
            self.decided.append((player, source.number, *state, len(self.dealt_log)))
        return super()._move(player, source, target, reason)


class Watched(MttRooms):
    """The live tournament, with a log of every hand's start and end at every table, and
    of every hand's dealt players and big blind as the room dealt it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[str, int, bool]] = []  # (start|end, table, on the bubble)
        self.hands_at: dict[int, int] = {}  # hands dealt, by table
        self.dealt_log: list[tuple[int, dict[int, str], str]] = []  # (table, dealt, big blind)
        self.arrived_at: list[int] = []  # each arrival's ``dealt_log`` length
        self.out_on_the_way: set[str] = set()  # moved in a hand they busted in: never went
        self.model.__class__ = RecordedField
        assert isinstance(self.model, RecordedField)
        self.model.decided = []
        self.model.dealt_log = self.dealt_log

    def hand_started(self, number: int, button: int | None, seats: Sequence[int]) -> None:
        self.log.append(("start", number, self.bubble))
        players = {s: self.seated[number][s] for s in seats}
        assert button is not None
        big = big_blind_seat(sorted(seats), button)
        self.dealt_log.append((number, players, players[big]))
        self.hands_at[number] = self.hands_at.get(number, 0) + 1
        super().hand_started(number, button, seats)

    def player_left(self, number: int, occupant: Occupant) -> dict[str, Any] | None:
        count = len(self.arrivals)
        leaving_for_a_move = self.moving.get(occupant.player_id) == number
        moved = super().player_left(number, occupant)
        if leaving_for_a_move and moved is None:
            self.out_on_the_way.add(occupant.player_id)
        if len(self.arrivals) > count:
            self.arrived_at.append(len(self.dealt_log))
        return moved

    def hand_ended(self, number: int, outcome: HandOutcome) -> None:
        self.log.append(("end", number, self.bubble))
        super().hand_ended(number, outcome)


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


def check_big_blinds(mtt: Watched) -> tuple[int, int]:
    """Nobody skips a big blind by moving, as the live tables deal (R-HE-02, the button one
    seat on every hand; R-TN-03, the blinds rotate every hand), for every move:

    - a balancing move takes the player R-HE-02 makes big blind in the source table's next
      hand (from the button the room last dealt there, the players seated then, a moved
      player waiting for their big blind dealt in only at it), and the source table deals
      them no hand after the one it was playing then;
    - the first hand a moved player is dealt after their arrival is one in which they post
      the big blind, unless fewer than two players already dealt there were in that hand
      (a final table formed of newcomers, a table dealing heads-up while the others are on
      their way): no big blind to wait for, the table deals its newcomers at once.

    So the hands a moved player is dealt from one big blind to the next are exactly those
    they would have been dealt without the move. Returns how many departures and arrivals
    were checked."""
    assert isinstance(mtt.model, RecordedField)
    log = mtt.dealt_log
    departures = 0
    for player, number, seats, waiting, button, at in mtt.model.decided:
        if button is None or len(seats) < 2:
            continue  # the table has dealt no hand yet: no big blind to come
        mover = next(s for s, p in seats.items() if p == player)
        assert next_big_blind(sorted(seats), waiting, button) == mover, (player, seats, button)
        there = [players for table, players, _big in log[at:] if table == number]
        assert all(player not in players.values() for players in there[:1]), player
        departures += 1
    firsts = {  # each arrival's first hand dealt to them (its ``dealt_log`` index)
        (player, at): next((i for i in range(at, len(log)) if player in log[i][1].values()), None)
        for (player, _n, _s, _soon), at in zip(mtt.arrivals, mtt.arrived_at, strict=True)
    }
    arrivals = 0
    for (player, _at), first in firsts.items():
        if first is None:
            continue  # out (the tournament ended, or they left) before a hand
        _table, players, big = log[first]
        newcomers = {p for (p, _at), i in firsts.items() if i == first}
        if len(set(players.values()) - newcomers) < 2:
            continue  # nobody to wait with: that table deals its newcomers at once
        assert big == player, (player, log[first])
        arrivals += 1
    return departures, arrivals


def next_big_blind(seats: list[int], waiting: set[int], button: int) -> int:
    """R-HE-02's big blind of the hand after one dealt with ``button``: the waiting seats
    are dealt in only at their big blind (all dealt when fewer than two others are)."""
    playing = [s for s in seats if s not in waiting]
    if len(playing) < 2:
        playing = seats
    for seat in sorted(waiting):
        trial = sorted([*playing, seat])
        if seat in seats and big_blind_seat(trial, next_button(trial, button)) == seat:
            return seat
    return big_blind_seat(playing, next_button(playing, button))


def next_button(seats: list[int], button: int) -> int:
    return next((s for s in seats if s > button), seats[0])
