"""The frames a room sends, as types: each frame's body (what its builder returns: the
payload ``Frame(kind, seq, body, epoch)`` wraps) and the whole frame on the wire, with its
``t`` tag, ``seq`` and ``epoch``.

The builders live beside these types (``ahiko.rooms.frames`` and the parts that emit their
own frames), so a field added to a frame is added to its type in the same change, and mypy
holds every builder to it. The server derives its outbound schema from the ``...Frame``
types (``ahiko.server.protocol.SERVER_FRAME``) and, in tests and debug runs, checks every
frame it sends against it: one description of the wire, read by the type checker, by the
gateway and by ``docs/protocol.md``'s test.

Plain ``TypedDict``s, so a builder still makes an ordinary dict (nothing is converted on the
hot path). The constraints are ``annotated_types``' (which pydantic reads), not a
framework's. Parts made by the engine or the fair deal (a table view, a history entry, an
opening) name only the fields the schema checks (cards, which travel as text); their other
fields pass as they are.
"""

from typing import Annotated, Any, Literal, NotRequired, Required

from annotated_types import Ge, Le, Len
from typing_extensions import TypedDict

from ahiko.rooms.frame_parts import (
    AutoAction,
    CardText,
    ChatKind,
    ChatLine,
    ChatState,
    Deadline,
    Envelope,
    Epoch,
    HandState,
    HistoryEntry,
    HostDeskSummary,
    Opening,
    PendingChips,
    ReservedSeat,
    ResultRow,
    RoomSummary,
    RoomSummaryParts,
    SeatEntry,
    SeatRequestEntry,
    Seq,
    TableView,
    TournamentPart,
    ViewSeat,
    WaitListSummary,
    WaitOffer,
    You,
    is_card_text,
)

# --- the bodies the room's builders return, one per frame type ---------------------------------


class Snapshot(TypedDict):
    you: You
    room: RoomSummary
    hand: HandState | None
    last_hand: HandState | None
    chat: ChatState
    results: NotRequired[list[ResultRow]]


class RoomChanged(TypedDict):
    room: RoomSummary


class Commitment(TypedDict):
    hand_no: int
    commitment: dict[str, Any]  # ``ahiko.fairness.commitment.Commitment.to_json``
    cards_in_s: float
    stakes: dict[str, int]
    contributors: NotRequired[dict[str, Any]]  # pokerfair/2: the signed contributor set
    house: NotRequired[dict[str, int]]  # a home game's hand options in force, when one is on


class FairMix(TypedDict):
    hand_no: int
    reveals: list[list[Any]]  # [seat, "secret" | "fallback", hex]
    mix: str
    transcript: dict[str, str]


class HandUpdate(TypedDict):
    """One viewer's ``hand`` frame: the new public history entries, the table as that seat
    sees it, the openings that just became theirs."""

    hand_no: int
    events: list[HistoryEntry]
    view: TableView
    openings: list[Opening]
    deadline: Deadline | None
    names: dict[str, str]
    auto_action: AutoAction | None


class Countdowns(TypedDict):
    countdowns: dict[str, float]


class HandCancelled(TypedDict):
    hand_no: int
    rule: str
    reason: str


class TournamentOver(TypedDict):
    results: list[ResultRow]


class Closed(TypedDict):
    reason: str
    stacks: dict[str, int]


class TimeBankStarted(TypedDict):
    hand_no: int
    deadline: Deadline | None


class RunsAsked(TypedDict):
    hand_no: int
    seats: list[int]
    seconds: float


class StraddleOffer(TypedDict):
    hand_no: int
    seat: int
    amount: int
    seconds: float


class StraddleAnswer(TypedDict):
    hand_no: int
    seat: int
    take: bool


class HostAction(TypedDict, total=False):
    """What the host of a home game did; its details depend on ``action``."""

    action: Required[str]
    by: Required[str | None]
    hand_no: Required[int]
    change: dict[str, Any]
    seat: int | None
    name: str
    amount: int
    on: bool


class Wallet(TypedDict):
    """To one player: coins went back to their wallet, or will (``cash_out_delayed``)."""

    event: Literal["cash_out", "cash_out_delayed"]
    amount: NotRequired[int]
    participation_id: int
    message: NotRequired[str]


class Notice(TypedDict):
    """To one player (or, the operator's, to the whole room): something to know."""

    code: str
    rule: str | None
    message: str
    seat: NotRequired[int]  # a waiting list's seat offer
    seconds: NotRequired[float]


class Moved(TypedDict):
    """To one player of a multi-table tournament: where they sit now."""

    room_id: Annotated[str, Len(1, 64)]
    table: Annotated[int, Ge(1)]
    seat: Annotated[int, Ge(0), Le(9)]
    mtt: str


class ChatSaid(TypedDict):
    msg: ChatLine


# --- the whole frames, as the socket carries them ----------------------------------------------


class SnapshotFrame(Snapshot, Envelope):
    t: Literal["snapshot"]


