"""Table chat: who may talk, the rate limit, presets and emotes, mutes, reports, and the
last messages shown to whoever joins.

Seated players talk; spectators too when the host allows it (``ChatMode.EVERYONE``); the host
may turn chat off (``OFF``). Ahiko rooms have no host: chat is on for seated players, fixed.
Bots never chat. A message is plain text (``ahiko.rooms.chat_words``) or a preset/emote id
from ``PRESETS``/``EMOTES``, which say nothing about a hand. Chat frames are built only from
the message, its author and their seat, never from a hand: no card can travel in one. The
dealer's lines (actions, results) are the hand frames' history, apart from chat. While a hand
runs, a line from a player dealt into it that names a card (``chat_cards``: a rank and a suit,
in letters, words or glyphs) is held back, its writer told why; the same line is taken once
the hand is over. Each viewer's own mutes (``Moderation.mutes_of``) are applied to their
frames only.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from sqlalchemy.exc import OperationalError

from ahiko.rooms import commands as c
from ahiko.rooms.chat_cards import names_a_card
from ahiko.rooms.chat_words import ChatTextError, clean_text, mask_cards
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.frame_types import ChatKind, ChatLine, ChatState
from ahiko.rooms.moderation import ChatRecord, Moderation, until_text
from ahiko.store.writer import Outcome

if TYPE_CHECKING:
    from ahiko.rooms.broadcast import Told
    from ahiko.rooms.clock import Clock
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.frame_types import UnnumberedKind
    from ahiko.rooms.pending import ReplyHold
    from ahiko.rooms.ports import CurrentHand
    from ahiko.rooms.seats import Seats


class ChatOut(Protocol):
    """The broadcaster, as chat lines go out (not numbered: stamped with the last frame)."""

    @property
    def seq(self) -> int: ...
    def tell_watchers(
        self, kind: UnnumberedKind, payload: Told, to: Callable[[str | None], bool]
    ) -> None: ...


class ChatTable(Protocol):
    """What the table chat is handed: who sits where, the clock, the broadcaster, whether a
    hand is in play, and the room's reply hold and jobs (a report's write in flight)."""

    @property
    def room_id(self) -> str: ...
    @property
    def host_id(self) -> str | None: ...
    @property
    def config(self) -> RoomConfig: ...
    @property
    def clock(self) -> Clock: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def broadcast(self) -> ChatOut: ...
    @property
    def dealer(self) -> CurrentHand: ...
    def hold_reply(self, player_id: str | None = None) -> ReplyHold | None: ...
    def fire(self, job: Callable[[], None]) -> None: ...
    def emit_room(self) -> None: ...


log = logging.getLogger(__name__)

CHAT_RATE_MESSAGES = 5  # at most this many messages ...
CHAT_RATE_WINDOW_S = 10.0  # ... in this many seconds, per player
CHAT_BACKLOG = 30  # the last messages a joining viewer gets
CHAT_BACKLOG_S = 30 * 60.0  # ... if they are younger than this
REPORT_REASON_MAX = 200

# Quick chat: short and about manners only, never about a hand in progress.
PRESETS = ("gg", "nice_hand", "good_luck", "thanks", "well_played", "sorry", "brb", "back")
EMOTES = ("smile", "laugh", "cool", "wow", "sad", "clap")


class ChatMode(StrEnum):
    EVERYONE = "everyone"  # seated players and signed-in spectators
    SEATED = "seated"  # seated players only (the default; Ahiko rooms always)
    OFF = "off"  # nobody


class TableChat:
    def __init__(self, room: ChatTable, moderation: Moderation | None = None) -> None:
        self._room = room
        self.moderation = moderation or Moderation()
        self.mode = ChatMode.SEATED
        self._no = 0
        # (when, the room's last frame number then, the message)
        self._backlog: deque[tuple[float, int, ChatLine]] = deque(maxlen=CHAT_BACKLOG)
        self._recent: dict[int, ChatRecord] = {}  # msg_no -> record, for reports
        self._sent: dict[str, deque[float]] = {}  # player -> times of their last messages
        self.names: dict[str, str] = {}  # authors seen in this room

    # --- commands ----------------------------------------------------------------------------
    def say(self, cmd: c.Chat) -> Reply:
        room = self._room
        seat = self._speaker_seat(cmd.player_id)
        if cmd.preset is not None:
            if cmd.text:
                raise Refusal("chat_malformed", "send a text or a preset, not both")
            kind: ChatKind = "emote" if cmd.preset in EMOTES else "preset"
            if cmd.preset not in PRESETS and cmd.preset not in EMOTES:
                raise Refusal("chat_unknown_preset", "there is no such quick-chat message")
            text = cmd.preset
        else:
            kind = "text"
            try:
                text = clean_text(cmd.text)
            except ChatTextError as exc:
                raise Refusal(exc.code, exc.message) from None
            if self._dealt_in_running_hand(seat) and names_a_card(cmd.text):
                raise Refusal(
                    "chat_names_card",
                    "a message that names a card waits until the hand is over: it was not sent",
                )
            text = mask_cards(self.moderation.words.apply(text))
        self._take_rate(cmd.player_id)
        self._no += 1
        now_ms = room.clock.wall_ms()
        name = self._name_of(cmd.player_id, cmd.name)
        self.names[cmd.player_id] = name
        message: ChatLine = {
            "no": self._no,
            "at_ms": now_ms,
            "player_id": cmd.player_id,
            "name": name,
            "seat": seat,
            "kind": kind,
            "text": text,
        }
        record = ChatRecord(room.room_id, self._no, cmd.player_id, name, kind, text, now_ms)
        self._recent[self._no] = record
        while len(self._recent) > CHAT_BACKLOG * 4:
            del self._recent[min(self._recent)]
        self._backlog.append((room.clock.now(), room.broadcast.seq, message))
        self.moderation.keep(record)
        sender, mutes_of = cmd.player_id, self.moderation.mutes_of
        room.broadcast.tell_watchers(
            "chat", {"msg": message}, lambda player_id: sender not in mutes_of(player_id)
        )
        return Reply.accepted(no=self._no, text=text)

    def mute(self, cmd: c.ChatMute) -> Reply:
        if cmd.target_id == cmd.player_id:
            raise Refusal("chat_mute_self", "you cannot mute yourself")
        if cmd.on and not self._known(cmd.target_id):
            raise Refusal("chat_unknown_player", "there is no such player at this table")
        self.moderation.set_mute(cmd.player_id, cmd.target_id, cmd.on)
        return Reply.accepted(muted=sorted(self.moderation.mutes_of(cmd.player_id)))

    def report(self, cmd: c.ChatReport) -> Reply:
        record = self._recent.get(cmd.msg_no)
        if record is None:
            raise Refusal("chat_unknown_message", "that message is not at this table any more")
        if record.player_id == cmd.player_id:
            raise Refusal("chat_report_self", "you cannot report your own message")
        try:
            reason = clean_text(cmd.reason) if cmd.reason else ""
        except ChatTextError as exc:
            raise Refusal(exc.code, exc.message) from None
        if len(reason) > REPORT_REASON_MAX:
            raise Refusal("chat_too_long", f"a reason is at most {REPORT_REASON_MAX} characters")
        room = self._room
        hold = room.hold_reply()

        def written(outcome: Outcome[bool]) -> None:
            if hold is not None:  # the answer is the write's (it ran off the loop)
                hold.release(_report_answer(cmd.msg_no, outcome))

        self.moderation.report(
            cmd.player_id, record, reason, lambda outcome: room.fire(lambda: written(outcome))
        )
        return Reply.accepted(no=cmd.msg_no, pending=True)

    def set_mode(self, cmd: c.ChatSetting) -> Reply:
        room = self._room
        if not room.config.has_host or cmd.player_id != room.host_id:
            raise Refusal("not_host", "only the host may change the chat setting")
        try:
            mode = ChatMode(cmd.mode)
        except ValueError:
            raise Refusal(
                "chat_malformed", "the chat is for everyone, seated players or off"
            ) from None
        self.mode = mode
        room.emit_room()
        return Reply.accepted(mode=mode.value)

    # --- frames ------------------------------------------------------------------------------
    def snapshot(self, player_id: str | None) -> ChatState:
        """The chat part of a viewer's snapshot: the setting, their mutes, the last messages
        (not older than CHAT_BACKLOG_S, without those of players they muted)."""
        muted = self.moderation.mutes_of(player_id)
        horizon = self._room.clock.now() - CHAT_BACKLOG_S
        return {
            "mode": self.mode.value,
            "muted": sorted(muted),
            "messages": [
                m.copy()
                for at, _seq, m in self._backlog
                if at >= horizon and m["player_id"] not in muted
            ],
        }

    def said_since(self, seq: int, player_id: str | None) -> list[ChatLine]:
        """The messages a viewer reconnecting after frame ``seq`` may have missed (chat
        lines are not numbered frames: those said while the room's last frame was ``seq``
        or later, which the client tells apart by their ``no``), without those of players
        they muted."""
        muted = self.moderation.mutes_of(player_id)
        return [
            m.copy()
            for _at, said_at, m in self._backlog
            if said_at >= seq and m["player_id"] not in muted
        ]

    # --- rules -------------------------------------------------------------------------------
    def _speaker_seat(self, player_id: str) -> int | None:
        room = self._room
        seat = room.seats.seat_of(player_id)
        occupant = room.seats.get(seat) if seat is not None else None
        if occupant is not None and occupant.player_id == player_id and occupant.is_bot:
            raise Refusal("chat_bot", "bots do not chat")
        if self.mode is ChatMode.OFF:
            raise Refusal("chat_off", "the chat is off at this table")
        until = self.moderation.muted_until(player_id, room.clock.wall_ms())
        if until is not False:
            ends = None if until is None or until is True else int(until)
            raise Refusal("chat_muted", f"an operator muted your chat {until_text(ends)}")
        if seat is None and self.mode is not ChatMode.EVERYONE:
            raise Refusal("chat_seated_only", "only seated players chat at this table")
        return seat

    def _dealt_in_running_hand(self, seat: int | None) -> bool:
        """Whether the speaker holds cards of a hand still being played (folded or not: a
        folded hand still tells the others something)."""
        hand = self._room.dealer.hand
        return (
            seat is not None
            and hand is not None
            and not hand.is_over
            and (seat in hand.dealt_seats)
        )

    def _take_rate(self, player_id: str) -> None:
        now = self._room.clock.now()
        times = self._sent.setdefault(player_id, deque())
        while times and now - times[0] >= CHAT_RATE_WINDOW_S:
            times.popleft()
        if len(times) >= CHAT_RATE_MESSAGES:
            wait = CHAT_RATE_WINDOW_S - (now - times[0])
            raise Refusal(
                "chat_rate_limited",
                f"at most {CHAT_RATE_MESSAGES} messages every {CHAT_RATE_WINDOW_S:g} seconds; "
                f"wait {wait:.0f} s",
            )
        times.append(now)

    def _name_of(self, player_id: str, fallback: str) -> str:
        seat = self._room.seats.seat_of(player_id)
        occupant = self._room.seats.get(seat) if seat is not None else None
        if occupant is not None and occupant.player_id == player_id:
            return occupant.name
        for person in self._room.seats.people():
            if person.player_id == player_id:
                return person.name
        return fallback

    def _known(self, player_id: str) -> bool:
        room = self._room
        return player_id in self.names or room.seats.seat_of(player_id) is not None


def _report_answer(msg_no: int, outcome: Outcome[bool]) -> Reply:
    """The answer to a report once its write came back: filed (or already filed by this
    reporter), or why it was not, with nothing filed."""
    if outcome.error is None:
        return Reply.accepted(no=msg_no, filed=bool(outcome.value))
    if isinstance(outcome.error, OperationalError):
        return Reply.refused(
            "storage_busy",
            "your report could not be written (the database is busy): nothing was filed; "
            "try again in a moment",
        )
    log.error("a chat report could not be written", exc_info=outcome.error)
    return Reply.refused("storage_error", "your report could not be written: nothing was filed")
