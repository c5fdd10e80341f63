"""Wire schemas of the table WebSocket (``/ws/rooms/{room_id}``), documented in
``docs/protocol.md``.

Every frame is a JSON object ``{"t": type, ...}``. Client frames carry an ``id`` echoed by
the ``ack`` or ``error`` that answers them. Server frames carry ``seq``: numbered room events
(``room``, ``commitment``, ``fair_mix``, ``hand``, ``countdown``, ``hand_cancelled``,
``tournament_over``, ``closed``)
raise it by one; ``snapshot``, ``ack`` and ``error`` repeat the latest number.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Annotated, Any, Literal

import orjson
from annotated_types import Gt
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.cards import CardError, parse_card
from ahiko.rooms.frame_types import Envelope, RoomOutFrame

# --- client -> server -----------------------------------------------------------------------


class _ClientFrame(BaseModel):
    # strict: "150", 150.0 and true are not amounts or seats (nor hand numbers, nor flags)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    id: Annotated[str, Field(min_length=1, max_length=64)]


class ActFrame(_ClientFrame):
    """A decision at the table. ``amount`` is the street total for bet/raise ("raise to");
    ``cards`` the discards of a draw (0-3 cards, e.g. ["Ah", "7c"])."""

    t: Literal["act"]
    hand_no: Annotated[int, Field(ge=1)]
    action: Annotated[ActionKind, Field(strict=False)]  # the kind's name, as JSON has no enum
    amount: Annotated[int, Field(ge=0)] = 0
    cards: Annotated[list[str], Field(default_factory=list, max_length=5)]
    seat: Annotated[int, Field(ge=0, le=8)] | None = None

    def to_action(self) -> Action:
        """The engine's action; raises ValueError on a card that is not one."""
        try:
            cards = tuple(parse_card(text) for text in self.cards)
        except CardError as exc:
            raise ValueError(str(exc)) from None
        return Action(self.action, self.amount, cards)


class SitFrame(_ClientFrame):
    t: Literal["sit"]
    seat: Annotated[int, Field(ge=0, le=8)]


class LeaveFrame(_ClientFrame):
    t: Literal["leave"]


class ShowFrame(_ClientFrame):
    t: Literal["show"]
    hand_no: Annotated[int, Field(ge=1)]


HEX32 = r"^[0-9a-f]{64}$"


class FairCommitFrame(_ClientFrame):
    """pokerfair/2: the commitment to this browser's 32-byte secret for hand ``hand_no`` (the
    next hand to begin), as 64 lowercase hex digits (docs/fairness.md)."""

    t: Literal["fair_commit"]
    hand_no: Annotated[int, Field(ge=1)]
    commitment: Annotated[str, Field(pattern=HEX32)]


class FairRevealFrame(_ClientFrame):
    """pokerfair/2: the secret itself, after the hand's ``commitment`` frame and before its
    cards; the ``ack`` carries the server's signed ``receipt``."""

    t: Literal["fair_reveal"]
    hand_no: Annotated[int, Field(ge=1)]
    secret: Annotated[str, Field(pattern=HEX32)]


class NewEntryFrame(_ClientFrame):
    t: Literal["new_entry"]


class BuyInFrame(_ClientFrame):
    """Ahiko rooms: sit (or reserve during a hand) with ``amount`` coins the player confirmed;
    ``key`` makes a retry harmless (R-RM-12)."""

    t: Literal["buy_in"]
    seat: Annotated[int, Field(ge=0, le=8)]
    amount: Annotated[int, Field(ge=1)]
    key: Annotated[str, Field(min_length=1, max_length=64)]


class ReloadFrame(_ClientFrame):
    """Ahiko rooms: more coins to the stack, between hands (R-RM-13)."""

    t: Literal["reload"]
    amount: Annotated[int, Field(ge=1)]
    key: Annotated[str, Field(min_length=1, max_length=64)]


class LeaveAfterHandFrame(_ClientFrame):
    """ "Sair após esta mão" (R-RM-14); ``on`` false takes it back."""

    t: Literal["leave_after_hand"]
    on: bool = True


class SitOutFrame(_ClientFrame):
    """ "Ficar fora nas próximas mãos" (``on``), or come back (``on`` false)."""

    t: Literal["sit_out"]
    on: bool = True


class WaitListFrame(_ClientFrame):
    """Join (``on``) or leave a full recreational room's waiting list."""

    t: Literal["wait_list"]
    on: bool = True


