"""What a room is reopened with after a restart (the Ahiko rooms are durable): plain data
handed to the room when it is built, so nothing outside reaches into a live room."""

from __future__ import annotations

from dataclasses import dataclass


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
