"""The pieces of the room the house's parts share in their ports.

Each house module declares, beside its code, the small ``Protocol`` it needs of the room
(``DeskRoom``, ``SeatingRoom``, ``AhikoRoom``...); mypy checks that the room satisfies it
where the room is handed over. The members several of them need are named once here. The
house asks each part for its own work (``room.dealer.wake()``, ``room.broadcast.notify``),
so a port names the part and the few members of it the house uses.

Standing a player up is the one thing the house asks that is not a member of the room:
``ahiko.rooms.leaving.leave`` is the one way out of a seat (a committed hand cancelled, a
tournament's elimination, the seat folded at its turn), and it still takes the whole room.
``stand_up`` hands it the room the command came with, as it came.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ahiko.rooms import leaving
from ahiko.rooms.broadcast import Told
from ahiko.rooms.commands import Reply
from ahiko.rooms.frame_types import UnnumberedKind
from ahiko.rooms.ports import CurrentHand
from ahiko.rooms.seats import Seats


class WakesHands(Protocol):
    """The dealer, as a change of seats asks it: deal if the table became ready."""

    def wake(self) -> None: ...


class HouseDealer(WakesHands, CurrentHand, Protocol):
    """The dealer, as most of the house meets it: the hand in play, and a deal once the
    table is ready."""


class TellsOne(Protocol):
    """The broadcaster, as the house tells one player something (not a numbered frame)."""

    def notify(self, player_id: str, kind: UnnumberedKind, payload: Told) -> None: ...


class ChangesSeats(Protocol):
    """The seats, and what follows a change of them: the room frame, and a deal if the
    table became ready."""

    @property
    def seats(self) -> Seats: ...
    @property
    def dealer(self) -> WakesHands: ...
    def emit_room(self) -> None: ...


class SeesTheHand(Protocol):
    @property
    def dealer(self) -> CurrentHand:
        """The dealer, whose hand is the one being played; None between hands."""


class PlaysHands(ChangesSeats, SeesTheHand, Protocol):
    """A room whose seats change while its hands are watched: one dealer for both."""

    @property
    def dealer(self) -> HouseDealer: ...


class TellsOnePlayer(Protocol):
    @property
    def broadcast(self) -> TellsOne: ...


def stand_up(room: ChangesSeats, player_id: str, reason: str = "left") -> Reply:
    """Stand ``player_id`` up the one way a seat is left (``leaving.leave``); ``room`` is the
    room the house's command was handed."""
    leave: Callable[..., Reply] = leaving.leave
    return leave(room, player_id, reason)
