"""What a room is reopened with after a restart (the Ahiko rooms are durable): plain data
handed to the room when it is built, so nothing outside reaches into a live room."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ahiko.rooms.seats import Occupant


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


class ContinuedDealer(Protocol):
    """The dealer's numbering, carried on from the previous run."""

    next_hand_no: int
    button: int | None


class Absentees(Protocol):
    def mark_absent(self, player_id: str) -> None: ...


class ReopenedTable(Protocol):
    """What a reopened room is given back: the hand numbers and button, the pots of the
    lobby's average, and its people seated, away until they reconnect."""

    @property
    def dealer(self) -> ContinuedDealer: ...
    @property
    def recent_pots(self) -> deque[int]: ...
    @property
    def presence(self) -> Absentees: ...
    def seat_occupant(self, seat: int, occupant: Occupant) -> bool: ...
    def fire(self, job: Callable[[], None]) -> None: ...
    def emit_room(self) -> None: ...


def reopen(room: ReopenedTable, restore: Restore) -> None:
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
