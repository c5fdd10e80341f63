"""The host's desk at a home game: what the host set for the next hand, the seat
requests waiting for them, and the room's ledger. A part of the room (one per room, on
its thread), as the chat or the waiting list are.

Every host action is told to the table in a numbered ``host`` frame (``action`` and its
details): the clients write it in the hand log. A change asked during a hand is told when it
is set and again when it applies, between hands (``between_hands``, called by the dealer
before the next hand's stakes are read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomConfig, RoomKind
from ahiko.rooms.frame_types import (
    HostAction,
    HostDeskSummary,
    NumberedBody,
    NumberedKind,
    PendingChips,
)
from ahiko.rooms.house import next_hand
from ahiko.rooms.house.room_ledger import RoomLedger
from ahiko.rooms.house.seat_requests import SeatRequests
from ahiko.rooms.seats import Occupant, Seats


class NumbersHands(Protocol):
    """The dealer, as the desk dates a change: the number the next hand will have."""

    @property
    def next_hand_no(self) -> int: ...


class TellsTheTable(Protocol):
    """The broadcaster, as the desk tells the table a host action (a numbered frame)."""

    def emit(
        self,
        kind: NumberedKind,
        build: Callable[[int | None], NumberedBody],
        *,
        public: bool = False,
    ) -> None: ...


class DeskRoom(Protocol):
    """What the host's desk asks of its room: the seats and the table's figures to read,
    frames to send, and the three writes a host's change makes when it applies: the
    settings in force, and the chips that enter or leave the table with a stack change."""

    config: RoomConfig
    chips_in: int
    chips_out: int

    @property
    def room_id(self) -> str: ...
    @property
    def host_id(self) -> str | None: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def dealer(self) -> NumbersHands: ...
    @property
    def broadcast(self) -> TellsTheTable: ...
    def emit_room(self) -> None: ...
    def later(self, job: Callable[[], None]) -> None: ...


class HostDesk:
    def __init__(self, room: DeskRoom) -> None:
        self._room = room
        self.pending = next_hand.PendingChange()
        self.requests = SeatRequests(approve_players=room.config.approve_players)
        self.ledger = RoomLedger()
        self.bomb_pot_next = False  # the host pressed "Bomb pot": the next hand is one

    def take_bomb_pot(self) -> bool:
        """Whether the host asked for a bomb pot for the hand being dealt (asked once)."""
        asked, self.bomb_pot_next = self.bomb_pot_next, False
        return asked

    # --- telling the table --------------------------------------------------------------------
    def announce(self, action: str, **details: Any) -> None:
        room = self._room
        host = room.seats.seat_of(room.host_id or "")
        occupant = None if host is None else room.seats.get(host)
        by = None if occupant is None else occupant.name
        # the details are the action's own (``HostAction`` lists them all)
        frame = cast(
            "HostAction",
            {"action": action, "by": by, "hand_no": room.dealer.next_hand_no, **details},
        )
        self.ledger.host_acted(frame)  # every host action is in the room's ledger too
        room.broadcast.emit("host", lambda _seat: frame, public=True)

    # --- seat requests ------------------------------------------------------------------------
    def ask_to_sit(self, cmd: c.Sit) -> Reply | None:
        """A seat request that waits for the host, or None when the player may sit now."""
        room = self._room
        home_game = room.config.kind is RoomKind.RECREATIONAL
        if not home_game or not self.requests.needs_approval(room.host_id, cmd.player_id):
            return None
        if cmd.seat not in room.seats.free_seats():
            raise Refusal("seat", "that seat is taken or does not exist", "R-RM-01")
        if room.seats.seat_of(cmd.player_id) is not None:
            raise Refusal("seat", "you already have a seat in this room", "R-RM-01")
        request = self.requests.ask(cmd)
        self.announce("seat_request", name=request.name, seat=request.seat)
        room.emit_room()
        return Reply.accepted(seat=cmd.seat, awaiting_approval=True)

    # --- the next hand ----------------------------------------------------------------------
    def between_hands(self) -> None:
        """Apply what waited for the hand in play to end. They are told once the next
        hand's commitment is out, so the hand log shows them as that hand's first lines."""
        fields, stacks = self.pending.take()
        room = self._room
        told: list[Callable[[], None]] = []
        if fields:
            told.append(self.apply_fields(fields))
        for player_id, chips in stacks.items():
            seat = room.seats.seat_of(player_id)
            occupant = None if seat is None else room.seats.get(seat)
            if seat is not None and occupant is not None and occupant.player_id == player_id:
                told.append(self.apply_chips(seat, occupant, chips))
        if fields or stacks:
            room.emit_room()
        for tell in told:
            room.later(tell)

    def apply_fields(self, fields: dict[str, Any]) -> Callable[[], None]:
        """The settings in force; returns how to tell the table (the caller decides when)."""
        room = self._room
        room.config = next_hand.applied(room.config, fields)
        hand_no = room.dealer.next_hand_no
        return lambda: self.announce("change_applied", change=_shown(fields), hand_no=hand_no)

    def apply_chips(self, seat: int, occupant: Occupant, chips: int) -> Callable[[], None]:
        """Chips added to (or removed from, never below zero) the stack at ``seat``; returns
        how to tell the table."""
        room = self._room
        moved = chips if chips > 0 else -min(-chips, occupant.stack)
        hand_no = room.dealer.next_hand_no
        if moved:
            occupant.stack += moved
            if moved > 0:
                room.chips_in += moved
            else:
                room.chips_out -= moved
            self.ledger.adjusted(occupant.player_id, occupant.name, moved, hand_no)
        return lambda: self.announce(
            "chips_applied", seat=seat, name=occupant.name, amount=moved, hand_no=hand_no
        )

    # --- the ledger ---------------------------------------------------------------------------
    def stacks(self) -> dict[str, int]:
        """What each player at the table holds now (reserved seats included)."""
        room = self._room
        held = {o.player_id: o.stack for _, o in room.seats.items()}
        for occupant in room.seats.people():
            held.setdefault(occupant.player_id, occupant.stack)
        return held

    def report(self) -> dict[str, Any]:
        room = self._room
        report = self.ledger.report(self.stacks(), final=not room.is_open)
        return {"room_id": room.room_id, "name": room.config.name, **report}

    def is_member(self, player_id: str) -> bool:
        """Who may read the ledger: the host and everyone who sat at the table."""
        return player_id == self._room.host_id or player_id in self.ledger.lines

    # --- the room frame -----------------------------------------------------------------------
    def summary(self) -> HostDeskSummary:
        room = self._room
        if room.config.kind is not RoomKind.RECREATIONAL:
            return {}  # a home game's host only: tournaments and Ahiko rooms show none of it
        return {
            **self.requests.summary(),
            "max_rebuys": room.config.max_rebuys,
            "hand_options": room.config.hand_options.as_dict(),
            "bomb_pot_next": self.bomb_pot_next,
            "pending_change": _shown(self.pending.fields) or None,
            "pending_chips": [
                PendingChips(player_id=player_id, amount=chips)
                for player_id, chips in self.pending.stacks.items()
            ],
        }


def _shown(fields: dict[str, Any]) -> dict[str, Any]:
    """A change as the table shows it: a removed clock or rebuy limit is null."""
    return {k: None if v == next_hand.NO_LIMIT else v for k, v in fields.items()}
