"""Hand values (SPEC §1, R-RK-01..07) through eval7.

``hand_value(cards)`` takes five to seven cards and returns the best five-card value as a
:class:`HandValue`: orderable (higher is better, equal values tie), with its category, the
ranks that decide ties in order and the five cards that make it; no name (the clients' locales
and ``ahiko.history.hand_names`` put words on a category and its ranks). eval7 packs a value
as ``category << 24`` followed by up to five rank nibbles (deuce = 0),
which is exactly "category, then the deciding ranks"; suits never enter it (R-RK-04).

``hand_strength(cards)`` is the bare comparable int, for the showdown's hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations
from typing import Any

import eval7

from .cards import Card, format_card
from .games import Evaluator


class HandCategory(IntEnum):
    """R-RK-01, weakest to strongest (the numbers are eval7's)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


# How many rank nibbles decide ties in each category (R-RK-02, R-RK-03).
_DECIDING_RANKS = {
    HandCategory.HIGH_CARD: 5,
    HandCategory.PAIR: 4,
    HandCategory.TWO_PAIR: 3,
    HandCategory.THREE_OF_A_KIND: 3,
    HandCategory.STRAIGHT: 1,
    HandCategory.FLUSH: 5,
    HandCategory.FULL_HOUSE: 2,
    HandCategory.FOUR_OF_A_KIND: 2,
    HandCategory.STRAIGHT_FLUSH: 1,
}

# By category number: the bit offsets of its deciding rank nibbles, highest first.
_RANK_SHIFTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(16 - 4 * k for k in range(_DECIDING_RANKS[category])) for category in HandCategory
)

_EVAL7_CARDS: tuple[eval7.Card, ...] = tuple(eval7.Card(format_card(c)) for c in range(52))

_FIVE = 3


def hand_strength(cards: Sequence[Card]) -> int:
    """The comparable value of the best five of 5..7 cards (higher wins, equal ties)."""
    return int(eval7.evaluate([_EVAL7_CARDS[c] for c in cards]))


def holdem_strengths(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    """``hand_strength`` of each two-card hand of ``holes`` with the same ``board`` (a hold'em
    showdown): the board's cards are looked up once for every hand."""
    cards = _EVAL7_CARDS
    common = [cards[c] for c in board]
    evaluate = eval7.evaluate
    return [evaluate([cards[first], cards[second], *common]) for first, second in holes]


# Omaha's hands: two of the hole cards with three of the five board cards (ten triples).
_BOARD_TRIPLES = tuple(combinations(range(5), 3))


def omaha_strengths(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    """The showdown value of each Omaha hand of ``holes`` on a full ``board``: the best five
    of exactly two hole cards and three board cards. The board's ten triples are built once
    for every hand; a hand is then 60 five-card evaluations."""
    cards = _EVAL7_CARDS
    common = [cards[c] for c in board]
    triples = [[common[a], common[b], common[c]] for a, b, c in _BOARD_TRIPLES]
    evaluate = eval7.evaluate
    values = []
    for hole in holes:
        pairs = combinations([cards[c] for c in hole], 2)
        values.append(max(evaluate([x, y, *triple]) for x, y in pairs for triple in triples))
    return values


def omaha_value(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """The best Omaha hand (exactly two of ``hole``, three of ``board``) as a
    :class:`HandValue`, its five cards those two and three (what a player is told they hold).
    The board may be a flop or a turn (a hand shown all-in before the river)."""
    if (
        not 3 <= len(board) <= 5
        or len(hole) < 2
        or len(set(hole) | set(board)) != len(hole) + len(board)
    ):
        raise ValueError("an Omaha hand is distinct hole cards and a board of three to five")
    best = max(
        (hand_strength(five), five)
        for pair in combinations(hole, 2)
        for triple in combinations(board, 3)
        for five in [(*pair, *triple)]
    )[1]
    return hand_value(best)


def game_hand_value(
    evaluator: Evaluator, own: Sequence[Card], board: Sequence[Card]
) -> HandValue | None:
    """The value of a player's cards as ``evaluator`` (a game's) counts them, or None while
    there are not yet enough cards to make five."""
    if evaluator is Evaluator.OMAHA:
        return omaha_value(own, board) if len(board) >= 3 else None
    cards = [*own, *board]
    return hand_value(cards) if len(cards) >= 5 else None


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The best five-card hand out of some cards. Compares by value only (R-RK-04)."""

    value: int
    category: HandCategory = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)  # deciding ranks, 0 = deuce .. 12 = ace
    cards: tuple[Card, ...] = field(compare=False)  # the five that count (R-RK-06)

    def to_json(self) -> dict[str, Any]:
        """What the wire carries: {"category", "ranks"}; names are the clients' (R-RK-01)."""
        return {"category": int(self.category), "ranks": list(self.ranks)}


def hand_value(cards: Sequence[Card]) -> HandValue:
    """Best five-card value of 5..7 distinct cards (R-RK-06: exactly five count)."""
    if not 5 <= len(cards) <= 7 or len(set(cards)) != len(cards):
        raise ValueError(f"need 5 to 7 distinct cards, got {len(cards)}")
    value = hand_strength(cards)
    best = tuple(cards)
    if len(cards) > 5:
        best = next(five for five in combinations(cards, 5) if hand_strength(five) == value)
    category = HandCategory(value >> 24)
    count = _DECIDING_RANKS[category]
    ranks = tuple((value >> (16 - 4 * k)) & 0xF for k in range(count))
    return HandValue(value, category, ranks, _ordered_five(best, category, ranks))


def _ordered_five(
    five: Sequence[Card], category: HandCategory, ranks: tuple[int, ...]
) -> tuple[Card, ...]:
    """The five cards ordered as read: deciding groups first, high to low."""
    counts: dict[int, int] = {}
    for c in five:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and ranks[0] == _FIVE:
        order = {r: (r + 1) % 13 for r in counts}  # wheel: the ace counts low (R-RK-05)
        return tuple(sorted(five, key=lambda c: (order[c >> 2], c), reverse=True))
    return tuple(sorted(five, key=lambda c: (counts[c >> 2], c >> 2, c), reverse=True))


def strength_ranks(strength: int) -> dict[str, Any]:
    """A ``hand_strength`` value as the wire carries it: {"category", "ranks"} (the deciding
    ranks in order, 0 = deuce .. 12 = ace). Names are the presentation's, never the engine's."""
    category = strength >> 24
    return {
        "category": category,
        "ranks": [(strength >> shift) & 0xF for shift in _RANK_SHIFTS[category]],
    }
