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
from ahiko.rooms.clock import Clock, TimerHandle
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomConfig, RoomKind
from ahiko.rooms.frames import hand_frame, room_summary, snapshot_frame
from ahiko.rooms.handlers import HANDLERS
from ahiko.rooms.hooks import HandArchiver, NoHooks, RoomHooks
from ahiko.rooms.outbox import Deliver, Frame, FrameBuffer
from ahiko.rooms.presence import Presence
from ahiko.rooms.ranking import TournamentRanking
from ahiko.rooms.restore import Restore
from ahiko.rooms.seats import Occupant, SeatError, Seats
from ahiko.rooms.status import RoomStatus
from ahiko.rooms.table_hand import Phase, TableHand, deal_order, layout_for
from ahiko.rooms.thinking import BOT_THINKING_LIMIT_S, Request, Thinker
from ahiko.rooms.tournament import eliminate_busted, finish_if_won

BotFactory = Callable[[str], Bot]
AVG_POT_HANDS = 20  # the lobby's average pot is over this many finished hands


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
        deliver: Deliver | None = None,
        restore: Restore | None = None,
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
        self.frames = FrameBuffer()  # the last numbered frames, for reconnects
        self._deliver: Deliver = deliver or _nowhere
        self.presence = Presence(self)
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
        self._expiring = False  # R-TM-06: out of time; the current hand is run out
        self._bot_count = 0
        self._pending: deque[Callable[[], None]] = deque()
        self._busy = False
        self.closed_stacks: dict[str, int] = {}
        self.departed_names: dict[str, str] = {}
        self.recent_pots: deque[int] = deque(maxlen=AVG_POT_HANDS)  # the lobby's "Pote médio"
        if self.status is RoomStatus.RUNNING:
            self._start_running()
        if restore is not None:
            self._restore(restore)

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

    def _restore(self, restore: Restore) -> None:
        """A room reopened after a restart: hand numbers go on, never reused (R-FD-06), and
        the button moves on from ``button``; the commitment chain starts anew (GENESIS_PREV).
        The people get their seats back, away until they reconnect: not dealt in (R-TM-05),
        withdrawn after the absence delay if they do not come back (R-TM-03, R-TM-07)."""
        self._next_hand_no = restore.next_hand_no
        self._button = restore.button
        self.recent_pots.extend(restore.recent_pots)

        def seat_them() -> None:
            for record in restore.seats:
                occupant = Occupant(record.player_id, record.name, record.stack)
                self.seat_occupant(record.seat, occupant)
                self.presence.mark_absent(occupant.player_id)
            self.emit_room()

        self.fire(seat_them)

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
        self.cancel_timer(name)

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

    def cancel_timer(self, name: str) -> None:
        handle = self._timers.pop(name, None)
        self._timer_due.pop(name, None)
        if handle is not None:
            handle.cancel()

    def timer_left(self, name: str) -> float | None:
        due = self._timer_due.get(name)
        return None if due is None else max(0.0, due - self.clock.now())

    # --- frames ----------------------------------------------------------------------------
    def emit(self, kind: str, build: Callable[[int | None], dict[str, Any]]) -> None:
        """One numbered frame to every connection, built once per viewer seat, and kept in
        the buffer as each seat of the hand saw it (a disconnected player's too, so a
        reconnect can be replayed)."""
        self.seq += 1
        hand = self.hand or self.last_hand
        seat_of = {} if hand is None else {pid: s for s, pid in hand.players.items()}
        by_seat: dict[int | None, Frame] = {}

        def frame_for(seat: int | None) -> Frame:
            found = by_seat.get(seat)
            if found is None:
                found = by_seat[seat] = Frame(kind, self.seq, build(seat))
            return found

        for connection_id, player_id in self.presence.connections():
            seat = None if player_id is None else seat_of.get(player_id)
            self._deliver(connection_id, frame_for(seat))
        for player_id, seat in seat_of.items():
            if seat not in by_seat and player_id not in self.bots:
                frame_for(seat)  # a person away now: kept for their reconnect
        self.frames.append(self.seq, by_seat, seat_of)

    def viewer_seat(self, player_id: str | None) -> int | None:
        hand = self.hand or self.last_hand
        return None if hand is None else hand.viewer_seat(player_id)

    def summary(self) -> dict[str, Any]:
        """The public description of the room (lobby and ``room`` frames)."""
        return room_summary(self)

    def lobby_entry(self) -> dict[str, Any]:
        """The room as its kind's lobby lists it (the hooks add what the kind shows)."""
        return self.hooks.lobby_entry(self, room_summary(self, with_seats=False))

    def emit_room(self) -> None:
        summary = self.summary()
        self.emit("room", lambda _seat: {"room": summary})
        self.hooks.on_seats_changed(self)

    def notify(self, player_id: str, kind: str, payload: dict[str, Any]) -> None:
        """A frame for one player's connections only (not a numbered room event)."""
        frame = Frame(kind, self.seq, payload)
        for connection_id in self.presence.connections_of(player_id):
            self._deliver(connection_id, frame)

    def send_snapshot(self, connection_id: str, player_id: str | None) -> None:
        snapshot = snapshot_frame(self, player_id)
        body = {k: v for k, v in snapshot.items() if k not in ("t", "seq")}
        self._deliver(connection_id, Frame("snapshot", snapshot["seq"], body))

    def catch_up(self, connection_id: str, player_id: str | None, since: int | None) -> None:
        """A new subscriber's first frames: what it missed since frame ``since``, when the
        buffer still holds all of it, else a snapshot."""
        missed = None if since is None else self.frames.since(since, player_id, self.seq)
        if missed is None:
            self.send_snapshot(connection_id, player_id)
            return
        for frame in missed:
            self._deliver(connection_id, frame)

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
        self.emit("hand", lambda seat: hand_frame(self, hand, seat, events, before))
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
            self.set_timer("deadline", seconds, lambda: self._auto_answer(hand, seat))

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
        return {"seat": hand.to_act, "seconds_left": round(left, 3)}

    def _auto_answer(self, hand: TableHand, seat: int) -> None:
        """R-TM-01 / R-TN-06: check when nothing is pending, else fold; a room out of time
        (R-TM-06) checks or calls so the board runs out to a showdown."""
        if self.hand is not hand or hand.to_act != seat or self.status is not RoomStatus.RUNNING:
            return
        legal = hand.legal()
        if legal.is_draw_phase:
            action = Action.discard(())
        elif legal.can_check:
            action = Action.check()
        elif self._expiring and legal.can_call:
            action = Action.call()
        else:
            action = Action.fold()
        self.apply_action(seat, action)

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
        self.hooks.on_hand_end(
            self, hand.hand_no, {"stacks": final, "net": net, "players": dict(hand.players)}
        )
        if self.is_tournament:
            eliminate_busted(self, hand)
        for _seat, occupant in self.seats.bots():
            if occupant.stack == 0:
                occupant.leave_after_hand = True  # R-RM-06
        for occupant in self.seats.between_hands():
            self.player_left(occupant)
        self.emit_room()
        if self._expiring:
            self._close("limit")
            return
        if self.is_tournament and self._tournament_over():
            return
        self.schedule_next_hand()

    def player_left(self, occupant: Occupant) -> None:
        self.chips_out += occupant.stack
        self.departed_names[occupant.player_id] = occupant.name
        self.bots.pop(occupant.player_id, None)
        self.hooks.on_player_left(self, occupant)

    # --- limits and closing -----------------------------------------------------------------
    def _limit_reached(self) -> bool:
        hands = self.config.limit_hands
        minutes = self.config.limit_minutes
        return (hands is not None and self.hands_dealt >= hands) or (
            minutes is not None and self.running_seconds >= minutes * 60
        )

    def _expire(self) -> None:
        """R-RM-18 / R-TM-06: out of time. A hand in play is run out and settled first."""
        if not self.is_open:
            return
        hand = self.hand
        if hand is not None and hand.phase is Phase.DEALT:
            self._expiring = True
            self.arm_turn()
            return
        self.cancel_committed_hand("room time limit reached")
        self._close("limit")

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
                        "deadline", frozen["deadline"], lambda: self._auto_answer(hand, seat)
                    )
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

    def auto_act_for(self, seat: int) -> None:
        """From now on this seat's decisions follow the timeout rule at once (a leaver, a
        withdrawn absentee). An all-in has no decisions left and is never cancelled (R-TM-04)."""
        self._auto_act.add(seat)
        hand = self.hand
        if hand is not None and hand.phase is Phase.DEALT and hand.to_act == seat:
            self.later(lambda: self._auto_answer(hand, seat))


def _nowhere(connection_id: str, frame: Frame) -> None:
    """The outbox of a room nobody subscribes to (a ``Deliver`` that drops every frame)."""
