"""Deal layouts of FAIRNESS.md: where each card sits in the shuffled deck.

Positions are indices into the deck (0..51). ``dealt_seats`` lists the dealt seats in deal
order, first seat after the button first. These formulas are shared by the rules engine,
which takes cards from the deck by them, and the fair-deal verifier, which checks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .cards import Card
from .events import Discarded, Event, HoleDealt, StreetDealt

HOLDEM_LAYOUT = "holdem-noburn-v1"
DRAW_LAYOUT = "draw5-v1"
KNOWN_LAYOUTS = (HOLDEM_LAYOUT, DRAW_LAYOUT)

HOLDEM_HOLE_CARDS = 2
HOLDEM_BOARD_CARDS = 5
DRAW_HAND_CARDS = 5


def holdem_hole_position(n: int, j: int, k: int) -> int:
    """Hole card k (0/1) of the j-th dealt seat of n."""
    _check(0 <= k < HOLDEM_HOLE_CARDS and 0 <= j < n, "hole card index")
    return k * n + j


def holdem_board_position(n: int, b: int) -> int:
    """Board card b (0..4): flop 0-2, turn 3, river 4."""
    _check(0 <= b < HOLDEM_BOARD_CARDS, "board card index")
    return 2 * n + b


@lru_cache(maxsize=16)
def holdem_positions(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every position of an n-player hold'em deal, ``(hole, board)``: hole card k of the j-th
    dealt seat at ``hole[j][k]``, board card b at ``board[b]``. Computed once per table size."""
    hole = tuple(
        tuple(holdem_hole_position(n, j, k) for k in range(HOLDEM_HOLE_CARDS)) for j in range(n)
    )
    board = tuple(holdem_board_position(n, b) for b in range(HOLDEM_BOARD_CARDS))
    return hole, board


def draw_hole_position(n: int, j: int, k: int) -> int:
    """Card k (0..4) of the j-th dealt seat's first five."""
    _check(0 <= k < DRAW_HAND_CARDS and 0 <= j < n, "draw hole card index")
    return k * n + j


def draw_replacement_position(n: int, replacements_before: int) -> int:
    """The replacement card dealt after ``replacements_before`` earlier replacements
    (counted in the public order of the draw: left of the dealer first, each player's
    replacements consecutively)."""
    _check(replacements_before >= 0, "replacement index")
    return DRAW_HAND_CARDS * n + replacements_before


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(f"invalid {what}")


def deck_from_events(events: Sequence[Event]) -> tuple[Card, ...]:
    """A deck consistent with every card the log dealt; unseen positions get unused cards."""
    placed: dict[int, Card] = {}
    for e in events:
        if isinstance(e, HoleDealt | StreetDealt):
            placed.update(zip(e.positions, e.cards, strict=True))
        elif isinstance(e, Discarded):
            placed.update(zip(e.positions, e.new_cards, strict=True))
    spare = iter(sorted(set(range(52)) - set(placed.values())))
    return tuple(placed[p] if p in placed else next(spare) for p in range(52))
