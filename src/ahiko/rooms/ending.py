"""How a room ends: its time limit (R-RM-18, R-TM-06 (D)), an empty recreational room's two
minutes (R-RM-09), or closing, where every balance goes back (R-RM-08)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ahiko.rooms.status import RoomStatus
from ahiko.rooms.table_hand import Phase

if TYPE_CHECKING:
    from ahiko.fairness.release import DealState
    from ahiko.poker.events import Event
    from ahiko.rooms.hooks import RoomHooks
    from ahiko.rooms.ports import Outgoing
    from ahiko.rooms.room_view import RoomView
    from ahiko.rooms.seats import Seats
    from ahiko.rooms.table_bots import TableBots
    from ahiko.rooms.table_hand import TableHand
    from ahiko.rooms.timers import Timers


class EndingDealer(Protocol):
    """The dealer, as the room's end meets the hand: run out, cancelled or undone."""

    @property
    def hand(self) -> TableHand | None: ...
    def after_events(self, hand: TableHand, events: list[Event], before: DealState) -> None: ...
    def cancel_committed_hand(self, reason: str) -> None: ...
    def drop_hand(self) -> None: ...


class Expiring(Protocol):
    expiring: bool  # the turns answer every seat by the timeout rule: the hand is run out


class EndingTable(Protocol):
    """What ending a room touches: the hand, the stacks, every timer, the bots, the last
    frame and the hooks that pay the stacks back."""

    expiry_reason: str
    closed_stacks: dict[str, int]

    @property
    def is_open(self) -> bool: ...
    @property
    def dealer(self) -> EndingDealer: ...
    @property
    def turns(self) -> Expiring: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def bots(self) -> TableBots: ...
    @property
    def broadcast(self) -> Outgoing: ...
    @property
    def hooks(self) -> RoomHooks: ...
    @property
    def view(self) -> RoomView: ...
    def stop_running(self) -> None: ...
    def move_to(self, status: RoomStatus) -> None: ...


def expire(room: EndingTable, reason: str) -> None:
    """The room expires. A hand in play stops betting where it stands and is run out and
    settled (``stop_betting``) before the balances return; the dealer closes the room then."""
    if not room.is_open:
        return
    hand = room.dealer.hand
    if hand is not None and hand.phase is Phase.DEALT and not hand.is_over:
        room.turns.expiring = True
        room.expiry_reason = reason
        before = hand.deal_state
        room.dealer.after_events(hand, hand.stop_betting(), before)
        return
    room.dealer.cancel_committed_hand("room time limit reached")
    close(room, reason)


def close(room: EndingTable, reason: str) -> None:
    """No more play: a hand still dealt is undone (R-RM-08: bets go back, every stack is what
    it was when the hand began), the bots leave and every stack is told and handed to the
    hooks, which pay it back."""
    if not room.is_open:
        return
    hand = room.dealer.hand
    if hand is not None:
        if hand.phase is Phase.DEALT:
            for seat, stack in hand.start_stacks.items():
                occupant = room.seats.get(seat)
                if occupant is not None:
                    occupant.stack = stack
        room.dealer.drop_hand()
    room.stop_running()
    room.timers.cancel_all()
    room.move_to(RoomStatus.CLOSED)
    room.bots.drop_all()
    room.closed_stacks = {o.player_id: o.stack for _, o in room.seats.items()}
    stacks = dict(room.closed_stacks)
    room.broadcast.emit("closed", lambda _seat: {"reason": reason, "stacks": stacks}, public=True)
    room.hooks.on_room_closed(room.view, stacks)
