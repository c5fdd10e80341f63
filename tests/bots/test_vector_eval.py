"""The numpy hand evaluator gives eval7's values (R-AI-04's multiway equity rests on it)."""

from __future__ import annotations

import eval7
import numpy as np
import pytest

from ahiko.bots.cards7 import E7_CARDS, FLUSH, FULL_HOUSE, STRAIGHT, STRAIGHT_FLUSH, TWO_PAIR
from ahiko.bots.vector_eval import (
    RANK_KEYS,
    evaluate,
    evaluate_holdem,
    rank_multisets,
    tables,
)
from ahiko.poker.cards import parse_cards


def _eval7(hands: np.ndarray) -> np.ndarray:
    return np.array([eval7.evaluate([E7_CARDS[c] for c in hand]) for hand in hands.tolist()])


def _random_hands(n: int, seed: int) -> np.ndarray:
    """``n`` seven-card hands of distinct cards."""
    return np.random.default_rng(seed).random((n, 52)).argsort(axis=1)[:, :7]


def test_R_AI_04_values_equal_eval7_on_200k_random_hands() -> None:
    hands = _random_hands(200_000, 1)
    assert np.array_equal(evaluate(hands), _eval7(hands))


def test_R_AI_04_values_equal_eval7_on_random_flush_hands() -> None:
    # About 3% of random hands hold a flush: also check 20,000 that all do (5, 6 or 7 suited).
    rng = np.random.default_rng(2)
    suited = np.arange(13) * 4 + 2  # hearts
    hands = []
    for k in rng.integers(5, 8, 20_000):
        rest = np.setdiff1d(np.arange(52), suited)
        hands.append(np.concatenate([rng.choice(suited, k, False), rng.choice(rest, 7 - k, False)]))
    batch = np.array(hands)
    for hand in (batch, rng.permuted(batch, axis=1)):
        assert np.array_equal(evaluate(hand), _eval7(hand))


TARGETED = {
    "wheel": "Ah2c3d4s5h9cJd",
    "six-high straight over the wheel": "Ah2c3d4s5h6cJd",
    "steel wheel": "Ah2h3h4h5hKcKd",
    "royal flush": "AsKsQsJsTs2c2d",
    "straight flush over a higher straight": "5h6h7h8h9hTsKc",
    "flush beats straight": "2h5h7h9hJh8cTd",
    "six suited cards": "2d4d6d8dTdQdAc",
    "seven suited cards": "2c3c5c7c9cJcKc",
    "flush with a pair": "AhKhQh9h3hAcAd",
    "quads choose the best kicker": "7c7d7h7sKc2dQs",
    "quads kicker beats a board pair": "7c7d7h7s3c3dQs",
    "two trips make a full house": "AcAdAhKcKdKs2c",
    "trips and two pairs": "QcQdQhJcJd9c9d",
    "three pairs": "AcAdKcKdQcQdJh",
    "high card": "2c4d6h8sTcQdKh",
}


@pytest.mark.parametrize("name", TARGETED)
def test_R_AI_04_targeted_hands_equal_eval7(name: str) -> None:
    hand = np.array(parse_cards(TARGETED[name]))
    assert evaluate(hand) == _eval7(hand[np.newaxis])[0]


def test_R_AI_04_targeted_hands_order_as_poker_ranks() -> None:
    def value(cards: str) -> int:
        return int(evaluate(np.array(parse_cards(cards))))

    assert value("Ah2c3d4s5h9cJd") < value("Ah2c3d4s5h6cJd")  # wheel is the lowest straight
    assert value("Ah2c3d4s5h9cJd") >> 24 == STRAIGHT
    assert value("Ah2h3h4h5hKcKd") >> 24 == STRAIGHT_FLUSH
    assert value("Ah2h3h4h5hKcKd") < value("2h3h4h5h6hKcKd") < value("AsKsQsJsTs2c2d")
    assert value("2h5h7h9hJh8cTd") >> 24 == FLUSH
    # The best five of six suited cards: the lowest one plays no part.
    assert value("2d4d6d8dTdQdAc") == value("3c4d6d8dTdQdAc")
    assert value("2d4d6d8dTdQdAd") > value("2d4d6d8dTdQdAc")
    assert value("7c7d7h7sKc2dQs") > value("7c7d7h7sQc2dJs")
    assert value("AcAdAhKcKdKs2c") >> 24 == FULL_HOUSE
    assert value("AcAdAhKcKdKs2c") > value("KcKdKhAcAd2s3c")
    assert value("AcAdKcKdQcQdJh") >> 24 == TWO_PAIR
    assert value("AcAdKcKdQcQdJh") < value("AcAdKcKdQcQdAh")  # trips beat three pairs


def test_R_AI_04_every_rank_multiset_has_its_own_key() -> None:
    multisets = rank_multisets()
    keys = RANK_KEYS[multisets].sum(axis=1)
    assert len(multisets) == 49_205
    assert len(np.unique(keys)) == 49_205
    assert np.count_nonzero(tables().by_rank_key) == 49_205  # every multiset has its value


def test_R_AI_04_holdem_batches_equal_hand_by_hand_values() -> None:
    deals = np.random.default_rng(4).random((3_000, 52)).argsort(axis=1)[:, :11]
    holes, boards = deals[:, :6].reshape(-1, 3, 2), deals[:, 6:]
    values = evaluate_holdem(holes, boards)
    assert values.shape == (3_000, 3)
    for player in range(3):
        assert np.array_equal(values[:, player], evaluate(np.hstack([holes[:, player], boards])))


def test_R_AI_04_evaluate_keeps_leading_dimensions() -> None:
    hands = _random_hands(24, 5)
    assert np.array_equal(evaluate(hands.reshape(2, 3, 4, 7)), evaluate(hands).reshape(2, 3, 4))
