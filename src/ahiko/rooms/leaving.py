"""Standing up: the one path out of a seat, for a leaver, a withdrawn absentee (R-TM-03) and
an Ahiko player's immediate exit (R-RM-14), so each leaves the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ahiko.rooms import commands as c
from ahiko.rooms.commands import NOT_SEATED, Refusal, Reply
from ahiko.rooms.status import RoomStatus, require
from ahiko.rooms.table_hand import Phase
from ahiko.rooms.tournament import TournamentTable

if TYPE_CHECKING:
    from ahiko.rooms.house.room_ledger import RoomLedger
    from ahiko.rooms.kinds import RoomPolicy
    from ahiko.rooms.seats import Occupant
    from ahiko.rooms.table_hand import TableHand


class Opened(Protocol):
    """Whatever a command must first find open: the room's status."""

    @property
    def status(self) -> RoomStatus: ...


class LeavingDealer(Protocol):
    """The dealer, as a leaver meets it: the hand in play, cancelled before its cards."""

    @property
    def hand(self) -> TableHand | None: ...
    @property
    def next_hand_no(self) -> int: ...
    def cancel_committed_hand(self, reason: str) -> None: ...
    def wake(self) -> None: ...


class LeaverTurns(Protocol):
    def auto_act_for(self, seat: int, *, forfeit: bool = False) -> None: ...


class LedgerDesk(Protocol):
    @property
    def ledger(self) -> RoomLedger: ...


class LeavingTable(TournamentTable, Protocol):
    """What the way out of a seat touches: the seats and the chips that entered the table,
    the hand (cancelled, or played out by the timeout rule), the kind (a tournament
    eliminates), the ledger, and the room's verb for a player gone."""

    chips_in: int

    @property
    def kind(self) -> RoomPolicy: ...
    @property
    def dealer(self) -> LeavingDealer: ...
    @property
    def turns(self) -> LeaverTurns: ...
    @property
    def host_desk(self) -> LedgerDesk: ...
    def emit_room(self) -> None: ...
    def player_left(self, occupant: Occupant) -> None: ...


def ensure_open(room: Opened) -> None:
    """Refuse every command once the room is over (finished or closed): the status table's
    answer for a command the status does not take (``ahiko.rooms.status.require``)."""
    require(room.status, c.Sit)


def leave(room: LeavingTable, player_id: str, reason: str = "left") -> Reply:
    """Stand up. Before the cards, a participant leaving cancels the hand (R-FD-06); during
    a hand the seat folds at its turn and leaves at the end; a tournament player is
    eliminated at once (R-TN-05)."""
    ensure_open(room)
    reservation = room.seats.cancel_reservation(player_id)
    if reservation is not None:
        room.chips_in -= reservation.stack
        room.host_desk.ledger.left(
            player_id, reservation.name, False, reservation.stack, room.dealer.next_hand_no
        )
        room.emit_room()
        return Reply.accepted(seat=None)
    seat = room.seats.seat_of(player_id)
    if seat is None:
        raise Refusal("not_seated", NOT_SEATED, "R-RM-01")
    occupant = room.seats.get(seat)
    assert occupant is not None
    hand = room.dealer.hand
    in_hand = hand is not None and hand.players.get(seat) == player_id
    if hand is not None and in_hand and hand.phase is Phase.COMMITTED:
        room.dealer.cancel_committed_hand(f"seat {seat} left before the deal")
        in_hand = False
    room.kind.on_leave(room, occupant, in_hand)  # a tournament eliminates (R-TN-05)
    if in_hand:
        occupant.leave_after_hand = True
        room.turns.auto_act_for(seat, forfeit=reason == "absent")  # R-TM-04: the absentee folds
    else:
        room.seats.remove(seat)
        room.player_left(occupant)
    room.emit_room()
    if room.dealer.hand is None:
        room.dealer.wake()
    return Reply.accepted(seat=seat, reason=reason, after_hand=in_hand)
