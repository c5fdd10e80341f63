"""Turns: whose clock runs, and who answers when nobody does.

At every turn the seat to act gets its clock (the room's deadline, or R-TM-02's 30 s when it
is disconnected and the room has none), a bot its human-like pause and then its decision (on
a worker thread, ``ahiko.rooms.thinking``, bounded by ``BOT_THINKING_LIMIT_S``), and a seat
that acts by the timeout rule (a leaver, a withdrawn absentee, a room out of time) its check
or fold at once. A late answer for a turn that is over is dropped (``_turn`` numbers them).
When a person's clock runs out their time bank (``ahiko.rooms.timebank``) starts
by itself, or earlier by its button (``use_time_bank``); when it is spent the timeout rule
answers (R-TM-01). A withdrawn absentee with chips folds the moment the absence deadline
passes, out of turn if need be (R-TM-04 D); in a tournament an absent player is dealt in and
their hand folded at their turn (R-TN-07 D).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import TYPE_CHECKING, Literal, Protocol

from ahiko.poker.actions import Action, IllegalAction
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.frame_types import AutoAction, Deadline
from ahiko.rooms.status import RoomStatus, plays_hands
from ahiko.rooms.table_hand import Phase
from ahiko.rooms.thinking import BOT_THINKING_LIMIT_S, Request, Thinker
from ahiko.rooms.timers import TimerName

if TYPE_CHECKING:
    from ahiko.fairness.release import DealState
    from ahiko.poker.events import Event
    from ahiko.rooms.clock import Clock
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.kinds import RoomPolicy
    from ahiko.rooms.ports import Outgoing
    from ahiko.rooms.seats import Seats
    from ahiko.rooms.table_bots import TableBots
    from ahiko.rooms.table_hand import TableHand
    from ahiko.rooms.timebank import TimeBanks
    from ahiko.rooms.timers import Timers


class HandInPlay(Protocol):
    """The dealer, as turns use it: the hand in play, and the way an answer reaches it."""

    @property
    def hand(self) -> TableHand | None: ...
    def apply_action(self, seat: int, action: Action) -> list[Event]: ...
    def after_events(self, hand: TableHand, events: list[Event], before: DealState) -> None: ...


class ClockRunsOut(Protocol):
    def clock_ran_out(self, player_id: str) -> None: ...


class TurnsTable(Protocol):
    """What turns are handed: the table's seats, clock, timers, time banks and bots, the
    dealer to answer through, and the room's job queue and frames out."""

    @property
    def status(self) -> RoomStatus: ...
    @property
    def config(self) -> RoomConfig: ...
    @property
    def kind(self) -> RoomPolicy: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def time_banks(self) -> TimeBanks: ...
    @property
    def rng(self) -> Random: ...
    @property
    def bots(self) -> TableBots: ...
    @property
    def dealer(self) -> HandInPlay: ...
    @property
    def sitting_out(self) -> ClockRunsOut: ...
    def later(self, job: Callable[[], None]) -> None: ...
    @property
    def broadcast(self) -> Outgoing: ...
    def fire(self, job: Callable[[], None]) -> None: ...


