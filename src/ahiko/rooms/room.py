"""The room: one table's state machine, driven by commands and by its clock.

Everything a room does happens inside ``submit`` (a command), a timer callback or a bot's
answer coming back from its worker thread (``ahiko.rooms.thinking``), each run to completion
on the room's own thread: no awaits inside, so nothing interleaves. The asyncio
actor (``ahiko.rooms.actor``) feeds ``submit`` from its inbox; tests call it directly with a
``ManualClock``. Bots answer through the same ``act`` path as people, with the same views.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from random import Random
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.bots.protocol import Bot, BotLoadError, load_bot
from ahiko.fairness.commitment import GENESIS_PREV
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.release import DealState
from ahiko.fairness.shuffle import RandBelow, shuffled_deck
from ahiko.poker.actions import Action, IllegalAction
from ahiko.poker.events import Event
from ahiko.rooms import commands as c
from ahiko.rooms.chat import TableChat
from ahiko.rooms.clock import Clock, TimerHandle
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomConfig, RoomKind
from ahiko.rooms.frames import HandFrames, room_summary, snapshot_frame
from ahiko.rooms.handlers import HANDLERS
from ahiko.rooms.hooks import HandArchiver, NoHooks, RoomHooks
from ahiko.rooms.moderation import Moderation
from ahiko.rooms.presence import Presence
from ahiko.rooms.ranking import TournamentRanking
from ahiko.rooms.seats import Occupant, SeatError, Seats
from ahiko.rooms.shared_frames import Frame
from ahiko.rooms.sitting_out import SittingOut
from ahiko.rooms.sitting_out import timer_name as sit_out_timer
from ahiko.rooms.status import RoomStatus
from ahiko.rooms.table_hand import Phase, TableHand, deal_order, layout_for
from ahiko.rooms.thinking import BOT_THINKING_LIMIT_S, Request, Thinker
from ahiko.rooms.timebank import TimeBanks
from ahiko.rooms.tournament import eliminate_busted, finish_if_won
from ahiko.rooms.waitlist import WaitList

BotFactory = Callable[[str], Bot]
AVG_POT_HANDS = 20  # the lobby's average pot is over this many finished hands
# Timers the table shows as countdowns ("Próxima mão em 5 s", the Bot Ahiko's arrival): the
# server sends what is left of them (``countdown`` frames, the summary's ``countdowns``).
COUNTDOWN_TIMERS = ("next_hand", "bot_ahiko")


class Room:
    def __init__(
        self,
        room_id: str,
        config: RoomConfig,
        *,
        clock: Clock,
        host_id: str | None = None,
        hooks: RoomHooks | None = None,
        rng: Random | None = None,
        signing_key: Ed25519PrivateKey | None = None,
        bot_factory: BotFactory = load_bot,
        randbelow: RandBelow = secrets.randbelow,
        archive: HandArchiver | None = None,
        think: Thinker | None = None,
        moderation: Moderation | None = None,
    ) -> None:
        self.room_id = room_id
        self.config = config
        self.clock = clock
        self.host_id = host_id
        self.hooks: RoomHooks = hooks or NoHooks()
        self.archive = archive  # every finished hand, for "my hands" downloads
        self.rng = rng or Random()
        self._signing_key = signing_key
        self._bot_factory = bot_factory
        self._randbelow = randbelow
        self._think = think  # None: bots answer inline (tests' manual clock)
        self._bot_turn = 0  # bumped at every turn: a late answer for an older one is dropped
        self._thinking: Request | None = None  # the bot request of the current turn
        self.seats = Seats(config.seats)
        self.status = RoomStatus.WAITING if config.has_host else RoomStatus.RUNNING
        self.hand: TableHand | None = None
        self.last_hand: TableHand | None = None
        self.hands_dealt = 0
        self.seq = 0
        self.presence = Presence(self)
        self.chat = TableChat(self, moderation)  # issue 19: table chat
        self.time_banks = TimeBanks(config.time_bank)  # issue 19: extra seconds per person
        self.sitting_out = SittingOut(self)  # issue 19: "Ficar fora nas próximas mãos"
        self.waitlist = WaitList(self)  # issue 19: a full recreational room's waiting list
        self.ranking = TournamentRanking(0, self.rng) if self.is_tournament else None
        self.chips_in = 0  # every chip that entered the table (sits, bots, new entries)
        self.chips_out = 0  # every chip that left with a player
        self.bots: dict[str, Bot] = {}
        self._next_hand_no = 1
        self._button: int | None = None
        self._prev_digest = GENESIS_PREV
        self._timers: dict[str, TimerHandle] = {}
        self._paused_left: dict[str, float] = {}  # timers frozen by a pause: name -> seconds
        self._timer_due: dict[str, float] = {}
        self._running_since: float | None = None
        self._running_total = 0.0
        self._auto_act: set[int] = set()  # seats that act by the timeout rule at once
        self._forfeiting: set[int] = set()  # withdrawn absentees: they fold (R-TM-04)
        # The answer the room is giving for a seat (its clock ran out, it is away, the room is
        # out of time), for the hand frame that carries it (``auto_action``).
        self.auto_action: dict[str, Any] | None = None
        self._expiring = False  # R-TM-06: out of time; the current hand is run out
        self._expiry_reason = "limit"
        self._bot_count = 0
        self._pending: deque[Callable[[], None]] = deque()
        self._busy = False
        self.closed_stacks: dict[str, int] = {}
        self.departed_names: dict[str, str] = {}
        self.recent_pots: deque[int] = deque(maxlen=AVG_POT_HANDS)  # the lobby's "Pote médio"
        if self.status is RoomStatus.RUNNING:
            self._start_running()

    # --- properties ------------------------------------------------------------------------
    @property
    def is_tournament(self) -> bool:
        return self.config.kind is RoomKind.TOURNAMENT

    @property
    def is_recreational(self) -> bool:
        return self.config.kind is RoomKind.RECREATIONAL

    @property
    def running_seconds(self) -> float:
        """Unpaused play time: what minute-based blinds and time limits count."""
        extra = 0.0 if self._running_since is None else self.clock.now() - self._running_since
        return self._running_total + extra

    @property
    def is_open(self) -> bool:
        return self.status not in (RoomStatus.CLOSED, RoomStatus.FINISHED)

    @property
    def next_hand_no(self) -> int:
        return self._next_hand_no

    @property
    def avg_pot(self) -> int | None:
        """The mean total pot of the last AVG_POT_HANDS finished hands; None before any."""
        if not self.recent_pots:
            return None
        return round(sum(self.recent_pots) / len(self.recent_pots))

    def continue_numbering(self, next_hand_no: int, button: int | None) -> None:
        """A room reopened after a restart: hand numbers go on, never reused (R-FD-06), and
        the button moves on from ``button``. The commitment chain starts anew (GENESIS_PREV)."""
        self._next_hand_no = next_hand_no
        self._button = button

    # --- entry points ----------------------------------------------------------------------
    def submit(self, command: c.Command) -> Reply:
        """Apply one command and everything that follows from it (bot moves at zero delay)."""
        handler = HANDLERS[type(command)]
        try:
            reply: Reply = self._guarded(lambda: handler(self, command))
        except Refusal as refusal:
            return refusal.reply
        return reply

    def fire(self, job: Callable[[], None]) -> None:
        """Run a timer's job, then whatever it set in motion."""
        self._guarded(job)

    def _guarded(self, job: Callable[[], Any]) -> Any:
        if self._busy:  # a callback from inside the room: queue it behind the current job
            self._pending.append(job)
            return Reply.accepted()
        self._busy = True
        try:
            result = job()
            while self._pending:
                self._pending.popleft()()
            return result
        finally:
            self._busy = False

    def later(self, job: Callable[[], None]) -> None:
        """Run ``job`` after the current one, on this thread."""
        self._pending.append(job)

    # --- timers ----------------------------------------------------------------------------
    def set_timer(self, name: str, seconds: float, job: Callable[[], None]) -> None:
        self._drop_timer(name)

        def run() -> None:
            if self._timers.get(name) is handle_box[0]:
                del self._timers[name]
                self._timer_due.pop(name, None)
                self.fire(job)

        handle_box: list[TimerHandle] = []
        handle = self.clock.call_later(seconds, run)
        handle_box.append(handle)
        self._timers[name] = handle
        self._timer_due[name] = self.clock.now() + seconds
        if name in COUNTDOWN_TIMERS:
            self._emit_countdowns()

    def cancel_timer(self, name: str) -> None:
        if self._drop_timer(name) and name in COUNTDOWN_TIMERS:
            self._emit_countdowns()

    def _drop_timer(self, name: str) -> bool:
        handle = self._timers.pop(name, None)
        self._timer_due.pop(name, None)
        if handle is not None:
            handle.cancel()
        return handle is not None

    def countdowns(self) -> dict[str, float]:
        """Seconds left of the timers the table counts down to (COUNTDOWN_TIMERS)."""
        out = {}
        for name in COUNTDOWN_TIMERS:
            left = self.timer_left(name)
            if left is not None:
                out[name] = round(left, 3)
        return out

    def _emit_countdowns(self) -> None:
        countdowns = self.countdowns()
        self.emit("countdown", lambda _seat: {"countdowns": countdowns})

    def timer_left(self, name: str) -> float | None:
        due = self._timer_due.get(name)
        return None if due is None else max(0.0, due - self.clock.now())

    # --- frames ----------------------------------------------------------------------------
    def emit(
        self, kind: str, build: Callable[[int | None], dict[str, Any]], *, public: bool = False
    ) -> None:
        """One numbered event to every connection, built once per viewer seat (once for all
        when ``public``): every connection of a seat gets the same ``Frame``, encoded once."""
        self.seq += 1
        frames: dict[int | None, Frame] = {}
        for connection in self.presence.connections():
            seat = None if public else self.viewer_seat(connection.player_id)
            frame = frames.get(seat)
            if frame is None:
                frame = frames[seat] = Frame({"t": kind, "seq": self.seq, **build(seat)})
            connection.send(frame)

    def viewer_seat(self, player_id: str | None) -> int | None:
        hand = self.hand or self.last_hand
        return None if hand is None else hand.viewer_seat(player_id)

    def summary(self) -> dict[str, Any]:
        """The public description of the room (lobby and ``room`` frames)."""
        return room_summary(self)

    def emit_room(self) -> None:
        summary = self.summary()
        self.emit("room", lambda _seat: {"room": summary}, public=True)
        self.hooks.on_seats_changed(self)

    def notify(self, player_id: str, kind: str, payload: dict[str, Any]) -> None:
        """A frame for one player's connections only (not a numbered room event)."""
        for connection in self.presence.connections():
            if connection.player_id == player_id:
                connection.send({"t": kind, "seq": self.seq, **payload})

    def snapshot(self, connection: c.Connection) -> dict[str, Any]:
        return snapshot_frame(self, connection.player_id)

    # --- hands -----------------------------------------------------------------------------
    def _start_running(self) -> None:
        self.status = RoomStatus.RUNNING
        self._running_since = self.clock.now()
        if self.config.limit_minutes is not None:
            left = self.config.limit_minutes * 60 - self._running_total
            self.set_timer("expiry", left, self._expire)

    def _stop_running(self) -> None:
        if self._running_since is not None:
            self._running_total += self.clock.now() - self._running_since
            self._running_since = None

    def participants_ready(self) -> list[int]:
        seats = self.seats.eligible_for_hand()
        if len(seats) < 2:
            return []
        if not self.is_tournament and not any(self.seats.get(s).is_person for s in seats):  # type: ignore[union-attr]
            return []  # R-RM-03 / R-RM-11: at least one person
        return seats

    def schedule_next_hand(self, delay: float | None = None) -> None:
        if self.status is not RoomStatus.RUNNING or self.hand is not None:
            return
        wait = self.config.timing.next_hand_delay_s if delay is None else delay
        if wait <= 0:
            self.cancel_timer("next_hand")
            self.later(self._begin_hand)
        else:
            self.set_timer("next_hand", wait, self._begin_hand)

    @property
    def is_ahiko(self) -> bool:
        return self.config.kind is RoomKind.AHIKO

    def wake(self) -> None:
        """Something changed that may let a waiting table deal: try now, unless a hand or
        the between-hands delay is already under way. An Ahiko room deals eight seconds
        after it becomes ready (R-RM-11), and forgets that wait if it stops being ready."""
        if self.is_ahiko:
            if self.hand is not None or self.status is not RoomStatus.RUNNING:
                return
            if not self.participants_ready():
                self.cancel_timer("next_hand")
            elif "next_hand" not in self._timers:
                self.schedule_next_hand()
            return
        if "next_hand" not in self._timers and "next_hand" not in self._paused_left:
            self.schedule_next_hand(0.0)

    def _begin_hand(self) -> None:
        if self.status is not RoomStatus.RUNNING or self.hand is not None:
            return
        if self._limit_reached():
            self._close("limit")
            return
        if self.is_tournament and self._tournament_over():
            return
        participants = self.participants_ready()
        if not participants:
            return  # waits: a sit, a return or a new entry calls schedule_next_hand again
        self._button = self._next_button(participants)
        stakes = self.config.schedule.stakes_for_next_hand(self.hands_dealt, self.running_seconds)
        hand_no = self._next_hand_no
        self._next_hand_no += 1  # never reused, cancelled hands included (R-FD-06)
        dealt = deal_order(participants, self._button)
        committer = DealCommitter(
            table_id=self.room_id,
            hand_no=hand_no,
            layout=layout_for(self.config.variant),
            button_seat=self._button,
            dealt_seats=dealt,
            deck=shuffled_deck(self._randbelow),
            committed_at_ms=self.clock.wall_ms(),
            prev=self._prev_digest,
            signing_key=self._signing_key,
        )
        self._prev_digest = committer.commitment.digest
        players = {s: self.seats.get(s).player_id for s in participants}  # type: ignore[union-attr]
        stacks = {s: self.seats.get(s).stack for s in participants}  # type: ignore[union-attr]
        names = {s: self.seats.get(s).name for s in participants}  # type: ignore[union-attr]
        self.hand = TableHand(
            hand_no=hand_no,
            variant=self.config.variant,
            stakes=stakes,
            players=players,
            stacks=stacks,
            button=self._button,
            committer=committer,
            names=names,
        )
        self.last_hand = None
        self._auto_act.clear()
        self._forfeiting.clear()
        commitment = self.hand.commitment()
        delay = self.config.timing.commitment_display_s
        self.emit(
            "commitment",
            lambda _seat: {
                "hand_no": hand_no,
                "commitment": commitment,
                "cards_in_s": delay,
                "stakes": stakes.as_dict(),
            },
        )
        self.set_timer("deal", delay, self._deal)  # R-FD-02

    def _next_button(self, participants: list[int]) -> int:
        if self._button is None:
            return participants[0]
        later = [s for s in participants if s > self._button]
        return later[0] if later else participants[0]  # R-HE-02: one seat on, every hand

    def _deal(self) -> None:
        hand = self.hand
        if hand is None or hand.phase is not Phase.COMMITTED:
            return
        self.hooks.on_hand_start(self, hand.hand_no, hand.start_stacks)
        events = hand.deal()
        self.hands_dealt += 1
        for seat, player_id in hand.players.items():
            occupant = self.seats.get(seat)
            if occupant is not None and not occupant.is_bot:
                self.time_banks.hand_dealt(player_id)  # the bank's refill counts hands
        self.after_events(hand, events, DealState())

    def cancel_committed_hand(self, reason: str) -> None:
        """R-FD-06: a participant left before the cards: no blinds, a new number next."""
        hand = self.hand
        if hand is None or hand.phase is not Phase.COMMITTED:
            return
        hand.phase = Phase.CANCELLED
        self.cancel_timer("deal")
        self.hand = None
        self.emit(
            "hand_cancelled",
            lambda _seat: {
                "hand_no": hand.hand_no,
                "rule": "R-FD-06",
                "reason": reason,
            },
        )

    def after_events(self, hand: TableHand, events: list[Event], before: DealState) -> None:
        """Broadcast what just happened, then move the hand on (next turn or its end).

        The next turn is armed before the frame is built, so the frame's ``deadline`` is the
        clock of the seat now to act (a bot's or the timeout rule's answer is only queued:
        it runs after this frame went out)."""
        continues = self.hand is hand and not hand.is_over
        if continues:
            self.arm_turn()
        self.emit("hand", HandFrames(self, hand, before))
        hand.history_sent = 0 if hand.engine is None else len(hand.engine.log)
        if self.hand is not hand and self.last_hand is hand and self.archive is not None:
            self.archive.hand_shown(self, hand)  # a show after the hand (R-HE-12)
        if self.hand is hand and hand.is_over:
            self._finish_hand()

    def apply_action(self, seat: int, action: Action) -> list[Event]:
        hand = self.hand
        assert hand is not None
        before = hand.deal_state
        events = hand.act(seat, action)
        self.after_events(hand, events, before)
        return events

    def arm_turn(self) -> None:
        """Start the clock of the seat to act, or let its bot or the timeout rule answer."""
        self.time_banks.settle(self.clock.now())  # the last turn's bank, if one ran, is spent
        self.cancel_timer("deadline")
        self.cancel_timer("bot")
        self.cancel_timer("bot_limit")
        self._bot_turn += 1
        if self._thinking is not None:
            self._thinking.cancel()  # a request no thread has taken up yet is dropped
            self._thinking = None
        turn = self._bot_turn
        hand = self.hand
        if hand is None or self.status is not RoomStatus.RUNNING:
            return
        seat = hand.to_act
        if seat is None:
            return
        occupant = self.seats.get(seat)
        if seat in self._auto_act or occupant is None or self._expiring:
            self.later(lambda: self._auto_answer(hand, seat))
            return
        if occupant.is_bot:
            delay = self.bot_delay()
            if delay > 0:
                self.set_timer("bot", delay, lambda: self._bot_answer(hand, seat, turn))
            else:
                self.later(lambda: self._bot_answer(hand, seat, turn))
            return
        seconds = self.config.action_deadline_s
        if seconds is None and not occupant.connected:
            seconds = self.config.timing.disconnected_action_s  # R-TM-02
        if seconds is not None:
            self.set_timer("deadline", seconds, lambda: self._deadline_out(hand, seat))

    @property
    def has_time_bank(self) -> bool:
        """Time banks count only where decisions have a deadline."""
        return self.config.action_deadline_s is not None and self.config.time_bank.enabled

    def _deadline_out(self, hand: TableHand, seat: int) -> None:
        """The seat's clock ran out: its time bank starts by itself if it has seconds;
        when that is spent too (or there is none) the timeout rule answers (R-TM-01)."""
        if self.hand is not hand or hand.to_act != seat or self.status is not RoomStatus.RUNNING:
            return
        player_id = hand.players[seat]
        now = self.clock.now()
        occupant = self.seats.get(seat)
        present = occupant is not None and occupant.connected and not occupant.is_bot
        # A bank is for a hard decision: a disconnected player is played by the deadline
        # (R-TM-02, R-TM-07) and keeps their bank.
        if self.has_time_bank and present and self.time_banks.running is None:
            total = self.time_banks.start(player_id, seat, now, 0.0)
            if total is not None:
                self.set_timer("deadline", total, lambda: self._deadline_out(hand, seat))
                self._emit_time_bank(hand)
                return
        self.time_banks.settle(now)
        self.sitting_out.clock_ran_out(player_id)
        self._auto_answer(hand, seat)

    def use_time_bank(self, hand: TableHand, seat: int) -> Reply:
        """The player's button: the bank's seconds are added now after what is left."""
        left = self.timer_left("deadline")
        if not self.has_time_bank or left is None:
            raise Refusal("no_time_bank", "this table has no time bank for this decision")
        if self.time_banks.running is not None:
            raise Refusal("time_bank_running", "your time bank is already running")
        total = self.time_banks.start(hand.players[seat], seat, self.clock.now(), left)
        if total is None:
            raise Refusal("time_bank_empty", "your time bank is empty")
        self.set_timer("deadline", total, lambda: self._deadline_out(hand, seat))
        self._emit_time_bank(hand)
        return Reply.accepted(seconds_left=round(total, 3))

    def _emit_time_bank(self, hand: TableHand) -> None:
        deadline = self.deadline()
        self.emit("time_bank", lambda _seat: {"hand_no": hand.hand_no, "deadline": deadline})

    def bot_delay(self) -> float:
        """A bot's human-like pause before it answers: the timing's base delay plus a share
        of its jitter drawn from the room's rng (deterministic on a manual clock; nothing is
        drawn when there is no jitter, so rooms without one keep their rng stream)."""
        timing = self.config.timing
        jitter = timing.bot_delay_jitter_s
        return timing.bot_delay_s + (self.rng.random() * jitter if jitter > 0 else 0.0)

    def deadline(self) -> dict[str, Any] | None:
        hand = self.hand
        left = self.timer_left("deadline")
        if left is None:
            left = self._paused_left.get("deadline")
        if hand is None or hand.to_act is None or left is None:
            return None
        bank = self.time_banks.seconds_left(self.clock.now())
        occupant = self.seats.get(hand.to_act)
        banked = None
        if self.has_time_bank and occupant is not None and not occupant.is_bot:
            banked = round(self.time_banks.left(hand.players[hand.to_act]), 3)
        return {
            "seat": hand.to_act,
            "seconds_left": round(left, 3),
            # issue 19: the seconds of the bank within seconds_left while it runs, else null;
            # time_bank is what the seat's bank holds (null: no bank here)
            "time_bank_running": None if bank is None else round(bank, 3),
            "time_bank": banked,
        }

    def _auto_answer(self, hand: TableHand, seat: int) -> None:
        """R-TM-01 / R-TN-06: check when nothing is pending, else fold; a withdrawn absentee
        folds (R-TM-04)."""
        if self.hand is not hand or hand.to_act != seat or self.status is not RoomStatus.RUNNING:
            return
        legal = hand.legal()
        if legal.is_draw_phase:
            action = Action.discard(())
        elif seat in self._forfeiting:  # R-TM-04: the absentee still contesting folds
            self.auto_action = {"seat": seat, "action": "fold", "reason": "away"}
            before = hand.deal_state
            try:
                self.after_events(hand, hand.forfeit(seat), before)
            finally:
                self.auto_action = None
            return
        elif legal.can_check:
            action = Action.check()
        else:
            action = Action.fold()
        if self._expiring:
            reason = "limit"
        elif seat in self._auto_act or self.seats.get(seat) is None:
            reason = "away"
        else:
            reason = "timeout"
        self.auto_action = {"seat": seat, "action": action.kind.value, "reason": reason}
        try:
            self.apply_action(seat, action)
        finally:
            self.auto_action = None

    def _bot_answer(self, hand: TableHand, seat: int, turn: int) -> None:
        if not self._still_bots_turn(hand, seat, turn):
            return
        bot = self.bots.get(hand.players[seat])
        if bot is None:
            self._auto_answer(hand, seat)
            return
        view = hand.view(seat) or {}  # R-AI-01: the seat's own view
        rng = Random(self.rng.getrandbits(64))  # the room's own rng never leaves the loop
        if self._think is None:
            self._play_bot_answer(hand, seat, turn, bot.decide(view, rng))
            return
        self._thinking = self._think(
            lambda: bot.decide(view, rng),
            lambda action: self.fire(lambda: self._play_bot_answer(hand, seat, turn, action)),
        )
        limit = BOT_THINKING_LIMIT_S
        self.set_timer("bot_limit", limit, lambda: self._play_bot_answer(hand, seat, turn, None))

    def _still_bots_turn(self, hand: TableHand, seat: int, turn: int) -> bool:
        """The turn a bot was armed for is still the one to play (no pause, new turn or end)."""
        return (
            turn == self._bot_turn
            and self.hand is hand
            and hand.to_act == seat
            and self.status is RoomStatus.RUNNING
        )

    def _play_bot_answer(
        self, hand: TableHand, seat: int, turn: int, action: Action | None
    ) -> None:
        """A bot's answer, if the turn it thought about is still the one to play."""
        if not self._still_bots_turn(hand, seat, turn):
            return
        self._thinking = None
        self.cancel_timer("bot_limit")
        if action is None:  # the bot failed or took too long
            self._auto_answer(hand, seat)
            return
        try:
            self.apply_action(seat, action)
        except IllegalAction:
            self._auto_answer(hand, seat)

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None
        self.time_banks.settle(self.clock.now())
        self.cancel_timer("deadline")
        self.cancel_timer("bot")
        final = hand.final_stacks()
        for seat, stack in final.items():
            occupant = self.seats.get(seat)
            if occupant is not None and occupant.player_id == hand.players[seat]:
                occupant.stack = stack
        self.hand = None
        self.last_hand = hand
        self.recent_pots.append(hand.total_pot())
        net = {s: final[s] - hand.start_stacks[s] for s in final}
        if self.archive is not None:
            self.archive.hand_finished(self, hand)
        self._bots_observe(hand)
        self.hooks.on_hand_end(
            self, hand.hand_no, {"stacks": final, "net": net, "players": dict(hand.players)}
        )
        if self.is_tournament:
            eliminate_busted(self, hand)
        for _seat, occupant in self.seats.bots():
            if occupant.stack == 0:
                occupant.leave_after_hand = True  # R-RM-06
        self.sitting_out.hand_finished(hand)  # two timeouts in a row sit one out
        for occupant in self.seats.between_hands():
            self.player_left(occupant)
        self.emit_room()
        if self._expiring:
            self._close(self._expiry_reason)
            return
        if self.is_tournament and self._tournament_over():
            return
        self.schedule_next_hand()

    def _bots_observe(self, hand: TableHand) -> None:
        """Bots with a memory (``observe``) get their own final view of the hand, with the
        players' public names: what they learn lives as long as they sit here (issue 18)."""
        names: dict[str, str] = {}
        for seat, player_id in hand.players.items():
            occupant = self.seats.get(seat)
            if occupant is not None and occupant.player_id == player_id:
                names[str(seat)] = occupant.name
            else:
                names[str(seat)] = self.departed_names.get(player_id, "")
        for seat, player_id in hand.players.items():
            observe = getattr(self.bots.get(player_id), "observe", None)
            if observe is not None:
                observe({**(hand.view(seat) or {}), "players": names})

    def player_left(self, occupant: Occupant) -> None:
        self.chips_out += occupant.stack
        self.departed_names[occupant.player_id] = occupant.name
        self.bots.pop(occupant.player_id, None)
        self.cancel_timer(sit_out_timer(occupant.player_id))
        self.hooks.on_player_left(self, occupant)
        self.later(self.waitlist.offer_next)  # a seat may have come free

    # --- limits and closing -----------------------------------------------------------------
    def _limit_reached(self) -> bool:
        hands = self.config.limit_hands
        minutes = self.config.limit_minutes
        return (hands is not None and self.hands_dealt >= hands) or (
            minutes is not None and self.running_seconds >= minutes * 60
        )

    def _expire(self, reason: str = "limit") -> None:
        """R-RM-18 / R-TM-06 (D): the room expires (its time limit, or an empty recreational
        room's two minutes, R-RM-09). A hand in play stops betting where it stands and is
        run out and settled (``stop_betting``) before the balances return."""
        if not self.is_open:
            return
        hand = self.hand
        if hand is not None and hand.phase is Phase.DEALT and not hand.is_over:
            self._expiring = True
            self._expiry_reason = reason
            before = hand.deal_state
            self.after_events(hand, hand.stop_betting(), before)
            return
        self.cancel_committed_hand("room time limit reached")
        self._close(reason)

    def expire(self, reason: str) -> None:
        self._expire(reason)

    def _tournament_over(self) -> bool:
        return finish_if_won(self)

    def finish(self) -> None:
        """The tournament is decided: no more hands; the winner keeps the chips on show."""
        self._stop_running()
        for name in list(self._timers):
            self.cancel_timer(name)
        self._paused_left.clear()
        self.status = RoomStatus.FINISHED

    def close(self, reason: str) -> None:
        self._close(reason)

    def _close(self, reason: str) -> None:
        if not self.is_open:
            return
        hand = self.hand
        if hand is not None:
            if hand.phase is Phase.DEALT:
                # R-RM-08: bets go back; every stack is what it was when the hand began.
                for seat, stack in hand.start_stacks.items():
                    occupant = self.seats.get(seat)
                    if occupant is not None:
                        occupant.stack = stack
            self.hand = None
        self._stop_running()
        for name in list(self._timers):
            self.cancel_timer(name)
        self._paused_left.clear()
        self.status = RoomStatus.CLOSED
        self.closed_stacks = {o.player_id: o.stack for _, o in self.seats.items()}
        stacks = dict(self.closed_stacks)
        self.emit("closed", lambda _seat: {"reason": reason, "stacks": stacks})
        self.hooks.on_room_closed(self, stacks)

    # --- pause ------------------------------------------------------------------------------
    def pause(self) -> None:
        """R-RM-07: clocks and blinds stop; timers keep what was left of them."""
        if self.status is not RoomStatus.RUNNING:
            return
        self._stop_running()
        self.time_banks.freeze(self.clock.now())
        for name in ("deal", "deadline", "bot", "next_hand", "expiry"):
            left = self.timer_left(name)
            if left is not None:
                self._paused_left[name] = left
                self.cancel_timer(name)
        self.status = RoomStatus.PAUSED
        self.emit_room()

    def resume(self) -> None:
        if self.status is not RoomStatus.PAUSED:
            return
        self.status = RoomStatus.RUNNING
        self._running_since = self.clock.now()
        frozen, self._paused_left = self._paused_left, {}
        jobs: dict[str, Callable[[], None]] = {
            "deal": self._deal,
            "next_hand": self._begin_hand,
            "expiry": self._expire,
        }
        for name, left in frozen.items():
            if name in jobs:
                self.set_timer(name, left, jobs[name])
        hand = self.hand
        if hand is not None and hand.phase is Phase.DEALT:
            self.arm_turn()
            if "deadline" in frozen and "deadline" in self._timers:
                seat = hand.to_act
                if seat is not None:
                    self.set_timer(
                        "deadline", frozen["deadline"], lambda: self._deadline_out(hand, seat)
                    )
                    self.time_banks.thaw(self.clock.now())
        elif hand is None and "next_hand" not in frozen:
            self.schedule_next_hand(0.0)
        self.emit_room()

    # --- people and bots --------------------------------------------------------------------
    def new_bot(self, level: str) -> Occupant:
        try:
            bot = self._bot_factory(level)
        except BotLoadError as exc:
            raise Refusal("bad_bot", str(exc), "R-RM-05") from None
        self._bot_count += 1
        player_id = f"bot-{self._bot_count}"
        self.bots[player_id] = bot
        return Occupant(
            player_id,
            f"Bot {self._bot_count}",  # the level travels as ``bot_level``
            self.config.starting_chips,
            is_bot=True,
            bot_level=level,
        )

    def seat_occupant(self, seat: int, occupant: Occupant) -> bool:
        hand_running = self.hand is not None
        try:
            reserved = self.seats.sit(
                seat, occupant, hand_running=hand_running, may_take_bot_place=self.is_recreational
            )
        except SeatError as exc:
            raise Refusal("seat", exc.message, exc.rule) from None
        self.chips_in += occupant.stack
        return reserved

    def is_auto_acting(self, seat: int) -> bool:
        return seat in self._auto_act

    def auto_act_for(self, seat: int, *, forfeit: bool = False) -> None:
        """From now on this seat's decisions follow the timeout rule at once (a leaver), or,
        with ``forfeit`` (a withdrawn absentee, R-TM-04), it folds at its next betting turn
        even where it could check. An all-in has no decisions left and is never cancelled:
        it waits for the pots (R-TM-04)."""
        self._auto_act.add(seat)
        if forfeit:
            self._forfeiting.add(seat)
        hand = self.hand
        if hand is not None and hand.phase is Phase.DEALT and hand.to_act == seat:
            self.later(lambda: self._auto_answer(hand, seat))
