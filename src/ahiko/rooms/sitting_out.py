"""Sitting out: "Ficar fora nas próximas mãos".

A seated person keeps the seat and is not dealt in (like an absent player, R-TM-05: the button
and the blinds move past them) until they come back, for at most the absence deadline of
R-TM-03; then they are withdrawn as an absent player is (chips back to the wallet in Ahiko
rooms). A hand they are in when they ask plays on: only the next hands are skipped. A person
whose clock ran out (R-TM-01) in two consecutive hands is sat out at the next hand boundary
and told so (``notice`` ``sat_out_timeouts``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ahiko.rooms import commands as c
from ahiko.rooms.commands import NOT_SEATED, Refusal, Reply
from ahiko.rooms.leaving import LeavingTable, leave
from ahiko.rooms.timers import sit_out as sit_out_timer

if TYPE_CHECKING:
    from ahiko.rooms.clock import Clock
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.seats import Occupant
    from ahiko.rooms.table_hand import TableHand
    from ahiko.rooms.timers import Timers


class SittingOutTable(LeavingTable, Protocol):
    """What sitting out is handed: the way out of a seat (a withdrawal), the clock and the
    timers of the absence deadline, the settings' delays."""

    @property
    def config(self) -> RoomConfig: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def timers(self) -> Timers: ...


CONSECUTIVE_TIMEOUTS = 2  # hands in a row whose clock ran out before one is sat out


class SittingOut:
    def __init__(self, room: SittingOutTable) -> None:
        self._room = room
        self._streak: dict[str, int] = {}
        self._timed_out: set[str] = set()  # people whose clock ran out in the current hand
        # R-TM-08 D: when each person's absence clock started; kept across a come-back until
        # they are dealt a hand, so switching sit-out off and on does not restart it
        self._away_since: dict[str, float] = {}

    def command(self, cmd: c.SitOut) -> Reply:
        room = self._room
        seat = room.seats.seat_of(cmd.player_id)
        occupant = room.seats.get(seat) if seat is not None else None
        if seat is None or occupant is None or occupant.player_id != cmd.player_id:
            raise Refusal("not_seated", NOT_SEATED, "R-RM-01")
        if occupant.leave_after_hand:
            raise Refusal("leaving", "you are leaving this table")
        if cmd.on == occupant.sitting_out:
            return Reply.accepted(seat=seat, sitting_out=occupant.sitting_out, changed=False)
        if cmd.on:
            self.sit_out(occupant)
        else:
            self.come_back(occupant)
        return Reply.accepted(seat=seat, sitting_out=occupant.sitting_out, changed=True)

    def sit_out(self, occupant: Occupant) -> None:
        room = self._room
        occupant.sitting_out = True
        player_id = occupant.player_id
        if room.kind.keeps_absent_in_field:
            room.emit_room()  # R-TN-07 D: a tournament deals them in and folds their hand
            return
        now = room.clock.now()
        since = self._away_since.setdefault(player_id, now)
        room.timers.set(
            sit_out_timer(player_id),
            max(0.0, room.config.timing.absence_withdrawal_s - (now - since)),  # R-TM-03
            lambda: self._withdraw(player_id),
        )
        room.emit_room()  # the next hand is dealt without them (its start checks who is ready)

    def come_back(self, occupant: Occupant) -> None:
        room = self._room
        occupant.sitting_out = False
        self._streak.pop(occupant.player_id, None)
        room.timers.cancel(sit_out_timer(occupant.player_id))
        room.emit_room()
        room.dealer.wake()

    def _withdraw(self, player_id: str) -> None:
        room = self._room
        seat = room.seats.seat_of(player_id)
        occupant = room.seats.get(seat) if seat is not None else None
        if occupant is None or occupant.player_id != player_id or not occupant.sitting_out:
            return
        self._away_since.pop(player_id, None)
        leave(room, player_id, reason="absent")  # R-TM-03: withdrawn as an absent player

    # --- the clock running out ---------------------------------------------------------------
    def clock_ran_out(self, player_id: str) -> None:
        self._timed_out.add(player_id)

    def hand_finished(self, hand: TableHand) -> None:
        """At the hand boundary: two hands in a row with the clock run out sit one out; one
        dealt this hand who is not sitting out now has a fresh absence clock (R-TM-08 D)."""
        room = self._room
        timed_out, self._timed_out = self._timed_out, set()
        for seat, player_id in hand.players.items():
            occupant = room.seats.get(seat)
            if occupant is None or occupant.player_id != player_id or occupant.is_bot:
                continue
            if not occupant.sitting_out:
                self._away_since.pop(player_id, None)
            streak = self._streak.get(player_id, 0) + 1 if player_id in timed_out else 0
            self._streak[player_id] = streak
            if streak >= CONSECUTIVE_TIMEOUTS and not occupant.sitting_out:
                if occupant.leave_after_hand:
                    continue
                self._streak[player_id] = 0
                self.sit_out(occupant)
                room.broadcast.notify(
                    player_id,
                    "notice",
                    {
                        "code": "sat_out_timeouts",
                        "rule": "R-TM-01",
                        "message": "your clock ran out in two hands in a row: you are sitting "
                        "out; come back when you are ready",
                    },
                )
