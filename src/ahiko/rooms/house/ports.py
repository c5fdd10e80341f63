"""The pieces of the room the house's parts share in their ports.

Each house module declares, beside its code, the small ``Protocol`` it needs of the room
(``DeskRoom``, ``SeatingRoom``, ``AhikoRoom``...); mypy checks that the room satisfies it
where the room is handed over. The members several of them need are named once here.

Standing a player up is the one thing the house asks that is not a member of the room:
``ahiko.rooms.leaving.leave`` is the one way out of a seat (a committed hand cancelled, a
tournament's elimination, the seat folded at its turn), and it still takes the whole room.
``stand_up`` hands it the room the command came with, as it came.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ahiko.rooms import leaving
from ahiko.rooms.commands import Reply
from ahiko.rooms.frame_types import UnnumberedBody, UnnumberedKind
from ahiko.rooms.seats import Seats
from ahiko.rooms.table_hand import TableHand


class ChangesSeats(Protocol):
    """The seats, and what follows a change of them: the room frame, and a deal if the
    table became ready."""

    @property
    def seats(self) -> Seats: ...
    def emit_room(self) -> None: ...
    def wake(self) -> None: ...


class SeesTheHand(Protocol):
    @property
    def hand(self) -> TableHand | None:
        """The hand being played; None between hands."""


class TellsOnePlayer(Protocol):
    def notify(
        self, player_id: str, kind: UnnumberedKind, body: UnnumberedBody | Mapping[str, Any]
    ) -> None: ...


def stand_up(room: ChangesSeats, player_id: str, reason: str = "left") -> Reply:
    """Stand ``player_id`` up the one way a seat is left (``leaving.leave``); ``room`` is the
    room the house's command was handed."""
    leave: Callable[..., Reply] = leaving.leave
    return leave(room, player_id, reason)
