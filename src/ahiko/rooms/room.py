"""The room: one table, driven by commands and by its clock, made of parts.

Everything a room does happens inside ``submit`` (a command), a timer callback or a bot's
answer coming back from its worker thread (``ahiko.rooms.thinking``), each run to completion
on the room's own thread: no awaits inside, so nothing interleaves. The actor
(``ahiko.rooms.actor``) is its only door; tests may call ``submit`` directly with a
``ManualClock``. Bots answer through the same ``act`` path as people, with the same views.

The parts (docs/rooms.md): ``status`` (the transition table), ``timers`` (typed, frozen by a
pause), ``turns`` (clocks and bots; the room's answer for a seat), ``dealer`` (the hand
cycle; it owns the hand), ``broadcast`` (numbered frames out, the reconnect buffer; it owns
``seq`` and the epoch), ``presence`` (connections and absence), ``seats``, and the room's
``kind`` (a policy object) and ``hooks`` (the house's wallet, when it is an Ahiko room).

Each part is handed its collaborators, or the room itself through a port (a ``Protocol``
beside the part listing what it uses); no module but this one names ``Room``. The room keeps
the composition, the dispatch (``HANDLERS`` and the house's commands, ``_DISPATCH``), the
job queue, the status's writer, the running time, and the verbs every part may ask for
(``emit_room``, ``seat_occupant``, ``player_left``, ``close``, ``expire``). It forwards no
part's work: a caller asks the part that owns it (``room.dealer.wake()``,
``room.dealer.hand``, ``room.turns.is_auto_acting(seat)``, ``room.timers.set``,
``room.broadcast.emit``), and its port names that part.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from random import Random
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.bots.protocol import load_bot
from ahiko.fairness.shuffle import RandBelow
from ahiko.rooms import commands as c
from ahiko.rooms import ending
from ahiko.rooms import frame_types as ft
from ahiko.rooms.broadcast import Broadcast
from ahiko.rooms.chat import TableChat
from ahiko.rooms.clock import Clock
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.dealing import Dealer
from ahiko.rooms.frames import room_summary, snapshot_frame
from ahiko.rooms.handlers import HANDLERS, ask_to_sit
from ahiko.rooms.hooks import HandArchiver, NoHooks, RoomHooks
from ahiko.rooms.house import commands as house_commands
from ahiko.rooms.house.host_desk import HostDesk
from ahiko.rooms.house.host_menu import HOST_HANDLERS
from ahiko.rooms.house.seat_requests import seat_person
from ahiko.rooms.kinds import policy_for
from ahiko.rooms.moderation import Moderation
from ahiko.rooms.outbox import Deliver, deliver_nowhere, new_epoch
from ahiko.rooms.pending import PendingReply, ReplyHold
from ahiko.rooms.presence import Presence
from ahiko.rooms.restore import Restore, reopen
from ahiko.rooms.room_view import RoomView
from ahiko.rooms.run_question import RunQuestion
from ahiko.rooms.seat_secrets import SeatSecrets
from ahiko.rooms.seats import Occupant, SeatError, Seats
from ahiko.rooms.sitting_out import SittingOut
from ahiko.rooms.status import RoomStatus, check_move, is_open
from ahiko.rooms.straddle_offer import StraddleOffer
from ahiko.rooms.table_bots import BotFactory, TableBots
from ahiko.rooms.thinking import Thinker
from ahiko.rooms.timebank import TimeBanks
from ahiko.rooms.timers import TimerName, Timers, absence, sit_out
from ahiko.rooms.turns import Turns
from ahiko.rooms.waitlist import WaitList

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
        moderation: Moderation | None = None,
        epoch: str | None = None,
    ) -> None:
        self.room_id = room_id
        self.config = config
        self.clock = clock
        self.host_id = host_id
        self.kind = policy_for(config.kind, config.part_of)
        self.hooks: RoomHooks = hooks or NoHooks()
        self.view = RoomView(self)  # all the hooks and the archive see of this room
        self.archive = archive  # every finished hand, for "my hands" downloads
        self.rng = rng or Random()
        self.signing_key = signing_key
        self.randbelow = randbelow
        self.seats = Seats(config.seats)
        self.status = RoomStatus.WAITING  # every room begins here (``status.MOVES``)
        self.stopped = False  # the run is over (closed, or dropped by its node): nothing runs
        self.draining = False  # its server is stopping: no new hand (``RoomRegistry.drain``)
        self.timers = Timers(clock, self.fire, on_countdown=self._emit_countdowns)
        self.bots = TableBots(bot_factory)
        self.turns = Turns(self, think)
        self.dealer = Dealer(self)
        self.presence = Presence(self)
        self.broadcast = Broadcast(
            deliver or deliver_nowhere,
            epoch or new_epoch(),  # this run: frames are named by (epoch, seq)
            viewers=self.presence,
            hands=self.dealer,
            bots=self.bots,
            snapshot=lambda player_id: snapshot_frame(self, player_id),
            said_since=lambda seq, player_id: self.chat.said_since(seq, player_id),
        )
        self.chat: TableChat = TableChat(self, moderation)  # Table chat
        self.time_banks = TimeBanks(config.time_bank)  # Extra seconds per person
        self.sitting_out = SittingOut(self)  # "Ficar fora nas próximas mãos"
        self.waitlist = WaitList(self)  # A full recreational room's waiting list
        self.seat_secrets = SeatSecrets(self)  # pokerfair/2: the players' part of the shuffle
        self.run_question: RunQuestion = RunQuestion(self)  # of the all-in players
        self.straddle_offer: StraddleOffer = StraddleOffer(self)  # before the cards
        self.host_desk = HostDesk(self)  # The host's changes, seat requests, ledger
        self.ranking = self.kind.new_ranking(self.rng)
        self.chips_in = 0  # every chip that entered the table (sits, bots, new entries)
        self.chips_out = 0  # every chip that left with a player
        self._running_since: float | None = None
        self._running_total = 0.0
        self.expiry_reason = "limit"
        self._pending: deque[Callable[[], None]] = deque()
        self._told: deque[Callable[[], None]] = deque()  # commands told, not yet handled
        self._busy = False
        self._holding: PendingReply | None = None  # the command being handled's answer
        self._holding_for: str | None = None  # and whose command it is
        self.closed_stacks: dict[str, int] = {}
        self.departed_names: dict[str, str] = {}
        self.recent_pots: deque[int] = deque(maxlen=AVG_POT_HANDS)  # the lobby's "Pote médio"
        if not config.has_host:
            self.start_running()  # nobody is there to start it: it runs at once
        if restore is not None:
            reopen(self, restore)

    # --- properties ------------------------------------------------------------------------
    @property
    def running_seconds(self) -> float:
        """Unpaused play time: what minute-based blinds and time limits count."""
        extra = 0.0 if self._running_since is None else self.clock.now() - self._running_since
        return self._running_total + extra

    @property
    def is_open(self) -> bool:
        return is_open(self.status)

    @property
    def avg_pot(self) -> int | None:
        """The mean total pot of the last AVG_POT_HANDS finished hands; None before any."""
        if not self.recent_pots:
            return None
        return round(sum(self.recent_pots) / len(self.recent_pots))

    # --- entry points ----------------------------------------------------------------------
    def submit(self, command: c.Command) -> Reply:
        """Apply one command and everything that follows from it (bot moves at zero delay).
        A command whose answer waits for a durable write still in flight (``submit_pending``)
        is answered here with the handler's provisional reply."""
        reply, pending = self.submit_pending(command)
        if pending is not None and pending.reply is not None:
            return pending.reply
        return reply

    def submit_pending(self, command: c.Command) -> tuple[Reply, PendingReply | None]:
        """``submit``, and the ``PendingReply`` when the answer waits for a write the command
        handed to a worker thread (``hold_reply``); it may already be known."""
        handler = _DISPATCH[type(command)]
        outer = self._holding, self._holding_for
        pending = self._holding = PendingReply(Reply.accepted())
        self._holding_for = getattr(command, "player_id", None)
        try:
            reply: Reply = self._guarded(lambda: handler(self, command))
        except Refusal as refusal:
            return refusal.reply, None
        finally:
            self._holding, self._holding_for = outer
        if not pending.held:
            return reply, None
        pending.seal(reply)
        return reply, pending

    def hold_reply(self, player_id: str | None = None) -> ReplyHold | None:
        """Hold the answer of the command being handled until the returned hold is released
        (a write in flight, ``ahiko.rooms.pending``); None outside a command (a timer), or
        when ``player_id`` is given and the command is not that player's (another player's
        action that ended a hand answers at once)."""
        if self._holding is None or (player_id is not None and player_id != self._holding_for):
            return None
        return self._holding.hold()

    def fire(self, job: Callable[[], None]) -> None:
        """Run a timer's job, then whatever it set in motion. Commands told before it fell
        due are handled first (``tell``)."""
        if self.stopped:  # a bot's answer, or a timer, of a run that is over
            return
        self._handle_told()
        self._guarded(job)

    def tell(self, job: Callable[[], None]) -> None:
        """Handle a command told (not asked, ``RoomActor.tell``) on this thread soon, and
        before any timer of this room that fires after now, even one due at this instant: a
        move out told when another table's hand ended is handled before this table's
        cards come, not after (the tournament chose the player from what it knew then)."""
        self._told.append(job)
        self.clock.call_later(0, self._handle_told)

    def _handle_told(self) -> None:
        while self._told:
            self._told.popleft()()

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

    def move_to(self, status: RoomStatus) -> None:
        """The only writer of ``status``: the move must be in ``status.MOVES``."""
        check_move(self.status, status)
        self.status = status

    def _emit_countdowns(self) -> None:
        countdowns = self.timers.countdowns()
        self.broadcast.emit("countdown", lambda _seat: {"countdowns": countdowns}, public=True)

    # --- frames ----------------------------------------------------------------------------
    def summary(self) -> ft.RoomSummary:
        """The public description of the room (lobby and ``room`` frames)."""
        return room_summary(self)

    def lobby_entry(self) -> dict[str, Any]:
        """The room as its kind's lobby lists it (the hooks add what the kind shows)."""
        return self.hooks.lobby_entry(self.view, room_summary(self, with_seats=False))

    def emit_room(self) -> None:
        summary = self.summary()
        self.broadcast.emit("room", lambda _seat: {"room": summary}, public=True)
        self.hooks.on_seats_changed(self.view)

    # --- running, limits, closing (``ending``) -----------------------------------------------
    def start_running(self) -> None:
        self.move_to(RoomStatus.RUNNING)
        self._running_since = self.clock.now()
        if self.config.limit_minutes is not None:
            left = self.config.limit_minutes * 60 - self._running_total
            self.timers.set(TimerName.EXPIRY, left, self.expire)

    def stop_running(self) -> None:
        if self._running_since is not None:
            self._running_total += self.clock.now() - self._running_since
            self._running_since = None

    def limit_reached(self) -> bool:
        hands = self.config.limit_hands
        minutes = self.config.limit_minutes
        return (hands is not None and self.dealer.hands_dealt >= hands) or (
            minutes is not None and self.running_seconds >= minutes * 60
        )

    def expire(self, reason: str = "limit") -> None:
        ending.expire(self, reason)

    def tournament_over(self) -> bool:
        return self.kind.game_over(self)

    def finish(self) -> None:
        """The tournament is decided: no more hands; the winner keeps the chips on show."""
        self.stop_running()
        self.timers.cancel_all()
        self.move_to(RoomStatus.FINISHED)

    def close(self, reason: str) -> None:
        ending.close(self, reason)

    def run_again(self) -> None:
        """The end of a pause: play time counts again."""
        self.move_to(RoomStatus.RUNNING)
        self._running_since = self.clock.now()

    # --- people and bots --------------------------------------------------------------------
    def seat_occupant(self, seat: int, occupant: Occupant) -> bool:
        hand_running = self.dealer.hand is not None
        bot = self.seats.get(seat)
        may_take = self.kind.may_take_bot_place
        try:
            reserved = self.seats.sit(
                seat, occupant, hand_running=hand_running, may_take_bot_place=may_take
            )
        except SeatError as exc:
            raise Refusal("seat", exc.message, exc.rule) from None
        self.chips_in += occupant.stack
        if bot is not None and self.seats.get(seat) is occupant:
            self.player_left(bot)  # a person took a bot's place between hands: its chips go
        self.host_desk.ledger.sat(
            occupant.player_id,
            occupant.name,
            occupant.is_bot,
            occupant.stack,
            self.dealer.next_hand_no,
        )
        return reserved

    def player_left(self, occupant: Occupant) -> None:
        self.chips_out += occupant.stack
        self.host_desk.ledger.left(
            occupant.player_id,
            occupant.name,
            occupant.is_bot,
            occupant.stack,
            self.dealer.next_hand_no,
        )
        self.departed_names[occupant.player_id] = occupant.name
        self.bots.drop(occupant.player_id)
        self.timers.cancel(sit_out(occupant.player_id))
        self.timers.cancel(absence(occupant.player_id))  # every way out of a seat ends here
        self.hooks.on_player_left(self.view, occupant)
        self.later(self.waitlist.offer_next)  # a seat may have come free


def open_room(room_id: str, config: RoomConfig, **options: Any) -> Room:
    """A new room (the registry's way to make one; ``Room``'s arguments)."""
    return Room(room_id, config, **options)


def _sit(room: Room, cmd: c.Sit) -> Reply:
    asked = ask_to_sit(room, cmd)
    return asked or seat_person(room, cmd.player_id, cmd.name, cmd.seat)


#: The table's commands (``handlers``) and the house's, which are handed the ``Room``.
_DISPATCH: dict[type, Callable[[Room, Any], Reply]] = {
    **HANDLERS,
    c.Sit: _sit,
    c.BuyIn: house_commands.buy_in,
    c.Reload: house_commands.reload,
    c.LeaveAfterHand: house_commands.leave_after_hand,
    **HOST_HANDLERS,  # a home game's host
}
