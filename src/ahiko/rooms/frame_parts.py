"""The parts the room's frames are made of (``ahiko.rooms.frame_types`` has the frames):
a room's summary and its seats, the hand's clock, a snapshot's hand and chat, and the parts
the engine and the fair deal make. Plain ``TypedDict``s with ``annotated_types``'
constraints, which pydantic reads to check the wire (``ahiko.server.protocol``)."""

import re
from typing import Annotated, Any, Literal, NotRequired

from annotated_types import Ge, Len, Predicate

# typing_extensions' TypedDict: pydantic reads it, not typing's, before Python 3.12
from typing_extensions import TypedDict

_CARD = re.compile(r"[2-9TJQKA][cdhs]")


def is_card_text(text: str) -> bool:
    """A card as the wire writes it, rank then suit: ``"Ah"``, ``"Td"``."""
    return _CARD.fullmatch(text) is not None


# Cards are text everywhere on the wire: an integer card (the engine's own form) is refused
# wherever a card can stand.
CardText = Annotated[str, Predicate(is_card_text)]
Seq = Annotated[int, Ge(0)]
# ``ahiko.rooms.outbox.new_epoch``; null only in the gateway's answer when there is no room
Epoch = Annotated[str, Len(1, 32)]


class Envelope(TypedDict):
    """What every frame carries besides its type ``t`` and body."""

    seq: Seq
    epoch: NotRequired[Epoch | None]


# --- parts the engine and the fair deal make -------------------------------------------------


class HistoryEntry(TypedDict, total=False):
    """One history entry (``ahiko.poker.view.public_history``): hidden cards are absent or
    null, visible ones text."""

    kind: str
    cards: list[CardText] | None
    new_cards: list[CardText] | None


class ViewSeat(TypedDict, total=False):
    seat: int
    cards: list[CardText] | None  # None or absent: hidden from this viewer


class TableView(TypedDict, total=False):
    """``ahiko.poker.view.view``: what one viewer may know of the hand (``{}`` before the
    engine exists)."""

    board: list[CardText]
    second_board: list[CardText]
    seats: list[ViewSeat]
    history: list[HistoryEntry]


class Opening(TypedDict):
    """A card's opening (FAIRNESS.md): its position, card, salt and Merkle path."""

    role: str
    seat: NotRequired[int]  # no seat for a board card
    k: int
    position: int
    card: CardText
    salt: str
    path: list[str]
    leaf: NotRequired[int]  # pokerfair/2: the committed leaf this deal position opens


# --- the room summary --------------------------------------------------------------------------


class SeatEntry(TypedDict):
    """A seat of the ``room`` frame: who sits there and how they stand."""

    seat: int
    player_id: str
    name: str
    stack: int
    is_bot: bool
    bot_level: str | None
    connected: bool
    waiting: bool
    leaving: bool
    sitting_out: bool
    awaits_big_blind: bool
    time_bank: float | None  # null for a bot or a table without a bank


class ReservedSeat(TypedDict):
    """A seat taken during a hand, for the next one (R-RM-16)."""

    seat: int | None
    player_id: str
    name: str


class WaitOffer(TypedDict):
    seat: int
    player_id: str


class WaitListSummary(TypedDict):
    waiting: list[str]
    offers: list[WaitOffer]


class SeatRequestEntry(TypedDict):
    player_id: str
    name: str
    seat: int | None


class PendingChips(TypedDict):
    player_id: str
    amount: int


class HostDeskSummary(TypedDict, total=False):
    """What a home game's host desk adds to its room summary (nothing elsewhere)."""

    approve_players: bool
    seat_requests: list[SeatRequestEntry]
    max_rebuys: int | None
    hand_options: dict[str, Any]
    bomb_pot_next: bool
    pending_change: dict[str, Any] | None
    pending_chips: list[PendingChips]


class TournamentPart(TypedDict, total=False):
    """The event a tournament table plays for: a sit & go's or an MTT's."""

    sitgo: str
    mtt: str
    table: int
    buy_in: int
    prizes: list[int]


class RoomSummaryParts(TypedDict, total=False):
    """What only some rooms' summaries carry."""

    tournament: TournamentPart  # an event's table
    seats: list[SeatEntry]  # all but the lobby's
    reserved: list[ReservedSeat]


class RoomSummary(HostDeskSummary, RoomSummaryParts):
    """The public description of a room: the ``room`` frame's, the snapshot's and (without
    the seats) the lobby's."""

    id: str
    name: str
    kind: str
    variant: str
    game: dict[str, object]  # ``ahiko.poker.games.Game.to_json``
    tier: str | None
    public: bool
    status: str
    host_id: str | None
    blinds: dict[str, int]
    levels: dict[str, object]
    seats_total: int
    seats_taken: int
    starting_chips: int
    action_deadline_s: float | None
    limit_hands: int | None
    limit_minutes: float | None
    hands_dealt: int
    hand_no: int | None
    avg_pot: int | None
    chat: str
    time_bank: dict[str, float | int]
    wait_list: WaitListSummary
    countdowns: dict[str, float]


# --- the hand ----------------------------------------------------------------------------------


class Deadline(TypedDict):
    """The clock of the seat to act."""

    seat: int
    seconds_left: float
    time_bank_running: float | None  # the bank's seconds within seconds_left while it runs
    time_bank: float | None  # what the seat's bank holds; null: no bank here


class AutoAction(TypedDict):
    """The room answered for a seat: its clock ran out, it is away, or the room is out of
    time."""

    seat: int
    action: str
    reason: Literal["timeout", "away", "limit"]


class HandState(TypedDict):
    """The hand in a snapshot (``ahiko.rooms.frames.hand_state``)."""

    hand_no: int
    phase: str
    commitment: dict[str, Any]
    view: TableView | None
    openings: list[Opening]
    deadline: Deadline | None
    names: dict[str, str]
    cards_in_s: float | None


class ResultRow(TypedDict):
    """A place of a finished tournament."""

    place: int
    player_id: str
    name: str
    eliminated_in_hand: int | None
    chips_at_hand_start: int | None
    by_lot: bool
    prize: NotRequired[int]  # only on the places a paid sit & go pays


ChatKind = Literal["text", "preset", "emote"]


class ChatLine(TypedDict):
    no: int
    at_ms: int
    player_id: str
    name: str
    seat: int | None  # null for a spectator
    kind: ChatKind
    text: str  # the text, or the preset's or emote's id


class ChatState(TypedDict):
    """The chat part of a snapshot."""

    mode: str
    muted: list[str]
    messages: list[ChatLine]


class You(TypedDict):
    player_id: str | None
    seat: int | None
    host: bool
