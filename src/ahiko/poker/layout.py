"""Deal layouts of FAIRNESS.md: where each card sits in the shuffled deck.

Positions are indices into the deck (0..51). ``dealt_seats`` lists the dealt seats in deal
order, first seat after the button first. These formulas are shared by the rules engine,
which takes cards from the deck by them, and the fair-deal verifier, which checks them.
"""

from __future__ import annotations

from functools import lru_cache

from .games import DRAW, HOLDEM, POT_LIMIT_OMAHA

HOLDEM_LAYOUT = HOLDEM.layout
DRAW_LAYOUT = DRAW.layout
OMAHA_LAYOUT = POT_LIMIT_OMAHA.layout
# A board game's layout with a second board (double board, or run it twice): the first
# board's five cards where the game puts them, then the second board's own cards (a second
# run-out deals only the streets it does not share) from the next position on.
SECOND_BOARD_LAYOUTS = {
    HOLDEM_LAYOUT: "holdem-noburn-2board-v1",
    OMAHA_LAYOUT: "omaha4-noburn-2board-v1",
}
KNOWN_LAYOUTS = (HOLDEM_LAYOUT, DRAW_LAYOUT, OMAHA_LAYOUT, *SECOND_BOARD_LAYOUTS.values())

HOLDEM_HOLE_CARDS = HOLDEM.hole_cards
HOLDEM_BOARD_CARDS = HOLDEM.board_cards
DRAW_HAND_CARDS = DRAW.hole_cards


def holdem_hole_position(n: int, j: int, k: int, hole_cards: int = HOLDEM_HOLE_CARDS) -> int:
    """Hole card k (0/1; Omaha 0..3) of the j-th dealt seat of n."""
    _check(0 <= k < hole_cards and 0 <= j < n, "hole card index")
    return k * n + j


def holdem_board_position(n: int, b: int, hole_cards: int = HOLDEM_HOLE_CARDS) -> int:
    """Board card b (0..4): flop 0-2, turn 3, river 4, after every hole card."""
    _check(0 <= b < HOLDEM_BOARD_CARDS, "board card index")
    return hole_cards * n + b


def holdem_positions(n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every position of an n-player hold'em deal, ``(hole, board)``: hole card k of the j-th
    dealt seat at ``hole[j][k]``, board card b at ``board[b]``. Computed once per table size."""
    return board_game_positions(n, HOLDEM_HOLE_CARDS)


@lru_cache(maxsize=32)
def board_game_positions(
    n: int, hole_cards: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``(hole, board)`` positions of a board game dealing ``hole_cards`` to each of n seats
    without burns (``holdem-noburn-v1``, ``omaha4-noburn-v1``): hole card k of the j-th dealt
    seat at ``k*n + j``, then board card b at ``hole_cards*n + b``."""
    _check(n > 0 and hole_cards * n + HOLDEM_BOARD_CARDS <= 52, "table size")
    hole = tuple(tuple(k * n + j for k in range(hole_cards)) for j in range(n))
    board = tuple(hole_cards * n + b for b in range(HOLDEM_BOARD_CARDS))
    return hole, board


def second_board_layout(layout: str) -> str:
    """The name of ``layout`` with a second board (FAIRNESS.md: a new layout, a new name)."""
    found = SECOND_BOARD_LAYOUTS.get(layout)
    _check(found is not None, "layout for a second board")
    assert found is not None
    return found


def second_board_position(board_start: int, k: int) -> int:
    """The second board's k-th own card (0..4), after the first board's five cards, which
    start at ``board_start`` (``hole_cards * n``)."""
    _check(0 <= k < HOLDEM_BOARD_CARDS, "second board card index")
    return board_start + HOLDEM_BOARD_CARDS + k


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


@lru_cache(maxsize=64)
def private_positions(n: int, per_player: int) -> tuple[tuple[int, ...], ...]:
    """Deck positions of each dealt seat's private cards: card k of seat j at ``k*n + j``."""
    return tuple(tuple(range(j, per_player * n, n)) for j in range(n))