class RoomFrame(RoomChanged, Envelope):
    t: Literal["room"]


class CommitmentFrame(Commitment, Envelope):
    t: Literal["commitment"]


class FairMixFrame(FairMix, Envelope):
    t: Literal["fair_mix"]


class HandFrame(HandUpdate, Envelope):
    t: Literal["hand"]


class CountdownFrame(Countdowns, Envelope):
    t: Literal["countdown"]


class HandCancelledFrame(HandCancelled, Envelope):
    t: Literal["hand_cancelled"]


class TournamentOverFrame(TournamentOver, Envelope):
    t: Literal["tournament_over"]


class ClosedFrame(Closed, Envelope):
    t: Literal["closed"]


class TimeBankFrame(TimeBankStarted, Envelope):
    t: Literal["time_bank"]


class RunsAskedFrame(RunsAsked, Envelope):
    t: Literal["runs_asked"]


class StraddleOfferFrame(StraddleOffer, Envelope):
    t: Literal["straddle_offer"]


class StraddleAnswerFrame(StraddleAnswer, Envelope):
    t: Literal["straddle_answer"]


class HostFrame(HostAction, Envelope):
    t: Literal["host"]


class WalletFrame(Wallet, Envelope):
    t: Literal["wallet"]


class NoticeFrame(Notice, Envelope):
    t: Literal["notice"]


class MovedFrame(Moved, Envelope):
    t: Literal["moved"]


class ChatFrame(ChatSaid, Envelope):
    t: Literal["chat"]


#: What a numbered room event's builder returns (``Broadcast.emit``).
NumberedBody = (
    RoomChanged
    | Commitment
    | FairMix
    | HandUpdate
    | Countdowns
    | HandCancelled
    | TournamentOver
    | Closed
    | TimeBankStarted
    | RunsAsked
    | StraddleOffer
    | StraddleAnswer
    | HostAction
)
#: What a frame for some connections only carries (``Broadcast.notify``, ``tell_watchers``).
UnnumberedBody = Wallet | Notice | Moved | ChatSaid

#: The numbered room events (``Broadcast.emit``): each raises ``seq`` by one.
NumberedKind = Literal[
    "room",
    "commitment",
    "fair_mix",
    "hand",
    "countdown",
    "hand_cancelled",
    "tournament_over",
    "closed",
    "time_bank",
    "runs_asked",
    "straddle_offer",
    "straddle_answer",
    "host",
]
#: Frames for some connections only, not numbered: they repeat the latest ``seq``.
UnnumberedKind = Literal["snapshot", "wallet", "notice", "moved", "chat"]

#: Every frame a room sends (the gateway adds its own: ``ahiko.server.protocol``).
RoomOutFrame = (
    SnapshotFrame
    | RoomFrame
    | CommitmentFrame
    | FairMixFrame
    | HandFrame
    | CountdownFrame
    | HandCancelledFrame
    | TournamentOverFrame
    | ClosedFrame
    | TimeBankFrame
    | RunsAskedFrame
    | StraddleOfferFrame
    | StraddleAnswerFrame
    | HostFrame
    | WalletFrame
    | NoticeFrame
    | MovedFrame
    | ChatFrame
)

# The parts are re-exported: the room's modules import every frame type from here.
__all__ = [
    "AutoAction",
    "CardText",
    "ChatFrame",
    "ChatKind",
    "ChatLine",
    "ChatSaid",
    "ChatState",
    "Closed",
    "ClosedFrame",
    "Commitment",
    "CommitmentFrame",
    "CountdownFrame",
    "Countdowns",
    "Deadline",
    "Envelope",
    "Epoch",
    "FairMix",
    "FairMixFrame",
    "HandCancelled",
    "HandCancelledFrame",
    "HandFrame",
    "HandState",
    "HandUpdate",
    "HistoryEntry",
    "HostAction",
    "HostDeskSummary",
    "HostFrame",
    "Moved",
    "MovedFrame",
    "Notice",
    "NoticeFrame",
    "NumberedBody",
    "NumberedKind",
    "Opening",
    "PendingChips",
    "ReservedSeat",
    "ResultRow",
    "RoomChanged",
    "RoomFrame",
    "RoomOutFrame",
    "RoomSummary",
    "RoomSummaryParts",
    "RunsAsked",
    "RunsAskedFrame",
    "SeatEntry",
    "SeatRequestEntry",
    "Seq",
    "Snapshot",
    "SnapshotFrame",
    "StraddleAnswer",
    "StraddleAnswerFrame",
    "StraddleOffer",
    "StraddleOfferFrame",
    "TableView",
    "TimeBankFrame",
    "TimeBankStarted",
    "TournamentOver",
    "TournamentOverFrame",
    "TournamentPart",
    "UnnumberedBody",
    "UnnumberedKind",
    "ViewSeat",
    "WaitListSummary",
    "WaitOffer",
    "Wallet",
    "WalletFrame",
    "You",
    "is_card_text",
]
