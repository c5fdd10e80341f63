"""Hand values (SPEC §1, R-RK-01..07) through eval7.

``hand_value(cards)`` takes five to seven cards and returns the best five-card value as a
:class:`HandValue`: orderable (higher is better, equal values tie), with its category, the
ranks that decide ties in order, the five cards that make it and a readable name in pt-BR or
en. eval7 packs a value as ``category << 24`` followed by up to five rank nibbles (deuce = 0),
which is exactly "category, then the deciding ranks"; suits never enter it (R-RK-04).

``hand_strength(cards)`` is the bare comparable int, for the showdown's hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from itertools import combinations

import eval7

from .cards import Card, format_card


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

_EVAL7_CARDS: tuple[eval7.Card, ...] = tuple(eval7.Card(format_card(c)) for c in range(52))

_ACE = 12
_QUEEN = 10
_FIVE = 3
_RANK_CHARS = "23456789TJQKA"
_EN_ONE = [
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
]
_EN_MANY = [
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
]
_PT_ONE = [
    "dois",
    "três",
    "quatro",
    "cinco",
    "seis",
    "sete",
    "oito",
    "nove",
    "dez",
    "valete",
    "dama",
    "rei",
    "ás",
]
_PT_MANY = [
    "dois",
    "três",
    "quatros",
    "cincos",
    "seis",
    "setes",
    "oitos",
    "noves",
    "dez",
    "valetes",
    "damas",
    "reis",
    "ases",
]
LANGUAGES = ("pt-BR", "en")


def hand_strength(cards: Sequence[Card]) -> int:
    """The comparable value of the best five of 5..7 cards (higher wins, equal ties)."""
    return int(eval7.evaluate([_EVAL7_CARDS[c] for c in cards]))


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The best five-card hand out of some cards. Compares by value only (R-RK-04)."""

    value: int
    category: HandCategory = field(compare=False)
    ranks: tuple[int, ...] = field(compare=False)  # deciding ranks, 0 = deuce .. 12 = ace
    cards: tuple[Card, ...] = field(compare=False)  # the five that count (R-RK-06)

    def name(self, lang: str = "pt-BR") -> str:
        """Readable name: "Dois pares, reis e setes" / "Two pair, kings and sevens"."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
        return _name_pt(self) if lang == "pt-BR" else _name_en(self)

    def __str__(self) -> str:
        return self.name("en")


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


def _straight_span(high: int) -> tuple[int, int]:
    return (_ACE if high == _FIVE else high - 4), high


def _name_en(v: HandValue) -> str:
    r = v.ranks
    match v.category:
        case HandCategory.HIGH_CARD:
            return f"High card, {_EN_ONE[r[0]]}"
        case HandCategory.PAIR:
            return f"Pair of {_EN_MANY[r[0]]}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {_EN_MANY[r[0]]} and {_EN_MANY[r[1]]}"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {_EN_MANY[r[0]]}"
        case HandCategory.STRAIGHT:
            low, high = _straight_span(r[0])
            return f"Straight, {_EN_ONE[low]} to {_EN_ONE[high]}"
        case HandCategory.FLUSH:
            return f"Flush, {_EN_ONE[r[0]]} high"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {_EN_MANY[r[0]]} over {_EN_MANY[r[1]]}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {_EN_MANY[r[0]]}"
        case _:
            if r[0] == _ACE:
                return "Royal flush"
            low, high = _straight_span(r[0])
            return f"Straight flush, {_EN_ONE[low]} to {_EN_ONE[high]}"


def _name_pt(v: HandValue) -> str:
    r = v.ranks
    match v.category:
        case HandCategory.HIGH_CARD:
            return f"Carta alta, {_PT_ONE[r[0]]}"
        case HandCategory.PAIR:
            return f"Par de {_PT_MANY[r[0]]}"
        case HandCategory.TWO_PAIR:
            return f"Dois pares, {_PT_MANY[r[0]]} e {_PT_MANY[r[1]]}"
        case HandCategory.THREE_OF_A_KIND:
            return f"Trinca de {_PT_MANY[r[0]]}"
        case HandCategory.STRAIGHT:
            low, high = _straight_span(r[0])
            return f"Sequência, de {_RANK_CHARS[low]} a {_RANK_CHARS[high]}"
        case HandCategory.FLUSH:
            return f"Flush, {_PT_ONE[r[0]]} {'alta' if r[0] == _QUEEN else 'alto'}"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {_PT_MANY[r[0]]} e {_PT_MANY[r[1]]}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Quadra de {_PT_MANY[r[0]]}"
        case _:
            if r[0] == _ACE:
                return "Royal flush"
            low, high = _straight_span(r[0])
            return f"Straight flush, de {_RANK_CHARS[low]} a {_RANK_CHARS[high]}"


# A name reads only the category and the first two deciding ranks (eval7's top three
# nibbles), so values sharing ``strength >> _NAME_SHIFT`` share their names.
_NAME_SHIFT = 12


@lru_cache(maxsize=4096)
def _names_of_key(key: int) -> tuple[tuple[str, str], ...]:
    strength = key << _NAME_SHIFT
    category = HandCategory(strength >> 24)
    ranks = tuple((strength >> (16 - 4 * k)) & 0xF for k in range(_DECIDING_RANKS[category]))
    value = HandValue(strength, category, ranks, ())
    return tuple((lang, value.name(lang)) for lang in LANGUAGES)


_CATEGORY_NAMES = {
    HandCategory.HIGH_CARD: ("Carta alta", "High card"),
    HandCategory.PAIR: ("Par", "Pair"),
    HandCategory.TWO_PAIR: ("Dois pares", "Two pair"),
    HandCategory.THREE_OF_A_KIND: ("Trinca", "Three of a kind"),
    HandCategory.STRAIGHT: ("Sequência", "Straight"),
    HandCategory.FLUSH: ("Flush", "Flush"),
    HandCategory.FULL_HOUSE: ("Full house", "Full house"),
    HandCategory.FOUR_OF_A_KIND: ("Quadra", "Four of a kind"),
    HandCategory.STRAIGHT_FLUSH: ("Straight flush", "Straight flush"),
}


def category_names(strength: int) -> dict[str, str]:
    """The category alone (R-RK-01), in pt-BR and en, of a ``hand_strength`` value: what a
    viewer who may not see a shown hand learns of it (R-DR-07 D)."""
    pt, en = _CATEGORY_NAMES[HandCategory(strength >> 24)]
    return {"pt-BR": pt, "en": en}


def strength_names(strength: int) -> dict[str, str]:
    """Readable names, in every language, of a ``hand_strength`` value."""
    return dict(_names_of_key(strength >> _NAME_SHIFT))
