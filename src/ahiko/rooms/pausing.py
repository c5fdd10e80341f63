"""Pausing a room (R-RM-07; an empty recreational room too, R-RM-09): the clocks of play and
the blinds stop, each timer of play keeping what was left of it (``Timers.freeze``) and the
running time bank with them; resuming re-arms every one with what it had."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ahiko.rooms import commands as c
from ahiko.rooms.status import require, takes
from ahiko.rooms.table_hand import Phase
from ahiko.rooms.timers import TimerName

if TYPE_CHECKING:
    from ahiko.rooms.room import Room


def pause(room: Room) -> None:
    """R-RM-07: clocks and blinds stop; timers keep what was left of them."""
    if not takes(room.status, c.Pause):
        return
    room.stop_running()
    room.timers.freeze()
    room.time_banks.freeze(room.clock.now())
    room.move_to(require(room.status, c.Pause))
    room.emit_room()


def resume(room: Room) -> None:
    if not takes(room.status, c.Resume):
        return
    room.run_again()
    frozen = room.timers.thaw()
    jobs: dict[TimerName, Callable[[], None]] = {
        TimerName.DEAL: room.dealer.deal,
        TimerName.NEXT_HAND: room.dealer.begin_hand,
        TimerName.EXPIRY: room.expire,
    }
    for name, left in frozen.items():
        if name in jobs:
            room.timers.set(name, left, jobs[name])
    hand = room.hand
    if hand is not None and hand.phase is Phase.DEALT:
        room.turns.arm()
        if TimerName.DEADLINE in frozen and room.timers.is_set(TimerName.DEADLINE):
            room.turns.rearm_deadline(frozen[TimerName.DEADLINE])
    elif hand is None and TimerName.NEXT_HAND not in frozen:
        room.schedule_next_hand(0.0)
    room.emit_room()
