"""Who is watching and who is connected: connections, disconnections and absence.

R-TM-02: without a deadline a disconnected player still has 30 s per decision.
R-TM-03: after two minutes disconnected the player's withdrawal begins.
R-TM-05: disconnected players are not dealt in (``Seats.eligible_for_hand``).
R-RM-09: an empty recreational room pauses, then closes two minutes later.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ahiko.rooms import commands as c
from ahiko.rooms.leaving import LeaverTurns, LeavingDealer, LeavingTable, leave
from ahiko.rooms.pausing import PausedDealer, PausedTurns, PausingTable, pause, resume
from ahiko.rooms.status import is_open, takes
from ahiko.rooms.timers import TimerName, absence

if TYPE_CHECKING:
    from ahiko.rooms.config import RoomConfig


class PresenceDealer(LeavingDealer, PausedDealer, Protocol):
    """The dealer, as comings and goings meet it: the hand in play and the next one."""


class PresenceTurns(LeaverTurns, PausedTurns, Protocol):
    """The turns, as a seat to act that comes or goes gets its clock again."""


class PresenceTable(LeavingTable, PausingTable, Protocol):
    """What presence is handed: the way out of a seat (withdrawal), the pause of an empty
    room and its end, the seats' connected flags and their absence timers."""

    @property
    def config(self) -> RoomConfig: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def dealer(self) -> PresenceDealer: ...
    @property
    def turns(self) -> PresenceTurns: ...


class Presence:
    def __init__(self, room: PresenceTable) -> None:
        self._room = room
        self._connections: dict[str, str | None] = {}  # connection id -> player id, in order
        self.auto_paused = False  # paused by R-RM-09, not by the host

    def connections(self) -> list[tuple[str, str | None]]:
        """(connection id, player id) of every subscriber, oldest first."""
        return list(self._connections.items())

    def connections_of(self, player_id: str) -> list[str]:
        return [cid for cid, pid in self._connections.items() if pid == player_id]

    def player_of(self, connection_id: str) -> str | None:
        return self._connections.get(connection_id)

    def is_connected(self, player_id: str) -> bool:
        return player_id in self._connections.values()

    @property
    def empty(self) -> bool:
        return not self._connections

    def connect(self, connection_id: str, player_id: str | None) -> None:
        room = self._room
        self._connections[connection_id] = player_id
        room.timers.cancel(TimerName.EMPTY_CLOSE)
        if self.auto_paused:
            self.auto_paused = False
            resume(room)
        if player_id is not None:
            self.mark_present(player_id)

    def mark_present(self, player_id: str) -> None:
        """The player is reachable again (or for the first time) at their seat."""
        room = self._room
        seat = room.seats.seat_of(player_id)
        occupant = room.seats.get(seat) if seat is not None else None
        if occupant is None or occupant.player_id != player_id or occupant.connected:
            return
        occupant.connected = True
        occupant.disconnected_since = None
        room.timers.cancel(absence(player_id))
        hand = room.dealer.hand
        if hand is not None and hand.to_act == seat:
            room.turns.arm()  # back to the room's normal clock
        room.emit_room()
        room.dealer.wake()

    def disconnect(self, connection_id: str) -> None:
        room = self._room
        player_id = self._connections.pop(connection_id, None)
        if player_id is not None and not self.is_connected(player_id):
            self.mark_absent(player_id)
        if self.empty and room.kind.closes_when_empty and room.is_open:
            if takes(room.status, c.Pause):  # the house pauses it as its host would
                pause(room)
                self.auto_paused = True
            room.timers.set(
                TimerName.EMPTY_CLOSE,
                room.config.timing.empty_room_close_s,
                lambda: room.expire("empty"),
            )

    def absent_from_start(self) -> None:
        """A room the house started (a sit & go): every seated person not connected is
        absent from now on, and withdrawn at the absence deadline (R-TM-03)."""
        room = self._room
        for _, occupant in room.seats.items():
            if occupant.is_person and not self.is_connected(occupant.player_id):
                occupant.connected = True  # so that mark_absent sees a change
                self.mark_absent(occupant.player_id)

    def mark_absent(self, player_id: str) -> None:
        room = self._room
        seat = room.seats.seat_of(player_id)
        occupant = room.seats.get(seat) if seat is not None else None
        if occupant is None or occupant.player_id != player_id or not occupant.connected:
            return
        occupant.connected = False
        occupant.disconnected_since = room.clock.now()
        if not room.kind.keeps_absent_in_field:  # R-TN-07 D: a tournament blinds them off
            room.timers.set(
                absence(player_id),
                room.config.timing.absence_withdrawal_s,
                lambda: self.withdraw(player_id),
            )
        hand = room.dealer.hand
        if hand is not None and hand.to_act == seat:
            room.turns.arm()  # R-TM-02 clock when the room has no deadline
        room.emit_room()

    def withdraw(self, player_id: str) -> None:
        """R-TM-03/04: the absentee leaves; in a hand they fold at their turn, an all-in
        waits for the pots. One who left meanwhile by another way (a cash-out written after
        the seat was freed, "leave after this hand") has nothing left to withdraw."""
        seats = self._room.seats
        if not is_open(self._room.status):  # the room ended first: its seats were settled
            return
        if seats.seat_of(player_id) is None and seats.reservation_of(player_id) is None:
            return
        leave(self._room, player_id, reason="absent")
