"""The small ports several parts of a room share, each the few members a part uses of
another: a part's own port (a ``Protocol`` in its module) lists these among the rest. The
room satisfies every one; mypy checks it where the room hands itself to a part."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ahiko.rooms.broadcast import Build, Told
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.frame_types import NumberedKind, UnnumberedKind
    from ahiko.rooms.seats import Seats
    from ahiko.rooms.status import RoomStatus
    from ahiko.rooms.table_hand import TableHand
    from ahiko.rooms.timers import Timers


class Outgoing(Protocol):
    """The broadcaster, as a part sends frames: numbered to the table, or told to one player."""

    def emit(self, kind: NumberedKind, build: Build, *, public: bool = False) -> None: ...
    def notify(self, player_id: str, kind: UnnumberedKind, payload: Told) -> None: ...


class CurrentHand(Protocol):
    """The dealer, as a part asks which hand is in play (None between hands)."""

    @property
    def hand(self) -> TableHand | None: ...


class RoomIdentity(Protocol):
    """Which room this is and whether it still plays: what every reader names it by."""

    @property
    def room_id(self) -> str: ...
    @property
    def config(self) -> RoomConfig: ...
    @property
    def host_id(self) -> str | None: ...
    @property
    def is_open(self) -> bool: ...


class SeatQuestionTable(Protocol):
    """What a question put to seats at a hand's edge is handed (the straddle before the
    cards, the number of runs of an all-in): the status and settings, the seats (a bot is
    answered for at once), the question's timer, the frames out, and the room's job queue."""

    @property
    def status(self) -> RoomStatus: ...
    @property
    def config(self) -> RoomConfig: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def broadcast(self) -> Outgoing: ...
    def later(self, job: Callable[[], None]) -> None: ...
