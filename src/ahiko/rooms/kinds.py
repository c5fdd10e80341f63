"""Room kinds as policy objects: what a recreational room, a tournament and an Ahiko house
room each decide, asked by the room at fixed moments instead of ``if kind is ...`` checks.

| question | recreational | tournament | Ahiko (house) |
|---|---|---|---|
| ``may_sit`` with ``sit`` | yes | until the start (R-TN-02) | no: ``buy_in`` (R-RM-12) |
| ``may_add_bot`` | yes | until the start (R-TN-02) | (no host) |
| ``may_new_entry`` | yes (R-RM-06) | no | no |
| a person may take a bot's place | yes | no | no |
| a hand needs a person (R-RM-03/11) | yes | no | yes |
| closes when empty (R-RM-09) | yes | no | no |
| deals after the between-hands wait (R-RM-11) | no | no | yes |
| a waiting list when full | yes | no | no |
| absent players dealt in, hand folded (R-TN-07 D) | no | yes | no |
| ``on_leave`` / ``on_hand_end`` / ``game_over`` | nothing | R-TN-04/05 | nothing here |

A table of a multi-table tournament (``RoomConfig.part_of``) is a ``MttTable``: a tournament whose
seats, ranking and end are the house's (``ahiko.competition.live_mtt``).

Money (buy-in, settlement, the Bot Ahiko) is the house's ``RoomHooks`` (``rooms/house``);
its ``lobby_entry`` is the hooks' too. The hand's outcome reaches the hooks as a typed
``HandOutcome`` (``ahiko.rooms.hooks``).
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from ahiko.rooms.commands import Refusal
from ahiko.rooms.config import RoomKind
from ahiko.rooms.ranking import TournamentRanking
from ahiko.rooms.seats import Occupant
from ahiko.rooms.status import has_started
from ahiko.rooms.tournament import (
    TournamentTable,
    eliminate_busted,
    eliminate_leaver,
    finish_if_won,
)

if TYPE_CHECKING:
    from ahiko.rooms.table_hand import TableHand


class Recreational:
    kind = RoomKind.RECREATIONAL
    needs_a_person = True  # R-RM-03 / R-RM-11: at least one person in a hand
    may_take_bot_place = True
    closes_when_empty = True  # R-RM-09
    deals_after_wait = False
    has_wait_list = True  # A full room's free seat goes to the first in line
    # R-TN-07 D: absent players (timed out, sitting out, disconnected) stay in the field and
    # are dealt in, their hand folded; no absence withdraws them
    keeps_absent_in_field = False

    def new_ranking(self, rng: Random) -> TournamentRanking | None:
        return None

    def may_sit(self, room: TournamentTable) -> None:
        return None

    def may_add_bot(self, room: TournamentTable) -> None:
        return None

    def may_new_entry(self, room: TournamentTable) -> None:
        return None

    def on_seated(self, room: TournamentTable) -> None:
        return None

    def on_leave(self, room: TournamentTable, occupant: Occupant, in_hand: bool) -> None:
        return None

    def on_hand_end(self, room: TournamentTable, hand: TableHand) -> None:
        return None

    def game_over(self, room: TournamentTable) -> bool:
        return False


class Tournament(Recreational):
    kind = RoomKind.TOURNAMENT
    needs_a_person = False
    may_take_bot_place = False
    closes_when_empty = False
    has_wait_list = False
    keeps_absent_in_field = True

    def new_ranking(self, rng: Random) -> TournamentRanking | None:
        return TournamentRanking(0, rng)

    def may_sit(self, room: TournamentTable) -> None:
        if has_started(room.status):
            raise Refusal("started", "the tournament has started; seats are closed", "R-TN-02")

    def may_add_bot(self, room: TournamentTable) -> None:
        self.may_sit(room)

    def may_new_entry(self, room: TournamentTable) -> None:
        raise _no_new_entry()

    def on_seated(self, room: TournamentTable) -> None:
        assert room.ranking is not None
        room.ranking.entrants += 1

    def on_leave(self, room: TournamentTable, occupant: Occupant, in_hand: bool) -> None:
        """R-TN-05: leaving is elimination at once."""
        assert room.ranking is not None
        if occupant.player_id not in room.ranking.eliminated:
            eliminate_leaver(room, occupant, in_hand)

    def on_hand_end(self, room: TournamentTable, hand: TableHand) -> None:
        eliminate_busted(room, hand)  # R-TN-04

    def game_over(self, room: TournamentTable) -> bool:
        return finish_if_won(room)  # R-TN-05


class MttTable(Tournament):
    """One table of a multi-table tournament (``RoomConfig.part_of``): the house
    seats and moves players between tables (``MoveIn``/``MoveOut``, between hands), ranks the
    whole field (R-TN-04 across tables; a leaver, R-TN-05, through ``on_player_left``) and
    ends the tournament; the table only plays hands, and a busted player leaves it."""

    def new_ranking(self, rng: Random) -> TournamentRanking | None:
        return None

    def may_sit(self, room: TournamentTable) -> None:
        raise Refusal("assigned_seats", "seats at this tournament are assigned", "R-TN-02")

    def on_seated(self, room: TournamentTable) -> None:
        return None

    def on_leave(self, room: TournamentTable, occupant: Occupant, in_hand: bool) -> None:
        return None

    def on_hand_end(self, room: TournamentTable, hand: TableHand) -> None:
        for seat, player_id in hand.players.items():
            occupant = room.seats.get(seat)
            if occupant is not None and occupant.player_id == player_id and occupant.stack == 0:
                occupant.leave_after_hand = True  # R-TN-04: out; the house ranks the field

    def game_over(self, room: TournamentTable) -> bool:
        return False


class House(Recreational):
    """An Ahiko room: no host; seats are bought from the wallet (``rooms/house``)."""

    kind = RoomKind.AHIKO
    may_take_bot_place = False
    closes_when_empty = False
    has_wait_list = False
    deals_after_wait = True  # R-RM-11: eight seconds after the table becomes ready

    def may_sit(self, room: TournamentTable) -> None:
        raise Refusal(
            "buy_in_required",
            "an Ahiko room needs the buy-in amount confirmed: send buy_in with seat and amount",
            "R-RM-12",
        )

    def may_new_entry(self, room: TournamentTable) -> None:
        raise _no_new_entry()


def _no_new_entry() -> Refusal:
    return Refusal("not_allowed", "new entries exist only in recreational rooms", "R-RM-06")


RoomPolicy = Recreational  # the protocol every kind follows (Recreational is the default)

POLICIES: dict[RoomKind, RoomPolicy] = {
    RoomKind.RECREATIONAL: Recreational(),
    RoomKind.TOURNAMENT: Tournament(),
    RoomKind.AHIKO: House(),
}


MTT_TABLE = MttTable()


def policy_for(kind: RoomKind, part_of: str | None = None) -> RoomPolicy:
    return MTT_TABLE if part_of is not None else POLICIES[kind]
