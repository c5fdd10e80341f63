"""Bridge between Ahiko's card ints (``rank * 4 + suit``) and eval7, and hand values.

eval7 orders suits "cdhs" like Ahiko, so the mapping is one table (the bots' simulators
call eval7 directly). A hand value is the engine's ``ranking.hand_strength`` integer (higher
wins); its category (0 = high card .. 8 = straight flush, R-RK-01) sits in the top byte.
"""

from __future__ import annotations

from collections.abc import Sequence

import eval7

from ahiko.poker.cards import DECK_SIZE, Card, format_card, parse_card
from ahiko.poker.games import game
from ahiko.poker.ranking import game_hand_value, hand_strength

E7_CARDS: tuple[eval7.Card, ...] = tuple(eval7.Card(format_card(c)) for c in range(DECK_SIZE))

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def parse_view_cards(texts: Sequence[str] | None) -> tuple[Card, ...]:
    """Card texts of a view ("Ah") to ints; None (hidden) gives ()."""
    if not texts:
        return ()
    return tuple(parse_card(t) for t in texts)


def hand_value(cards: Sequence[Card]) -> int:
    """Value of the best five of 5 to 7 cards (R-RK-01..06); higher is better."""
    return hand_strength(cards)


def shown_value(variant: str, own: Sequence[Card], board: Sequence[Card]) -> int:
    """The value of a player's cards as the game counts them (hold'em: best five of seven;
    Omaha: two of the hole cards and three of the board; draw: the five held); 0, below any
    hand, while there are not yet enough cards to make five."""
    value = game_hand_value(game(variant).evaluator, own, board)
    return 0 if value is None else value.value


def category(value: int) -> int:
    return value >> 24
