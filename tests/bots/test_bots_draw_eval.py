"""Five-card draw hand reading and the draw simulation (R-DR-05, R-AI-05..07), against the
improvement odds in FACTS.md."""

from __future__ import annotations

import random

import pytest

from ahiko.bots.cards7 import FLUSH, PAIR, STRAIGHT, TRIPS, TWO_PAIR
from ahiko.bots.draw_eval import analyse, improvement_probability
from ahiko.poker.cards import parse_cards


@pytest.mark.parametrize(
    ("hand", "discard", "target", "expected"),
    [
        ("AsAdKcKd2s", "2s", None, 0.085),  # two pair drawing one
        ("7c7d7h5sKc", "5sKc", None, 0.104),  # trips drawing two
        ("7c7d4h5sKc", "4h5sKc", None, 0.287),  # pair drawing three
        ("Ac9c4c5cKd", "Kd", None, 0.191),  # four-flush
        ("2c3d4h5s9c", "9c", None, 0.170),  # open-ended straight draw
        ("2c3d4h6s9c", "9c", STRAIGHT, 0.085),  # gutshot
    ],
)
def test_R_DR_05_improvement_odds_match_known_values(
    hand: str, discard: str, target: int | None, expected: float
) -> None:
    p = improvement_probability(
        parse_cards(hand), parse_cards(discard), 30_000, random.Random(hand), target
    )
    assert p == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize(
    ("hand", "thrown", "category"),
    [
        ("2c3d4h5s6c", "", STRAIGHT),
        ("Jc2c3c4c5c", "", FLUSH),
        ("7c7d7h5sKc", "5sKc", TRIPS),
        ("AsAdKcKd2s", "2s", TWO_PAIR),
        ("7c7d4h5sKc", "4h5sKc", PAIR),
        ("Ac9c4c5cKd", "Kd", 0),
        ("TcJdQhKs2c", "2c", 0),
        ("AcQd9h5s3c", "9h5s3c", 0),
    ],
)
def test_R_DR_05_textbook_discards_never_exceed_three(
    hand: str, thrown: str, category: int
) -> None:
    info = analyse(parse_cards(hand))
    assert info.category == category
    assert set(info.discard) == set(parse_cards(thrown)) if thrown else info.discard == ()
    assert len(info.discard) <= 3


def test_R_DR_02_dealt_hand_frequencies() -> None:
    rng = random.Random(5)
    deck = list(range(52))
    counts = {PAIR: 0, TWO_PAIR: 0, TRIPS: 0}
    n = 20_000
    for _ in range(n):
        cat = analyse(rng.sample(deck, 5)).category
        if cat in counts:
            counts[cat] += 1
    assert counts[PAIR] / n == pytest.approx(0.423, abs=0.012)
    assert counts[TWO_PAIR] / n == pytest.approx(0.048, abs=0.005)
    assert counts[TRIPS] / n == pytest.approx(0.021, abs=0.004)
