"""How a room ends: its time limit (R-RM-18, R-TM-06 (D)), an empty recreational room's two
minutes (R-RM-09), or closing, where every balance goes back (R-RM-08)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ahiko.rooms.status import RoomStatus
from ahiko.rooms.table_hand import Phase

if TYPE_CHECKING:
    from ahiko.rooms.room import Room


def expire(room: Room, reason: str) -> None:
    """The room expires. A hand in play stops betting where it stands and is run out and
    settled (``stop_betting``) before the balances return; the dealer closes the room then."""
    if not room.is_open:
        return
    hand = room.hand
    if hand is not None and hand.phase is Phase.DEALT and not hand.is_over:
        room.turns.expiring = True
        room.expiry_reason = reason
        before = hand.deal_state
        room.after_events(hand, hand.stop_betting(), before)
        return
    room.cancel_committed_hand("room time limit reached")
    close(room, reason)


def close(room: Room, reason: str) -> None:
    """No more play: a hand still dealt is undone (R-RM-08: bets go back, every stack is what
    it was when the hand began), the bots leave and every stack is told and handed to the
    hooks, which pay it back."""
    if not room.is_open:
        return
    hand = room.hand
    if hand is not None:
        if hand.phase is Phase.DEALT:
            for seat, stack in hand.start_stacks.items():
                occupant = room.seats.get(seat)
                if occupant is not None:
                    occupant.stack = stack
        room.hand = None
    room.stop_running()
    room.timers.cancel_all()
    room.move_to(RoomStatus.CLOSED)
    room.bots.drop_all()
    room.closed_stacks = {o.player_id: o.stack for _, o in room.seats.items()}
    stacks = dict(room.closed_stacks)
    room.emit("closed", lambda _seat: {"reason": reason, "stacks": stacks}, public=True)
    room.hooks.on_room_closed(room.view, stacks)
