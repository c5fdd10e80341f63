"""The room's extension points at hand boundaries.

Recreational rooms and tournaments keep chips in memory; Ahiko rooms settle each
hand in the ledger and persist durable room state. They do it by passing a ``RoomHooks``
implementation; the room calls it synchronously, on its own thread, at these moments only.
Hooks and the archive see the room through a read-only ``RoomView``
(``ahiko.rooms.room_view``), never the room itself: what they may ask of it is named there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ahiko.rooms.frame_types import ResultRow, RoomSummary, TournamentPart

if TYPE_CHECKING:
    from ahiko.rooms.room_view import RoomView
    from ahiko.rooms.seats import Occupant
    from ahiko.rooms.table_hand import TableHand


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """A settled hand, as the room's kind and hooks see it (seat -> value)."""

    hand_no: int
    players: Mapping[int, str]  # seat -> player id
    stacks: Mapping[int, int]  # chips after the hand
    net: Mapping[int, int]  # chips won (+) or lost (-)

    @classmethod
    def of(
        cls,
        hand_no: int,
        players: Mapping[int, str],
        start: Mapping[int, int],
        final: Mapping[int, int],
    ) -> HandOutcome:
        return cls(hand_no, dict(players), dict(final), {s: final[s] - start[s] for s in final})


class RoomHooks(Protocol):
    def on_hand_start(self, room: RoomView, hand_no: int, stacks: Mapping[int, int]) -> None:
        """Cards are about to be dealt to these seats with these stacks."""

    def on_hand_end(self, room: RoomView, outcome: HandOutcome) -> None:
        """The hand is settled: ``outcome`` says who sat where and what each won or lost."""

    def on_player_left(self, room: RoomView, occupant: Occupant) -> None:
        """``occupant`` left the table with ``occupant.stack`` chips."""

    def on_room_closed(self, room: RoomView, stacks: Mapping[str, int]) -> None:
        """The room closed; ``stacks`` are the chips each player held (player id -> chips)."""

    def on_seats_changed(self, room: RoomView) -> None:
        """Seats, stacks or presence changed (called with every ``room`` frame)."""

    def on_connected(self, room: RoomView, player_id: str) -> None:
        """A connection of ``player_id`` joined the room (after its catch-up frames): a
        multi-table tournament tells a player who sits at another table now where."""

    def on_tournament_over(self, room: RoomView, results: list[ResultRow]) -> Mapping[str, int]:
        """The tournament is decided (R-TN-04/05): ``results`` is the final ranking, best
        first, as the ``tournament_over`` frame carries it. Returns the prize each player
        won (player id -> coins), which the frame then shows."""

    def lobby_entry(self, room: RoomView, entry: RoomSummary) -> dict[str, Any]:
        """The room as its lobby lists it: ``entry`` is the public summary without seats."""

    def hold_deal(self, room: RoomView) -> bool:
        """True while the next hand must wait (a stack's write is in flight); the house's
        hooks then begin it themselves once the write came back (``Dealer.begin_hand``)."""

    def tournament_part(self, room: RoomView) -> TournamentPart | None:
        """The event a tournament table plays for, in its ``room`` frame: the sit & go's or
        the MTT's id and its prizes by place; None for a room of no event."""


class HandArchiver(Protocol):
    """Keeps finished hands of every room kind for their players (``ahiko.rooms.finished.archive``).
    Called on the room's thread; it must not raise."""

    def hand_finished(self, room: RoomView, hand: TableHand) -> None:
        """``hand`` is settled (the room's last hand); stacks are already updated."""

    def hand_shown(self, room: RoomView, hand: TableHand) -> None:
        """A player showed after ``hand`` ended (R-HE-12): what its players may see grew."""


class NoHooks:
    """Recreational rooms and tournaments: nothing to persist."""

    def on_hand_start(self, room: RoomView, hand_no: int, stacks: Mapping[int, int]) -> None:
        return None

    def on_hand_end(self, room: RoomView, outcome: HandOutcome) -> None:
        return None

    def on_player_left(self, room: RoomView, occupant: Occupant) -> None:
        return None

    def on_room_closed(self, room: RoomView, stacks: Mapping[str, int]) -> None:
        return None

    def on_seats_changed(self, room: RoomView) -> None:
        return None

    def on_connected(self, room: RoomView, player_id: str) -> None:
        return None

    def on_tournament_over(self, room: RoomView, results: list[ResultRow]) -> Mapping[str, int]:
        return {}

    def lobby_entry(self, room: RoomView, entry: RoomSummary) -> dict[str, Any]:
        return dict(entry)

    def hold_deal(self, room: RoomView) -> bool:
        return False

    def tournament_part(self, room: RoomView) -> TournamentPart | None:
        return None
