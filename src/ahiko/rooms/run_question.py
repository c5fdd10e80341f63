"""Run it twice, asked at the table: when every player still in is all-in before the river
and the room runs it twice, the engine waits for each of them to answer (R-HE-11 here
once or twice). The room gives them a short clock; a bot, a seat left empty and a clock run
out answer "once", so the hand never waits for ever and runs twice only if all agreed.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Protocol

from ahiko.poker.house import RUN_RULE
from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.hand_phase import NOT_IN_A_HAND, require_phase
from ahiko.rooms.ports import SeatQuestionTable
from ahiko.rooms.status import require
from ahiko.rooms.timers import TimerName

if TYPE_CHECKING:
    from ahiko.fairness.release import DealState
    from ahiko.poker.events import Event
    from ahiko.rooms.table_hand import TableHand


class RunsDealer(Protocol):
    """The dealer, as the run question hands the all-in players' answer back."""

    @property
    def hand(self) -> TableHand | None: ...
    def after_events(self, hand: TableHand, events: list[Event], before: DealState) -> None: ...


class RunQuestionTable(SeatQuestionTable, Protocol):
    """What the question to the all-in players is handed: its timer, the seats (a bot
    answers at once), the frames out, and the dealer the answer goes back to."""

    @property
    def dealer(self) -> RunsDealer: ...


ONCE = 1


class RunQuestion:
    def __init__(self, room: RunQuestionTable) -> None:
        self._room = room
        self._asked: TableHand | None = None  # the hand whose players were asked

    def ask(self, hand: TableHand) -> None:
        """The hand waits for answers: start their clock, once a hand; bots say once."""
        room = self._room
        if self._asked is hand or not hand.runs_pending:
            return
        self._asked = hand
        seconds = room.config.timing.run_twice_answer_s
        room.timers.set(TimerName.RUNS, seconds, lambda: self._timed_out(hand))
        pending = hand.runs_pending
        room.broadcast.emit(
            "runs_asked",
            lambda _seat: {"hand_no": hand.hand_no, "seats": list(pending), "seconds": seconds},
            public=True,
        )
        for seat in pending:
            occupant = room.seats.get(seat)
            if occupant is None or occupant.is_bot or occupant.player_id != hand.players[seat]:
                room.later(partial(self._answer, hand, seat, ONCE))

    def command(self, cmd: c.ChooseRuns) -> Reply:
        room = self._room
        require(room.status, c.ChooseRuns)
        hand = require_phase(room.dealer.hand, c.ChooseRuns)
        seat = hand.seat_of(cmd.player_id)
        if seat is None:
            raise NOT_IN_A_HAND.refusal()
        if seat not in hand.runs_pending:
            raise Refusal("runs_not_asked", "nobody asks you to run it twice now", RUN_RULE)
        if cmd.runs not in (1, 2):
            raise Refusal("runs", f"run it once (1) or twice (2), not {cmd.runs!r}", RUN_RULE)
        self._answer(hand, seat, cmd.runs)
        return Reply.accepted(runs=cmd.runs)

    def _answer(self, hand: TableHand, seat: int, runs: int) -> None:
        room = self._room
        if room.dealer.hand is not hand or seat not in hand.runs_pending:
            return  # answered already, or the hand is gone
        before = hand.deal_state
        events = hand.choose_runs(seat, runs)
        if not hand.runs_pending:
            room.timers.cancel(TimerName.RUNS)
        room.dealer.after_events(hand, events, before)

    def _timed_out(self, hand: TableHand) -> None:
        for seat in hand.runs_pending:  # a player who did not answer runs it once
            self._answer(hand, seat, ONCE)
