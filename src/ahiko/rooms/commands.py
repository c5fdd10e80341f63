"""What can be asked of a room, and its answer.

Commands come from the gateway (people), from bots, from the host menu ("Sala") and from the
house (the Ahiko lobby); each is answered with a ``Reply``: accepted, or refused with an
error code, the rule and a message. A refused command changes nothing. Commands are plain,
serialisable values: a connection is named by its id, never handed in as an object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ahiko.poker.actions import Action
from ahiko.rooms.frame_types import Moved
from ahiko.rooms.house.host_orders import HostOrder


@dataclass(frozen=True)
class Sit:
    player_id: str
    name: str
    seat: int


@dataclass(frozen=True)
class Leave:
    player_id: str


@dataclass(frozen=True)
class Act:
    player_id: str
    hand_no: int
    action: Action
    seat: int | None = None  # when given, must be the player's own seat


@dataclass(frozen=True)
class Show:
    """Voluntary show after an uncontested win (R-HE-12)."""

    player_id: str
    hand_no: int


@dataclass(frozen=True)
class FairCommit:
    """pokerfair/2: the commitment to a secret for the next hand (docs/fairness.md)."""

    player_id: str
    hand_no: int
    commitment: bytes


@dataclass(frozen=True)
class FairReveal:
    """pokerfair/2: the secret itself, while the hand's commitment is shown."""

    player_id: str
    hand_no: int
    secret: bytes


@dataclass(frozen=True)
class NewEntry:
    player_id: str  # R-RM-06


@dataclass(frozen=True)
class Start:
    """The host starts the game (R-RM-03); with no player, the house starts a tournament it
    runs itself (a sit & go), which has no host."""

    player_id: str | None


@dataclass(frozen=True)
class Pause:
    player_id: str


@dataclass(frozen=True)
class Resume:
    player_id: str


@dataclass(frozen=True)
class AddBot:
    player_id: str
    level: str = "easy"
    seat: int | None = None


@dataclass(frozen=True)
class RemoveBot:
    player_id: str
    seat: int


@dataclass(frozen=True)
class Close:
    """The host's "close" (R-RM-08); with no player, the house closing a room it does not
    need (the Ahiko lobby's surplus rule, R-RM-10)."""

    player_id: str | None
    reason: str = "host"


@dataclass(frozen=True)
class Announce:
    """An operator's notice to everyone watching the room (players and spectators), shown as
    it was written: a ``notice`` frame, not a numbered room event."""

    text: str


@dataclass(frozen=True)
class MoveIn:
    """The house seats a player of a multi-table tournament at this table with ``stack``
    chips: at the start, or moved from another table (during a hand: the seat is
    reserved and they play from the next one, R-RM-16). A player moved from another table
    ``waits_for_big_blind``: not dealt in until the hand whose big blind is their seat."""

    player_id: str
    name: str
    seat: int
    stack: int
    waits_for_big_blind: bool = False


@dataclass(frozen=True)
class MoveOut:
    """The house takes a player of a multi-table tournament away from this table with their
    chips, to another table: now between hands, after the hand if they are in one. Not an
    elimination; ``on_player_left`` tells the house when they are up."""

    player_id: str


@dataclass(frozen=True)
class Wake:
    """The house lets a table of a multi-table tournament that held its next hand
    (hand-for-hand on the bubble, ``RoomHooks.hold_deal``) deal it now."""


@dataclass(frozen=True)
class TellMoved:
    """The house tells a player of a multi-table tournament, on this table's connections of
    theirs, that they sit elsewhere now (a ``moved`` frame, ``where`` its body): their move
    here waited for a seat and went to another table instead."""

    player_id: str
    where: Moved


@dataclass(frozen=True)
class BuyIn:
    """Sit (or reserve, during a hand) in an Ahiko room with ``amount`` coins from the wallet,
    confirmed by the player (R-RM-12). ``key`` is the client's idempotency key."""

    player_id: str
    name: str
    seat: int
    amount: int
    key: str


@dataclass(frozen=True)
class Reload:
    """More coins from the wallet to the stack, between hands (R-RM-13)."""

    player_id: str
    amount: int
    key: str


@dataclass(frozen=True)
class LeaveAfterHand:
    """ "Sair após esta mão" (R-RM-14): ``on`` False takes the decision back."""

    player_id: str
    on: bool = True