class Turns:
    """Owns the turn: its number, the bot thinking, the seats answered by the timeout rule,
    and ``auto_action``, the room's answer for a seat while it is applied (a ``hand`` frame
    carries it)."""

    def __init__(self, room: TurnsTable, think: Thinker | None) -> None:
        self._room = room
        self.auto_action: AutoAction | None = None
        self._think = think  # None: bots answer inline (tests' manual clock)
        self._turn = 0  # bumped at every turn: a late answer for an older one is dropped
        self._thinking: Request | None = None  # the bot request of the current turn
        self._auto_act: set[int] = set()  # seats that act by the timeout rule at once
        self._forfeiting: set[int] = set()  # they fold, not check (R-TM-04, R-TN-07 D)
        self.expiring = False  # R-TM-06: out of time; the current hand is run out

    def new_hand(self) -> None:
        self._auto_act.clear()
        self._forfeiting.clear()

    def arm(self) -> None:
        """Start the clock of the seat to act, or let its bot or the timeout rule answer."""
        room = self._room
        room.time_banks.settle(room.clock.now())  # the last turn's bank, if one ran, is spent
        for name in (TimerName.DEADLINE, TimerName.BOT, TimerName.BOT_LIMIT):
            room.timers.cancel(name)
        self._turn += 1
        if self._thinking is not None:
            self._thinking.cancel()  # a request no thread has taken up yet is dropped
            self._thinking = None
        turn = self._turn
        hand = room.dealer.hand
        if hand is None or not plays_hands(room.status):
            return
        seat = hand.to_act
        if seat is None:
            return
        occupant = room.seats.get(seat)
        if seat in self._auto_act or occupant is None or self.expiring:
            room.later(lambda: self.auto_answer(hand, seat))
            return
        if occupant.is_bot:
            delay = self.bot_delay()
            if delay > 0:
                room.timers.set(TimerName.BOT, delay, lambda: self._bot_answer(hand, seat, turn))
            else:
                room.later(lambda: self._bot_answer(hand, seat, turn))
            return
        seconds = room.config.action_deadline_s
        if seconds is None and not occupant.connected:
            seconds = room.config.timing.disconnected_action_s  # R-TM-02
        if seconds is not None:
            self._set_deadline(hand, seat, seconds)

    def _set_deadline(self, hand: TableHand, seat: int, seconds: float) -> None:
        self._room.timers.set(TimerName.DEADLINE, seconds, lambda: self.deadline_out(hand, seat))

    def rearm_deadline(self, seconds: float) -> None:
        """After a pause: the seat to act gets back the time it had left, its running time
        bank with it (R-RM-07)."""
        room = self._room
        hand = room.dealer.hand
        seat = None if hand is None else hand.to_act
        if hand is not None and seat is not None:
            self._set_deadline(hand, seat, seconds)
            room.time_banks.thaw(room.clock.now())

    # --- the time bank ---------------------------------------------------------
    @property
    def has_time_bank(self) -> bool:
        """Time banks count only where decisions have a deadline."""
        config = self._room.config
        return config.action_deadline_s is not None and config.time_bank.enabled

    def deadline_out(self, hand: TableHand, seat: int) -> None:
        """The seat's clock ran out: its time bank starts by itself if it has seconds;
        when that is spent too (or there is none) the timeout rule answers (R-TM-01)."""
        room = self._room
        if room.dealer.hand is not hand or hand.to_act != seat or not plays_hands(room.status):
            return
        player_id = hand.players[seat]
        now = room.clock.now()
        occupant = room.seats.get(seat)
        present = occupant is not None and occupant.connected and not occupant.is_bot
        # A bank is for a hard decision: a disconnected player is played by the deadline
        # (R-TM-02, R-TM-07) and keeps their bank.
        if self.has_time_bank and present and room.time_banks.running is None:
            total = room.time_banks.start(player_id, seat, now, 0.0)
            if total is not None:
                self._set_deadline(hand, seat, total)
                self._emit_time_bank(hand)
                return
        room.time_banks.settle(now)
        room.sitting_out.clock_ran_out(player_id)
        self.auto_answer(hand, seat)

    def use_time_bank(self, hand: TableHand, seat: int) -> Reply:
        """The player's button: the bank's seconds are added now after what is left."""
        room = self._room
        left = room.timers.left(TimerName.DEADLINE)
        if not self.has_time_bank or left is None:
            raise Refusal("no_time_bank", "this table has no time bank for this decision")
        if room.time_banks.running is not None:
            raise Refusal("time_bank_running", "your time bank is already running")
        total = room.time_banks.start(hand.players[seat], seat, room.clock.now(), left)
        if total is None:
            raise Refusal("time_bank_empty", "your time bank is empty")
        self._set_deadline(hand, seat, total)
        self._emit_time_bank(hand)
        return Reply.accepted(seconds_left=round(total, 3))

    def _emit_time_bank(self, hand: TableHand) -> None:
        deadline = self.deadline()
        self._room.broadcast.emit(
            "time_bank", lambda _seat: {"hand_no": hand.hand_no, "deadline": deadline}, public=True
        )

    def deadline(self) -> Deadline | None:
        room = self._room
        hand = room.dealer.hand
        left = room.timers.left(TimerName.DEADLINE)
        if left is None:
            left = room.timers.frozen_left(TimerName.DEADLINE)
        if hand is None or hand.to_act is None or left is None:
            return None
        bank = room.time_banks.seconds_left(room.clock.now())
        occupant = room.seats.get(hand.to_act)
        banked = None
        if self.has_time_bank and occupant is not None and not occupant.is_bot:
            banked = round(room.time_banks.left(hand.players[hand.to_act]), 3)
        return {
            "seat": hand.to_act,
            "seconds_left": round(left, 3),
            # The seconds of the bank within seconds_left while it runs, else null;
            # time_bank is what the seat's bank holds (null: no bank here)
            "time_bank_running": None if bank is None else round(bank, 3),
            "time_bank": banked,
        }

    def auto_answer(self, hand: TableHand, seat: int) -> None:
        """R-TM-01 / R-TN-06: check when nothing is pending, else fold; a withdrawn absentee
        folds (R-TM-04)."""
        room = self._room
        if room.dealer.hand is not hand or hand.to_act != seat or not plays_hands(room.status):
            return
        if seat in self._forfeiting:  # R-TM-04: the absentee still contesting folds
            self._forfeit(hand, seat)
            return
        legal = hand.legal()
        if legal.is_draw_phase:
            action = Action.discard(())
        elif legal.can_check:
            action = Action.check()
        else:
            action = Action.fold()
        reason: Literal["timeout", "away", "limit"]
        if self.expiring:
            reason = "limit"
        elif seat in self._auto_act or room.seats.get(seat) is None:
            reason = "away"
        else:
            reason = "timeout"
        self.auto_action = {"seat": seat, "action": action.kind.value, "reason": reason}
        try:
            room.dealer.apply_action(seat, action)
        finally:
            self.auto_action = None

    def _forfeit(self, hand: TableHand, seat: int) -> None:
        room = self._room
        self.auto_action = {"seat": seat, "action": "fold", "reason": "away"}
        before = hand.deal_state
        try:
            room.dealer.after_events(hand, hand.forfeit(seat), before)
        finally:
            self.auto_action = None

    def bot_delay(self) -> float:
        """A bot's human-like pause before it answers: the timing's base delay plus a share
        of its jitter drawn from the room's rng (deterministic on a manual clock; nothing is
        drawn when there is no jitter, so rooms without one keep their rng stream)."""
        timing = self._room.config.timing
        jitter = timing.bot_delay_jitter_s
        return timing.bot_delay_s + (self._room.rng.random() * jitter if jitter > 0 else 0.0)

    def _bot_answer(self, hand: TableHand, seat: int, turn: int) -> None:
        room = self._room
        if not self._still_bots_turn(hand, seat, turn):
            return
        bot = room.bots.get(hand.players[seat])
        if bot is None:
            self.auto_answer(hand, seat)
            return
        view = hand.view(seat)  # R-AI-01: the seat's own view
        if view is None:  # the cards are not dealt: there is no turn to answer yet
            return
        rng = Random(room.rng.getrandbits(64))  # the room's own rng never leaves the loop
        if self._think is None:
            self._play_bot_answer(hand, seat, turn, bot.decide(view, rng))
            return
        self._thinking = self._think(
            lambda: bot.decide(view, rng),
            lambda action: room.fire(lambda: self._play_bot_answer(hand, seat, turn, action)),
        )
        room.timers.set(
            TimerName.BOT_LIMIT,
            BOT_THINKING_LIMIT_S,
            lambda: self._play_bot_answer(hand, seat, turn, None),
        )

    def _still_bots_turn(self, hand: TableHand, seat: int, turn: int) -> bool:
        """The turn a bot was armed for is still the one to play (no pause, new turn or end)."""
        room = self._room
        return (
            turn == self._turn
            and room.dealer.hand is hand
            and hand.to_act == seat
            and plays_hands(room.status)
        )

    def _play_bot_answer(
        self, hand: TableHand, seat: int, turn: int, action: Action | None
    ) -> None:
        """A bot's answer, if the turn it thought about is still the one to play."""
        if not self._still_bots_turn(hand, seat, turn):
            return
        self._thinking = None
        self._room.timers.cancel(TimerName.BOT_LIMIT)
        if action is None:  # the bot failed or took too long
            self.auto_answer(hand, seat)
            return
        try:
            self._room.dealer.apply_action(seat, action)
        except IllegalAction:
            self.auto_answer(hand, seat)

    def is_auto_acting(self, seat: int) -> bool:
        return seat in self._auto_act

    def auto_act_for(self, seat: int, *, forfeit: bool = False) -> None:
        """From now on this seat's decisions follow the timeout rule at once (a leaver), or,
        with ``forfeit`` (a withdrawn absentee, R-TM-04), it folds now, its turn or not: the
        deadline has passed, and waiting for a turn that may never come (the last opponent
        all-in for less) would carry an absentee's chips to a showdown (R-TM-04 D). An all-in
        has no decisions left and is never cancelled: it waits for the pots."""
        if forfeit:
            self._forfeiting.add(seat)
        self._auto_act.add(seat)
        room = self._room
        hand = room.dealer.hand
        if hand is None or hand.phase is not Phase.DEALT or hand.is_over:
            return
        if hand.to_act == seat or (forfeit and self._still_contesting(hand, seat)):
            room.later(lambda: self.auto_answer_or_forfeit(hand, seat))

    def fold_absent_hands(self, hand: TableHand) -> None:
        """R-TN-07 D: in a tournament an absent player (sitting out, their clock run out
        twice, or disconnected) is dealt in and pays the blinds, and their hand is folded
        when the action reaches them, as at a live table: a stack nobody plays is blinded
        off, and no absence can stop the table from reaching one winner."""
        room = self._room
        if not room.kind.keeps_absent_in_field:
            return
        for seat, player_id in hand.players.items():
            occupant = room.seats.get(seat)
            if occupant is None or occupant.player_id != player_id or occupant.is_bot:
                continue
            if occupant.sitting_out or not occupant.connected:
                self._forfeiting.add(seat)
                self._auto_act.add(seat)

    def _still_contesting(self, hand: TableHand, seat: int) -> bool:
        """In the hand, not folded, with chips behind (an all-in waits for the pots)."""
        engine = hand.engine
        i = None if engine is None else engine.index.get(seat)
        return engine is not None and i is not None and not engine.folded[i] and engine.chips[i] > 0

    def auto_answer_or_forfeit(self, hand: TableHand, seat: int) -> None:
        room = self._room
        if room.dealer.hand is not hand or hand.is_over or not plays_hands(room.status):
            return
        if seat in self._forfeiting and hand.to_act != seat:
            if self._still_contesting(hand, seat):
                self._forfeit(hand, seat)
            return
        self.auto_answer(hand, seat)
