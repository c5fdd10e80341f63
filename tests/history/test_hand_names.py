"""SPEC §1 hand names (R-RK-01) for people: ahiko.history.hand_names, the presentation of the
values the engine sends as a category and ranks (tests moved here from tests/poker)."""

from __future__ import annotations

import pytest

from ahiko.history.hand_names import hand_name
from ahiko.poker.cards import parse_cards
from ahiko.poker.ranking import hand_value, strength_ranks


def hv(text: str):  # type: ignore[no-untyped-def]
    return hand_value(parse_cards(text))


@pytest.mark.parametrize(
    ("text", "pt", "en"),
    [
        ("Kh Kd 7c 7s 2h", "Dois pares, reis e setes", "Two pair, kings and sevens"),
        ("Qh Qd Qc 5s 5h", "Full house, damas e cincos", "Full house, queens over fives"),
        ("9h Td Jc Qs Kh", "Sequência, de 9 a K", "Straight, nine to king"),
        ("Ah 2h 7h 9h Jh", "Flush, ás alto", "Flush, ace high"),
        ("Ah Kd 9c 7s 3h", "Carta alta, ás", "High card, ace"),
        ("Ah Ad 9c 7s 3h", "Par de ases", "Pair of aces"),
        ("6h 6d 6c 7s 3h", "Trinca de seis", "Three of a kind, sixes"),
        ("Jh Jd Jc Js 3h", "Quadra de valetes", "Four of a kind, jacks"),
        ("5h 6h 7h 8h 9h", "Straight flush, de 5 a 9", "Straight flush, five to nine"),
    ],
)
def test_R_RK_01_names_in_pt_br_and_en(text: str, pt: str, en: str) -> None:
    assert hand_name(hv(text), "pt-BR") == pt
    assert hand_name(hv(text), "en") == en


def test_R_RK_01_the_royal_flush_and_the_wheel_by_name() -> None:
    assert hand_name(hv("Ah Kh Qh Jh Th"), "en") == "Royal flush"
    assert hand_name(hv("Ah 2d 3c 4s 5h"), "pt-BR") == "Sequência, de A a 5"


def test_R_RK_01_the_engine_sends_a_value_not_words() -> None:
    value = hv("Ah Ad Kc 9s 7h")
    assert value.to_json() == {"category": 1, "ranks": [12, 11, 7, 5]}
    assert strength_ranks(value.value) == value.to_json()
    with pytest.raises(ValueError, match="unknown language"):
        hand_name(value, "fr")
