"""Watching a live multi-table tournament (imported as ``mtt_watch``): ``Watched`` logs every
hand's start and end at every table as the rooms deal it, and every balancing move's source
table as it was when the model chose the mover; ``check_big_blinds`` checks from those logs
that nobody skips a big blind by moving (R-HE-02, R-TN-03)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ahiko.competition.live_mtt import MttRooms
from ahiko.competition.mtt import Move, MultiTable, Table
from ahiko.rooms.dealing import big_blind_seat
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.seats import Occupant


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


def check_big_blinds(mtt: Watched) -> tuple[int, int]:
    """Nobody skips a big blind by moving, as the live tables deal (R-HE-02, the button one
    seat on every hand; R-TN-03, the blinds rotate every hand), for every move:

    - a balancing move takes the player R-HE-02 makes big blind in the source table's next
      hand (from the button the room last dealt there, the players seated then, a moved
      player waiting for their big blind dealt in only at it), and the source table deals
      them no hand after the one it was playing then (until they are moved back to it, when
      they wait there like any arrival);
    - the first hand a moved player is dealt after their arrival is one in which they post
      the big blind, unless fewer than three players already dealt there were in that hand
      (a final table formed of newcomers, a table dealing heads-up while the others are on
      their way, or heads-up when they came: a newcomer is never the big blind of a
      three-handed hand after a heads-up one): the table deals its newcomers at once.

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
        assert next_big_blind(sorted(seats), waiting, button) == mover, (
            player,
            seats,
            waiting,
            button,
        )
        back = min(  # moved back to that table later (another table broken or balanced)
            (
                i
                for (p, table, _s, _soon), i in zip(mtt.arrivals, mtt.arrived_at, strict=True)
                if p == player and table == number and i >= at
            ),
            default=len(log),
        )
        there = [players for table, players, _big in log[at:back] if table == number]
        assert all(player not in players.values() for players in there[:1]), (player, number)
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
        if len(set(players.values()) - newcomers) < 3:
            continue  # nobody to wait with: that table deals its newcomers at once
        assert big == player, (player, log[first])
        arrivals += 1
    return departures, arrivals


def next_big_blind(seats: list[int], waiting: set[int], button: int) -> int:
    """R-HE-02's big blind of the hand after one dealt with ``button``: the waiting seats
    are dealt in only at their big blind (all dealt when fewer than three others are)."""
    playing = [s for s in seats if s not in waiting]
    if len(playing) < 3:
        return big_blind_seat(seats, next_button(seats, button))
    for seat in sorted(waiting):
        trial = sorted([*playing, seat])
        if seat in seats and big_blind_seat(trial, next_button(trial, button)) == seat:
            return seat
    return big_blind_seat(playing, next_button(playing, button))


def next_button(seats: list[int], button: int) -> int:
    return next((s for s in seats if s > button), seats[0])