class TimeBankFrame(_ClientFrame):
    """Start your time bank now, during your turn."""

    t: Literal["time_bank"]


class ChatFrame(_ClientFrame):
    """A line of table chat: ``text`` (plain, one line, 1-200 characters), or ``preset``, a
    quick-chat or emote id (``ahiko.rooms.chat.PRESETS``/``EMOTES``) instead."""

    t: Literal["chat"]
    text: Annotated[str, Field(max_length=200)] = ""
    preset: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class ChatMuteFrame(_ClientFrame):
    """Hide (``on``) or show again ``player_id``'s chat, for this player only."""

    t: Literal["chat_mute"]
    player_id: Annotated[str, Field(min_length=1, max_length=64)]
    on: bool = True


class ChatReportFrame(_ClientFrame):
    """Report message ``no`` to the operator, with an optional ``reason``."""

    t: Literal["chat_report"]
    no: Annotated[int, Field(ge=1)]
    reason: Annotated[str, Field(max_length=200)] = ""


class ChatSettingFrame(_ClientFrame):
    """The host: chat for ``everyone`` (spectators too), ``seated`` players, or ``off``."""

    t: Literal["chat_setting"]
    mode: Literal["everyone", "seated", "off"]


class SnapshotFrame(_ClientFrame):
    t: Literal["snapshot"]


class HostFrame(_ClientFrame):
    """The host's "Sala" menu; ``end_game`` closes a home game with its ledger final."""

    t: Literal["start", "pause", "resume", "close", "end_game"]


Chips = Annotated[int, Field(ge=0, le=10_000_000)]


class HostChangeFrame(_ClientFrame):
    """The host of a home game: settings for the next hand (only those given change)."""

    t: Literal["host_change"]
    small_blind: Chips | None = None
    big_blind: Chips | None = None
    ante: Chips | None = None
    action_deadline_s: Annotated[float, Field(gt=0, le=600, strict=False)] | None = None
    no_deadline: bool = False
    starting_chips: Chips | None = None
    max_rebuys: Annotated[int, Field(ge=0, le=1000)] | None = None
    no_rebuy_limit: bool = False
    options: dict[str, Any] | None = None  # hand options by name (``rooms.hand_options``)


class HostChipsFrame(_ClientFrame):
    """The host adds (``amount`` > 0) or removes chips from the stack at ``seat``."""

    t: Literal["host_chips"]
    seat: Annotated[int, Field(ge=0, le=8)]
    amount: Annotated[int, Field(ge=-10_000_000, le=10_000_000)]


class ApprovePlayersFrame(_ClientFrame):
    t: Literal["approve_players"]
    on: bool


class SeatAnswerFrame(_ClientFrame):
    """The host seats (``approve``) or turns away ``player_id``, who asked for a seat."""

    t: Literal["seat_answer"]
    player_id: Annotated[str, Field(min_length=1, max_length=64)]
    approve: bool


class HostSeatFrame(_ClientFrame):
    """The host removes the player at ``seat``, or hands them the host role."""

    t: Literal["remove_player", "hand_over_host"]
    seat: Annotated[int, Field(ge=0, le=8)]


class BombPotFrame(_ClientFrame):
    """The host's "Bomb pot": the next hand of a home game is a bomb pot."""

    t: Literal["bomb_pot"]


class ChooseRunsFrame(_ClientFrame):
    """An all-in player's answer to running it twice: 2 (twice) or 1 (once)."""

    t: Literal["choose_runs"]
    runs: Literal[1, 2]


class StraddleFrame(_ClientFrame):
    """The straddler seat's answer before the cards: post the straddle (``take``) or not."""

    t: Literal["straddle"]
    take: bool


class AddBotFrame(_ClientFrame):
    t: Literal["add_bot"]
    level: Literal["random", "easy", "normal", "hard"] = "easy"
    seat: Annotated[int, Field(ge=0, le=8)] | None = None


class RemoveBotFrame(_ClientFrame):
    t: Literal["remove_bot"]
    seat: Annotated[int, Field(ge=0, le=8)]


