"""Hand names for people: "Par de ases" / "Pair of aces" (R-RK-01).

The presentation of a hand value for the exports (PokerStars text, SPEC §1 names) and any
server-side text: the engine sends a category and its deciding ranks, never words. The web
client has its own copy of these words in its locales (``web/js/locales``)."""

from __future__ import annotations

from typing import Protocol

from ahiko.poker.ranking import HandCategory

LANGUAGES = ("pt-BR", "en")
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


class Named(Protocol):
    @property
    def category(self) -> HandCategory: ...
    @property
    def ranks(self) -> tuple[int, ...]: ...


def hand_name(value: Named, lang: str = "pt-BR") -> str:
    """Readable name: "Dois pares, reis e setes" / "Two pair, kings and sevens"."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return _name_pt(value) if lang == "pt-BR" else _name_en(value)


def _straight_span(high: int) -> tuple[int, int]:
    return (_ACE if high == _FIVE else high - 4), high


def _name_en(v: Named) -> str:
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


def _name_pt(v: Named) -> str:
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
