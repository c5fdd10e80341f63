"""Hold'em equity on eval7's Monte Carlo (R-AI-04), checked against known equities."""

from __future__ import annotations

import random

import pytest

from ahiko.bots.arena import showdown_equities
from ahiko.bots.equity import (
    DECISION_MARGIN,
    FIRST_BATCH,
    equity_multiway,
    equity_vs_range,
    full_range,
    without_dead,
)
from ahiko.bots.holdem_hard import MULTIWAY_SAMPLES, bluff_share, defence_share
from ahiko.bots.holdem_ranges import continuing_range
from ahiko.bots.preflop import (
    EQUITY_VS_RANDOM,
    class_of,
    combos_of,
    equity_vs_random_class,
    percentile,
)
from ahiko.poker.cards import parse_cards


def _range(*classes: str) -> dict[tuple[int, int], float]:
    return {c: 1.0 for cls in classes for c in combos_of(cls)}


@pytest.mark.parametrize(
    ("hole", "villain", "expected"),
    [("AsAh", "KK", 0.819), ("AsKs", "QQ", 0.461), ("7c7d", "AKo", 0.553)],
)
def test_R_AI_04_heads_up_preflop_equities_match_known_values(
    hole: str, villain: str, expected: float
) -> None:
    eq = equity_vs_range(parse_cards(hole), (), _range(villain), 40_000, random.Random(1))
    assert eq == pytest.approx(expected, abs=0.012)


def test_R_AI_04_flop_monte_carlo_agrees_with_exact_enumeration() -> None:
    hole, villain, board = parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("Qh7h2c")
    exact = showdown_equities({0: hole, 1: villain}, board, random.Random(0))[0]
    mc = equity_vs_range(hole, board, {(villain[0], villain[1]): 1.0}, 40_000, random.Random(2))
    assert 0.2 < exact < 0.3
    assert mc == pytest.approx(exact, abs=0.01)


@pytest.mark.parametrize("seed", [3, 4])
def test_R_AI_04_multiway_equity_of_aces_against_two_random_hands(seed: int) -> None:
    eq = equity_multiway(
        parse_cards("AsAh"), (), [full_range(), full_range()], MULTIWAY_SAMPLES, random.Random(seed)
    )
    assert eq == pytest.approx(0.735, abs=0.015)


def test_R_AI_04_multiway_flop_equity_matches_a_reference_with_many_samples() -> None:
    # AhKh on Qh7h2c against a set-or-better range and a random hand. Reference: exact
    # showdown enumeration over every villain combo pair (weights uniform) would be slow,
    # so the reference is the same simulator with 20x the samples (+-0.25%).
    hole, board = parse_cards("AhKh"), parse_cards("Qh7h2c")
    strong = without_dead(_range("QQ", "77", "22", "AQs", "AQo"), hole + board)
    ranges = [strong, full_range(hole + board)]
    reference = equity_multiway(hole, board, ranges, 200_000, random.Random(5))
    eq = equity_multiway(hole, board, ranges, MULTIWAY_SAMPLES, random.Random(6))
    assert 0.25 < reference < 0.45
    assert eq == pytest.approx(reference, abs=0.015)


def test_R_AI_04_multiway_three_way_river_matches_exact_showdowns() -> None:
    # On the river with one combo each the equity is exact: AA loses to the straight.
    hole, board = parse_cards("AsAh"), parse_cards("9c8d7s2h2c")
    v1, v2 = parse_cards("TcJd"), parse_cards("KsKh")
    eq = equity_multiway(
        hole, board, [{(v1[0], v1[1]): 1.0}, {(v2[0], v2[1]): 1.0}], 2_000, random.Random(8)
    )
    assert eq == 0.0


def test_R_AI_04_multiway_stops_early_only_when_clear_of_every_threshold() -> None:
    hole, ranges = parse_cards("AsAh"), [full_range(), full_range()]
    clear = equity_multiway(hole, (), ranges, MULTIWAY_SAMPLES, random.Random(9), (0.4,))
    full = equity_multiway(hole, (), ranges, MULTIWAY_SAMPLES, random.Random(9))
    near = equity_multiway(hole, (), ranges, MULTIWAY_SAMPLES, random.Random(9), (0.4, 0.74))
    first = equity_multiway(hole, (), ranges, FIRST_BATCH, random.Random(9))
    assert abs(clear - 0.4) > DECISION_MARGIN
    assert clear == first  # the first batch alone decided
    assert near == full  # close to 0.74: ran on to the full count
    assert near != first


def test_R_AI_04_equity_is_a_function_of_the_bot_rng() -> None:
    args = (parse_cards("JcTc"), parse_cards("9c8d2s"), full_range())
    a = equity_vs_range(*args, 2_000, random.Random(7))
    b = equity_vs_range(*args, 2_000, random.Random(7))
    assert a == b


def test_R_AI_04_range_weights_are_honoured() -> None:
    # Mostly kings with a sliver of 7-2: close to AA vs KK, not the 50/50 blend.
    mixed = _range("KK") | {c: 0.02 for c in combos_of("72o")}
    eq = equity_vs_range(parse_cards("AsAh"), (), mixed, 20_000, random.Random(4))
    assert eq == pytest.approx(0.822, abs=0.015)


@pytest.mark.parametrize("cls", ["AA", "AKs", "T9s", "72o", "55"])
def test_R_AI_03_preflop_table_matches_a_fresh_measurement(cls: str) -> None:
    fresh = equity_vs_random_class(cls, 40_000, random.Random(cls))
    assert fresh == pytest.approx(EQUITY_VS_RANDOM[cls], abs=0.012)


def test_R_AI_03_preflop_classes_and_percentiles() -> None:
    assert len(EQUITY_VS_RANDOM) == 169
    assert sum(len(combos_of(c)) for c in EQUITY_VS_RANDOM) == 1326
    assert class_of(*parse_cards("KdAd")) == "AKs"
    assert class_of(*parse_cards("7h2c")) == "72o"
    assert percentile("AA") == pytest.approx(6 / 1326)
    assert percentile("72o") > 0.95
    assert percentile("AKs") < percentile("AKo") < percentile("KQo")


def test_R_AI_04_bluff_and_defence_frequencies_from_bet_size() -> None:
    assert bluff_share(100, 100) == pytest.approx(1 / 3)  # pot-sized bet
    assert bluff_share(50, 100) == pytest.approx(0.25)
    assert defence_share(100, 100) == pytest.approx(0.5)
    assert defence_share(50, 100) == pytest.approx(2 / 3)


def test_R_AI_04_continuing_range_keeps_the_strongest_share() -> None:
    board = parse_cards("Kh7d2c")
    weights = without_dead(_range("KK", "77", "QJo"), board)  # 6 sets among 18 combos
    kept = continuing_range(weights, board, 6 / 18)
    sets = [w for c, w in kept.items() if c[0] >> 2 == c[1] >> 2]
    junk = [w for c, w in kept.items() if c[0] >> 2 != c[1] >> 2]
    assert len(sets) == 6 and min(sets) == 1.0
    assert len(junk) == 12 and max(junk) < 0.1