ClientFrame = Annotated[
    ActFrame
    | SitFrame
    | LeaveFrame
    | ShowFrame
    | FairCommitFrame
    | FairRevealFrame
    | NewEntryFrame
    | SnapshotFrame
    | HostFrame
    | AddBotFrame
    | RemoveBotFrame
    | BuyInFrame
    | ReloadFrame
    | LeaveAfterHandFrame
    | SitOutFrame
    | WaitListFrame
    | TimeBankFrame
    | ChatFrame
    | ChatMuteFrame
    | ChatReportFrame
    | ChatSettingFrame
    | HostChangeFrame
    | HostChipsFrame
    | ApprovePlayersFrame
    | SeatAnswerFrame
    | HostSeatFrame
    | BombPotFrame
    | ChooseRunsFrame
    | StraddleFrame,
    Field(discriminator="t"),
]
CLIENT_FRAME: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)

# --- server -> client -----------------------------------------------------------------------
# The room's frames are typed beside their builders (``ahiko.rooms.frame_types``); the schema
# below is derived from those types, with the gateway's own answers added. The gateway checks
# every frame it sends against it in tests and debug runs (``AHIKO_VALIDATE_FRAMES``).


class _ServerFrame(BaseModel):
    model_config = ConfigDict(extra="allow")
    seq: Annotated[int, Field(ge=0)]
    # The room's run (``ahiko.rooms.outbox.new_epoch``): every frame of a room carries it;
    # null only in the gateway's answer when there is no room.
    epoch: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class Ack(_ServerFrame):
    t: Literal["ack"] = "ack"
    id: str
    data: dict[str, Any] = {}


class ErrorFrame(_ServerFrame):
    """``code`` says what was wrong (malformed, stale_hand, out_of_turn, not_your_seat,
    illegal_action, ...), ``rule`` the SPEC rule when one applies; ``message`` is for people
    (no player, room or rule ids) and clients may show their own text for a known code."""

    t: Literal["error"] = "error"
    id: str | None = None
    code: str
    rule: str | None = None
    message: str


class PingFrame(Envelope):
    """A heartbeat (``ahiko.server.heartbeat``), to a socket that asked for them: the node is
    alive; ``every`` seconds until the next."""

    t: Literal["ping"]
    every: Annotated[float, Gt(0)]


class OwnerFrame(TypedDict):
    """A cluster node that does not own the table, to a socket that can follow a route: the
    owner's route, then the socket closes (``WS_OWNER_ROUTE``). No ``seq``: no room here."""

    t: Literal["owner"]
    room_id: str
    route: str


ServerFrame = Annotated[
    Ack | ErrorFrame | PingFrame | OwnerFrame | RoomOutFrame,
    Field(discriminator="t"),
]
SERVER_FRAME: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)

# --- checking what goes out ------------------------------------------------------------------

#: ``AHIKO_VALIDATE_FRAMES=1``: the gateway checks every frame it sends against
#: ``SERVER_FRAME`` and refuses to send one its types do not describe. The test suite turns it
#: on (``tests/conftest.py``), as may a developer's server; a site leaves it off: checking a
#: hand frame costs more than encoding it, once per frame on the hot path.
VALIDATE_FRAMES_ENV = "AHIKO_VALIDATE_FRAMES"

log = logging.getLogger(__name__)


def frames_checked() -> bool:
    """Whether outbound frames are checked (read when a socket opens)."""
    return os.environ.get(VALIDATE_FRAMES_ENV, "") == "1"


class OutboundFrameError(RuntimeError):
    """The server built a frame its outbound types do not describe: a builder and its type
    (``ahiko.rooms.frame_types``) disagree."""


def check_outbound(frame: Mapping[str, Any] | bytes) -> None:
    """Raise ``OutboundFrameError`` (and log it) unless ``frame`` keeps ``SERVER_FRAME``;
    ``bytes`` are the frame's JSON as the socket carries it."""
    try:
        if isinstance(frame, bytes):
            SERVER_FRAME.validate_json(frame)
        else:
            SERVER_FRAME.validate_python(frame)
    except ValidationError as exc:
        kind = _kind_of(frame)
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:5]
        )
        log.error("outbound %s frame does not keep its type: %s", kind, problems)
        raise OutboundFrameError(f"a {kind!r} frame does not keep its type: {problems}") from exc


def _kind_of(frame: Mapping[str, Any] | bytes) -> str:
    if isinstance(frame, bytes):
        try:
            decoded = orjson.loads(frame)
        except orjson.JSONDecodeError:
            return "unreadable"
        return str(decoded.get("t")) if isinstance(decoded, dict) else "unreadable"
    return str(frame.get("t"))
