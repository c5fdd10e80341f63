"""Pausing a room (R-RM-07; an empty recreational room too, R-RM-09): the clocks of play and
the blinds stop, each timer of play keeping what was left of it (``Timers.freeze``) and the
running time bank with them; resuming re-arms every one with what it had."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ahiko.rooms import commands as c
from ahiko.rooms.status import RoomStatus, require, takes
from ahiko.rooms.table_hand import Phase
from ahiko.rooms.timers import TimerName

if TYPE_CHECKING:
    from ahiko.rooms.clock import Clock
    from ahiko.rooms.table_hand import TableHand
    from ahiko.rooms.timebank import TimeBanks
    from ahiko.rooms.timers import Timers


class PausedDealer(Protocol):
    """The dealer's timed jobs a resume re-arms, and the next hand it schedules."""

    @property
    def hand(self) -> TableHand | None: ...
    def deal(self) -> None: ...
    def begin_hand(self) -> None: ...
    def schedule_next_hand(self, delay: float | None = None) -> None: ...


class PausedTurns(Protocol):
    def arm(self) -> None: ...
    def rearm_deadline(self, seconds: float) -> None: ...


class PausingTable(Protocol):
    """What a pause stops and a resume starts again: the status, the running time, every
    timer of play, the time bank running, the turn's clock, the dealer's jobs."""

    @property
    def status(self) -> RoomStatus: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def time_banks(self) -> TimeBanks: ...
    @property
    def dealer(self) -> PausedDealer: ...
    @property
    def turns(self) -> PausedTurns: ...
    def stop_running(self) -> None: ...
    def run_again(self) -> None: ...
    def move_to(self, status: RoomStatus) -> None: ...
    def expire(self, reason: str = "limit") -> None: ...
    def emit_room(self) -> None: ...


def pause(room: PausingTable) -> None:
    """R-RM-07: clocks and blinds stop; timers keep what was left of them."""
    if not takes(room.status, c.Pause):
        return
    room.stop_running()
    room.timers.freeze()
    room.time_banks.freeze(room.clock.now())
    room.move_to(require(room.status, c.Pause))
    room.emit_room()


def resume(room: PausingTable) -> None:
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
    hand = room.dealer.hand
    if hand is not None and hand.phase is Phase.DEALT:
        room.turns.arm()
        if TimerName.DEADLINE in frozen and room.timers.is_set(TimerName.DEADLINE):
            room.turns.rearm_deadline(frozen[TimerName.DEADLINE])
    elif hand is None and TimerName.NEXT_HAND not in frozen:
        room.dealer.schedule_next_hand(0.0)
    room.emit_room()
