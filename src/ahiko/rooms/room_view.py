"""What the room's hooks and archive (``ahiko.rooms.hooks``) and every package outside
``ahiko.rooms`` see of a room: a ``RoomView``, read-only, never the ``Room`` or its parts.

The view is a thin adapter the room makes once and hands to every hook call (hooks run every
hand, so nothing is copied up front): each property reads the room as it stands at that
moment. Seats come out as frozen ``SeatFacts`` in a read-only mapping; the view's attributes
cannot be assigned. Its three commands are the only things a hook may ask of the room:
``notify`` one player, run a job on the room's thread after the current one (``later``), or
as the room's own job when a worker's write comes back (``fire``).

The house's table (``ahiko.rooms.house``) is a part of the room that seats and unseats the
Bot Ahiko and pays cash-outs out: it alone reaches the room behind its view, through
``room_behind``, which no module outside ``ahiko.rooms`` may call (tests/architecture).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from ahiko.rooms.ports import RoomIdentity

if TYPE_CHECKING:
    from ahiko.poker.events import Event
    from ahiko.rooms import frame_types as ft
    from ahiko.rooms.broadcast import Told
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.ports import Outgoing
    from ahiko.rooms.seats import Occupant, Seats
    from ahiko.rooms.status import RoomStatus
    from ahiko.rooms.table_hand import TableHand


class ViewedDealer(Protocol):
    """The dealer, as the view reads it: the button, the hands and their numbers."""

    @property
    def button(self) -> int | None: ...
    @property
    def hand(self) -> TableHand | None: ...
    @property
    def last_hand(self) -> TableHand | None: ...
    @property
    def next_hand_no(self) -> int: ...
    @property
    def hands_dealt(self) -> int: ...
    def participants_ready(self) -> list[int]: ...


class ViewedRoom(RoomIdentity, Protocol):
    """What a ``RoomView`` reads of its room (the room satisfies it)."""

    @property
    def status(self) -> RoomStatus: ...
    @property
    def dealer(self) -> ViewedDealer: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def bots(self) -> Container[str]: ...
    @property
    def departed_names(self) -> Mapping[str, str]: ...
    @property
    def broadcast(self) -> Outgoing: ...
    def summary(self) -> ft.RoomSummary: ...
    def later(self, job: Callable[[], None]) -> None: ...
    def fire(self, job: Callable[[], None]) -> None: ...


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat's occupant as it stands when read (a copy: changing it changes no seat)."""

    player_id: str
    name: str
    stack: int
    is_bot: bool
    connected: bool
    sitting_out: bool
    waiting: bool  # reserved during a hand: plays from the next one
    leave_after_hand: bool

    @property
    def is_person(self) -> bool:
        return not self.is_bot

    @classmethod
    def of(cls, occupant: Occupant) -> SeatFacts:
        return cls(
            occupant.player_id,
            occupant.name,
            occupant.stack,
            occupant.is_bot,
            occupant.connected,
            occupant.sitting_out,
            occupant.waiting,
            occupant.leave_after_hand,
        )


class RoomView:
    """A room, read-only, for its hooks and for packages outside ``ahiko.rooms``."""

    __slots__ = ("_room",)

    _room: ViewedRoom

    def __init__(self, room: ViewedRoom) -> None:
        object.__setattr__(self, "_room", room)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a RoomView is read-only: {name} cannot be set")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a RoomView is read-only: {name} cannot be deleted")

    def __repr__(self) -> str:
        return f"RoomView({self._room.room_id!r})"

    # --- what the room is -------------------------------------------------------------------
    @property
    def room_id(self) -> str:
        return self._room.room_id

    @property
    def config(self) -> RoomConfig:
        return self._room.config  # frozen

    @property
    def host_id(self) -> str | None:
        return self._room.host_id

    @property
    def status(self) -> RoomStatus:
        return self._room.status

    @property
    def is_open(self) -> bool:
        return self._room.is_open

    # --- hands ------------------------------------------------------------------------------
    @property
    def button(self) -> int | None:
        """The button of the last hand dealt (None before the first)."""
        return self._room.dealer.button

    @property
    def hand_no(self) -> int | None:
        """The number of the hand being played; None between hands."""
        hand = self._room.dealer.hand
        return None if hand is None else hand.hand_no

    @property
    def next_hand_no(self) -> int:
        return self._room.dealer.next_hand_no

    @property
    def hands_dealt(self) -> int:
        return self._room.dealer.hands_dealt

    @property
    def last_hand_events(self) -> tuple[Event, ...]:
        """What happened in the last finished hand, in order (empty before the first)."""
        hand = self._room.dealer.last_hand
        return () if hand is None else tuple(hand.hand.events)

    @property
    def ready_seats(self) -> tuple[int, ...]:
        """The seats the next hand would be dealt to now; empty when it cannot be dealt."""
        return tuple(self._room.dealer.participants_ready())

    # --- people -----------------------------------------------------------------------------
    @property
    def seats(self) -> Mapping[int, SeatFacts]:
        """Seat -> its occupant, in seat order (a read-only mapping of copies)."""
        return MappingProxyType({s: SeatFacts.of(o) for s, o in self._room.seats.items()})

    @property
    def free_seats(self) -> tuple[int, ...]:
        """Seats nobody sits in nor has reserved."""
        return tuple(self._room.seats.free_seats())

    def is_bot(self, player_id: str) -> bool:
        """``player_id`` is one of this table's bots (seated, or leaving after the hand)."""
        return player_id in self._room.bots

    def departed_name(self, player_id: str) -> str | None:
        """The name ``player_id`` had here when they left this table; None if they never did."""
        return self._room.departed_names.get(player_id)

    def summary(self) -> ft.RoomSummary:
        """The public description of the room, as its ``room`` frame carries it."""
        return self._room.summary()

    # --- the writes a hook may ask for --------------------------------------------------------
    def notify(self, player_id: str, kind: ft.UnnumberedKind, body: Told) -> None:
        """Tell one player something out of the numbered frames (``moved``, ``wallet``...)."""
        self._room.broadcast.notify(player_id, kind, body)

    def later(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the room's thread once the current job is done."""
        self._room.later(job)

    def fire(self, job: Callable[[], None]) -> None:
        """Run ``job`` as one of the room's own jobs (a worker's write came back); nothing
        runs once the room's run is over."""
        self._room.fire(job)


def room_behind(view: RoomView) -> Any:
    """The room ``view`` shows: for the house's own parts inside ``ahiko.rooms`` only. Typed
    by its caller (the house names what it is handed): the view itself knows the room only
    through ``ViewedRoom``."""
    return view._room
