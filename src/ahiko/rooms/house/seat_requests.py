"""Who may sit at a home game: with "approve players" on, a seat request waits for the host,
who seats the player or turns them away; a player the host removed waits for approval
whatever the option says. The host never asks anyone. ``seat_person`` is the one way a
person sits at a recreational room's seat, asked or approved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Self, TypeVar

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.frame_types import HostDeskSummary, SeatRequestEntry
from ahiko.rooms.house.ports import WakesHands
from ahiko.rooms.seats import Occupant

_Room = TypeVar("_Room", contravariant=True)


class TellsSeated(Protocol[_Room]):
    """The room's kind, told a person sat (a tournament counts its entrants)."""

    def on_seated(self, room: _Room) -> None: ...


class KnowsConnections(Protocol):
    def is_connected(self, player_id: str) -> bool: ...


class KeepsTheLine(Protocol):
    """The waiting list: a person seated leaves it."""

    def seated(self, player_id: str) -> None: ...


class SeatingRoom(Protocol):
    """What sitting a person down asks of the room (``seat_person``)."""

    @property
    def config(self) -> RoomConfig: ...
    @property
    def presence(self) -> KnowsConnections: ...
    @property
    def waitlist(self) -> KeepsTheLine: ...
    @property
    def kind(self) -> TellsSeated[Self]: ...
    def seat_occupant(self, seat: int, occupant: Occupant) -> bool: ...
    @property
    def dealer(self) -> WakesHands: ...
    def emit_room(self) -> None: ...


@dataclass(frozen=True, slots=True)
class SeatRequest:
    player_id: str
    name: str
    seat: int


@dataclass
class SeatRequests:
    approve_players: bool = False
    waiting: dict[str, SeatRequest] = field(default_factory=dict)
    approved: set[str] = field(default_factory=set)
    barred: set[str] = field(default_factory=set)  # removed by the host

    def needs_approval(self, host_id: str | None, player_id: str) -> bool:
        if player_id == host_id or player_id in self.approved:
            return False
        return self.approve_players or player_id in self.barred

    def ask(self, cmd: c.Sit) -> SeatRequest:
        if cmd.player_id in self.waiting:
            raise Refusal("seat_request_waiting", "your seat request already waits for the host")
        request = self.waiting[cmd.player_id] = SeatRequest(cmd.player_id, cmd.name, cmd.seat)
        return request

    def answer(self, player_id: str, approve: bool) -> SeatRequest:
        request = self.waiting.pop(player_id, None)
        if request is None:
            raise Refusal("no_seat_request", "that player has no seat request waiting")
        if approve:
            self.approved.add(player_id)
            self.barred.discard(player_id)
        return request

    def removed(self, player_id: str) -> None:
        self.approved.discard(player_id)
        self.barred.add(player_id)

    def withdrawn(self, player_id: str) -> None:
        self.waiting.pop(player_id, None)

    def summary(self) -> HostDeskSummary:
        return {
            "approve_players": self.approve_players,
            "seat_requests": [
                SeatRequestEntry(player_id=r.player_id, name=r.name, seat=r.seat)
                for r in self.waiting.values()
            ],
        }


def seat_person(room: SeatingRoom, player_id: str, name: str, seat: int) -> Reply:
    """Sit a person with the room's starting chips (R-RM-16: reserved when a hand runs)."""
    occupant = Occupant(
        player_id,
        name,
        room.config.starting_chips,
        connected=room.presence.is_connected(player_id),
    )
    reserved = room.seat_occupant(seat, occupant)
    room.waitlist.seated(player_id)
    room.kind.on_seated(room)
    room.emit_room()
    room.dealer.wake()
    return Reply.accepted(seat=seat, reserved=reserved)
