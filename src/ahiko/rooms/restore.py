"""What a room is reopened with after a restart (the Ahiko rooms are durable): plain data
handed to the room when it is built, so nothing outside reaches into a live room."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ahiko.rooms.seats import Occupant

if TYPE_CHECKING:
    from ahiko.rooms.room import Room


@dataclass(frozen=True, slots=True)
class RestoredSeat:
    """A person's seat given back: away until they reconnect (R-TM-05, R-TM-03)."""

    seat: int
    player_id: str
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class Restore:
    next_hand_no: int  # hand numbers go on, never reused (R-FD-06)
    button: int | None
    recent_pots: tuple[int, ...] = ()  # the lobby's average pot goes on
    seats: tuple[RestoredSeat, ...] = ()


def reopen(room: Room, restore: Restore) -> None:
    """A room reopened after a restart: hand numbers go on, never reused (R-FD-06), and the
    button moves on from ``button``; the commitment chain starts anew (GENESIS_PREV). The
    people get their seats back, away until they reconnect: not dealt in (R-TM-05), withdrawn
    after the absence delay if they do not come back (R-TM-03, R-TM-07)."""
    room.dealer.next_hand_no = restore.next_hand_no
    room.dealer.button = restore.button
    room.recent_pots.extend(restore.recent_pots)

    def seat_them() -> None:
        for record in restore.seats:
            occupant = Occupant(record.player_id, record.name, record.stack)
            room.seat_occupant(record.seat, occupant)
            room.presence.mark_absent(occupant.player_id)
        room.emit_room()

    room.fire(seat_them)
