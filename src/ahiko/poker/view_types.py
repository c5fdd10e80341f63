"""What a view of a hand holds, named: ``HandView`` and its parts, the plain JSON-able data
``ahiko.poker.view.view`` builds for one viewer (the bots decide on it, R-AI-01; the frames
carry it). Types only: no hand and no deck here, so a bot module may import them.

No postponed annotations in this module: the keys a ``NotRequired`` marks must be known at
run time (pydantic and the tests read them)."""

from typing import Literal, NotRequired, Required

# typing_extensions' TypedDict: pydantic reads it, not typing's, before Python 3.12
from typing_extensions import TypedDict


class LastAction(TypedDict):
    """A seat's last action of this betting round (R-HE-06), or its draw."""

    kind: str  # fold/check/call/bet/raise, or "discard" during the draw
    amount: int  # the street total after a bet/raise/call; cards drawn for a discard


class SeatView(TypedDict):
    """One dealt seat as this viewer sees it."""

    seat: int
    stack: int
    bet: int  # this betting round
    total_bet: int  # this hand
    status: Literal["active", "folded", "allin"]
    last_action: LastAction | None
    cards: list[str] | None  # None: hidden from this viewer
    card_count: int
    discards: int | None  # draw: cards drawn, None before the draw (and in hold'em)


class PotView(TypedDict):
    amount: int
    eligible: list[int]


class LegalView(TypedDict):
    """``LegalActions``, field for field, its ``bet_kind`` as text: for the seat to act only."""

    seat: int
    can_fold: bool
    can_check: bool
    call_cost: int
    bet_kind: str | None  # "bet", "raise", or None when the seat cannot
    min_to: int
    max_to: int
    committed: int
    stack: int
    max_discards: int
    is_draw_phase: bool


class ShownValue(TypedDict):
    """A shown hand's value: its category (0..8) and the ranks that decide it."""

    category: int
    ranks: list[int]


class ViewEvent(TypedDict, total=False):
    """One history entry: an event of ``ahiko.poker.events`` as this viewer may see it, its
    cards as text. Which keys an entry has depends on its ``kind`` (the events' module
    lists them); seat-keyed maps have string keys, as in JSON."""

    kind: Required[str]
    seat: int
    amount: int
    added: int
    all_in: bool
    action: str  # fold/check/call/bet/raise
    blind: str  # "sb"/"bb"
    name: str  # the street (or the second board's street) dealt
    cards: list[str] | None  # None: shown, but not to this viewer (R-DR-07 D)
    new_cards: list[str]
    positions: list[int]
    count: int
    reason: str
    index: int
    board: int
    eligible: list[int]
    winners: list[int]
    shares: dict[str, int]
    hands: dict[str, ShownValue]
    payers: dict[str, int]
    runs: int
    seats: list[int]
    stacks: list[int] | dict[str, int]  # hand_started: as dealt; hand_ended: by seat
    variant: str
    config: dict[str, int]
    button: int
    dealt_seats: list[int]
    layout: str


class PotResultDict(TypedDict):
    """A pot of ``HandResult.to_dict``: seat keys as strings."""

    amount: int
    eligible: list[int]
    winners: list[int]
    shares: dict[str, int]


class HandResultDict(TypedDict):
    """``HandResult.to_dict``: the view's ``result`` once the hand is over."""

    pots: list[PotResultDict]
    net: dict[str, int]
    stacks: dict[str, int]
    showdown: bool


class HandView(TypedDict):
    """``view(hand, viewer)``: everything one viewer may know of the hand now. A bot
    decides on its own seat's (``ahiko.bots.protocol.Bot``); the frames carry it too."""

    variant: str
    viewer: int | None
    street: str
    button: int
    dealt_seats: list[int]
    stakes: dict[str, int]  # the variant's stakes, and the house options that are on
    seats: list[SeatView]
    board: list[str]
    pots: list[PotView]
    to_act: int | None
    legal: LegalView | None
    history: NotRequired[list[ViewEvent]]  # absent from ``with_history=False`` and ``views``
    result: HandResultDict | None
    second_board: NotRequired[list[str]]
    runs_pending: NotRequired[list[int]]
    # what a room adds to a bot's final view (``observe``): the players' public names
    players: NotRequired[dict[str, str]]