@dataclass(frozen=True)
class SitOut:
    """ "Ficar fora nas próximas mãos" (``on``), or come back (``on`` False)."""

    player_id: str
    on: bool = True


@dataclass(frozen=True)
class WaitList:
    """Join (``on``) or leave a full recreational room's waiting list."""

    player_id: str
    on: bool = True


@dataclass(frozen=True)
class UseTimeBank:
    """Start one's time bank now, during one's turn."""

    player_id: str


@dataclass(frozen=True)
class ChooseRuns:
    """An all-in player's answer to running it twice: 2 (twice) or 1 (once)."""

    player_id: str
    runs: int


@dataclass(frozen=True)
class TakeStraddle:
    """The straddler seat's answer, before the cards: post the straddle (``take``) or not."""

    player_id: str
    take: bool


@dataclass(frozen=True)
class Chat:
    """A line of table chat: ``text``, or a quick-chat ``preset`` / emote id instead."""

    player_id: str
    name: str
    text: str = ""
    preset: str | None = None


@dataclass(frozen=True)
class ChatMute:
    """Hide (``on``) or show again one player's chat, for the muting player only."""

    player_id: str
    target_id: str
    on: bool = True


@dataclass(frozen=True)
class ChatReport:
    """Report message ``msg_no`` of this room to the operator."""

    player_id: str
    msg_no: int
    reason: str = ""


@dataclass(frozen=True)
class ChatSetting:
    """The host's chat setting: ``everyone``, ``seated`` or ``off``."""

    player_id: str
    mode: str


@dataclass(frozen=True)
class Connect:
    """A connection subscribes to the room's frames. ``since`` and ``epoch``: the number and
    the run of the last frame a reconnecting client got; it is sent what it missed, or a
    snapshot when the gap is too old (``ahiko.rooms.outbox.FrameBuffer``) or the frame was
    of another run (``ahiko.rooms.outbox.new_epoch``)."""

    connection_id: str
    player_id: str | None  # the account behind it, or None for an anonymous spectator
    since: int | None = None
    epoch: str | None = None


@dataclass(frozen=True)
class Disconnect:
    connection_id: str


@dataclass(frozen=True)
class SnapshotRequest:
    connection_id: str


Command = (
    Sit
    | Leave
    | Act
    | Show
    | FairCommit
    | FairReveal
    | NewEntry
    | Start
    | Pause
    | Resume
    | AddBot
    | RemoveBot
    | Close
    | Announce
    | MoveIn
    | MoveOut
    | Wake
    | TellMoved
    | BuyIn
    | Reload
    | LeaveAfterHand
    | SitOut
    | WaitList
    | UseTimeBank
    | ChooseRuns
    | TakeStraddle
    | Chat
    | ChatMute
    | ChatReport
    | ChatSetting
    | Connect
    | Disconnect
    | SnapshotRequest
    | HostOrder  # a home game's host
)


NOT_SEATED = "you have no seat in this room"


@dataclass(frozen=True)
class Reply:
    """A room's answer to one command. ``seq`` is the number of the room's last frame once
    the command was applied and ``epoch`` the room's run (both stamped by the actor): frames
    of that run up to ``seq`` reflect the command."""

    ok: bool
    code: str = ""  # machine-readable reason when refused
    rule: str | None = None  # the SPEC rule that refuses it, if any
    message: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    epoch: str = ""

    @classmethod
    def accepted(cls, **data: Any) -> Reply:
        return cls(True, data=data)

    @classmethod
    def refused(cls, code: str, message: str, rule: str | None = None) -> Reply:
        return cls(False, code, rule, message)


class Refusal(Exception):
    """Raised inside the room to refuse a command before anything changed.

    The message is read by people (the client shows it when it has no text of its own for
    the code): it never carries player ids, room ids or rule ids; the rule travels in its
    own field."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.reply = Reply.refused(code, message, rule)


@dataclass(frozen=True)
class Refused:
    """A refusal written once in a table (``ahiko.rooms.status``, ``ahiko.rooms.hand_phase``):
    its code, its rule and its message, whose ``{fields}`` the refusing room fills in (the
    room's ``status``, the ``hand_no`` asked about)."""

    code: str
    message: str
    rule: str | None = None

    def refusal(self, **facts: object) -> Refusal:
        return Refusal(self.code, self.message.format(**facts), self.rule)
