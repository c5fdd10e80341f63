"""A waiting list for a full recreational room.

A signed-in person may join the list of a room whose seats are all taken. When a seat comes
free it is offered to the first in line (a ``notice`` ``seat_offer`` with the seat and
``WAIT_OFFER_S``): for that long the seat is held for them (anyone else's ``sit`` there is
refused, ``seat_offered``); they take it with an ordinary ``sit``. An offer not taken in time
passes to the next in line, and the one who let it pass leaves the list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.frame_types import WaitListSummary, WaitOffer
from ahiko.rooms.timers import wait_offer

if TYPE_CHECKING:
    from ahiko.rooms.kinds import RoomPolicy
    from ahiko.rooms.ports import Outgoing
    from ahiko.rooms.seats import Seats
    from ahiko.rooms.timers import Timers


class WaitListTable(Protocol):
    """What the waiting list is handed: the seats, the offer's timer, the frames out."""

    @property
    def is_open(self) -> bool: ...
    @property
    def kind(self) -> RoomPolicy: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def broadcast(self) -> Outgoing: ...
    def later(self, job: Callable[[], None]) -> None: ...
    def emit_room(self) -> None: ...


WAIT_OFFER_S = 20.0  # how long a free seat is held for the first in line
WAIT_LIST_MAX = 50


@dataclass(frozen=True, slots=True)
class Offer:
    player_id: str
    seat: int


class WaitList:
    def __init__(self, room: WaitListTable) -> None:
        self._room = room
        self.queue: list[str] = []
        self.offers: dict[int, Offer] = {}  # seat -> the offer holding it

    def command(self, cmd: c.WaitList) -> Reply:
        room = self._room
        if not room.kind.has_wait_list:
            raise Refusal("not_allowed", "waiting lists exist only in recreational rooms")
        if not cmd.on:
            if cmd.player_id not in self.queue and not self._offer_of(cmd.player_id):
                raise Refusal("not_waiting", "you are not on this room's waiting list")
            self._drop(cmd.player_id)
            room.later(self.offer_next)
            room.emit_room()
            return Reply.accepted(position=None)
        if room.seats.seat_of(cmd.player_id) is not None:
            raise Refusal("seat", "you already have a seat in this room", "R-RM-01")
        if cmd.player_id in self.queue:
            return Reply.accepted(position=self.queue.index(cmd.player_id) + 1)
        if self.open_seats():
            raise Refusal("seat_free", "a seat is free: take it", "R-RM-01")
        if len(self.queue) >= WAIT_LIST_MAX:
            raise Refusal("wait_list_full", "this room's waiting list is full")
        self.queue.append(cmd.player_id)
        room.emit_room()
        return Reply.accepted(position=len(self.queue))

    def open_seats(self) -> list[int]:
        """Free seats no offer holds."""
        return [s for s in self._room.seats.free_seats() if s not in self.offers]

    def may_sit(self, player_id: str, seat: int) -> None:
        """Refuse a seat held for someone else."""
        offer = self.offers.get(seat)
        if offer is not None and offer.player_id != player_id:
            raise Refusal("seat_offered", "that seat is offered to the first on the waiting list")

    def seated(self, player_id: str) -> None:
        """``player_id`` sat: their offer (if any) is used and they leave the list."""
        self._drop(player_id)

    def offer_next(self) -> None:
        """Offer each free, unheld seat to the next in line."""
        room = self._room
        if not room.is_open:
            return
        changed = False
        for seat in self.open_seats():
            if not self.queue:
                break
            player_id = self.queue.pop(0)
            self.offers[seat] = Offer(player_id, seat)
            room.timers.set(wait_offer(seat), WAIT_OFFER_S, self._expiry(seat))
            room.broadcast.notify(
                player_id,
                "notice",
                {
                    "code": "seat_offer",
                    "rule": None,
                    "message": f"seat {seat + 1} is free for you for {WAIT_OFFER_S:g} seconds",
                    "seat": seat,
                    "seconds": WAIT_OFFER_S,
                },
            )
            changed = True
        if changed:
            room.emit_room()

    def summary(self) -> WaitListSummary:
        return {
            "waiting": list(self.queue),
            "offers": [WaitOffer(seat=o.seat, player_id=o.player_id) for o in self.offers.values()],
        }

    def _offer_of(self, player_id: str) -> Offer | None:
        return next((o for o in self.offers.values() if o.player_id == player_id), None)

    def _drop(self, player_id: str) -> None:
        if player_id in self.queue:
            self.queue.remove(player_id)
        offer = self._offer_of(player_id)
        if offer is not None:
            del self.offers[offer.seat]
            self._room.timers.cancel(wait_offer(offer.seat))

    def _expiry(self, seat: int) -> Callable[[], None]:
        return lambda: self._expire(seat)

    def _expire(self, seat: int) -> None:
        offer = self.offers.pop(seat, None)
        if offer is None:
            return
        self._room.broadcast.notify(
            offer.player_id,
            "notice",
            {"code": "seat_offer_expired", "rule": None, "message": "the seat offer ran out"},
        )
        self.offer_next()
        self._room.emit_room()
