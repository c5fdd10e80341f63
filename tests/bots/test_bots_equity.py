"""Hold'em equity on eval7's Monte Carlo (R-AI-04), checked against known equities."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ahiko.bots.arena import showdown_equities
from ahiko.bots.equity import (
    _Range,
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


def test_R_AI_04_multiway_three_way_river_matches_exact_showdowns() -> None:
    # On the river with one combo each the equity is exact: AA loses to the straight.
    hole, board = parse_cards("AsAh"), parse_cards("9c8d7s2h2c")
    v1, v2 = parse_cards("TcJd"), parse_cards("KsKh")
    eq = equity_multiway(
        hole, board, [{(v1[0], v1[1]): 1.0}, {(v2[0], v2[1]): 1.0}], 2_000, random.Random(8)
    )
    assert eq == 0.0


# Multiway references: the scalar simulator this numpy one replaced (one eval7.evaluate per
# hand, the same redraw-on-clash dealing), 2,000,000 samples each (95% within +-0.07%).
# Case: (hole, board, opponents' ranges as classes or None for any hand, reference equity).
MULTIWAY_REFERENCES = {
    "AA vs KK vs QQ pre-flop": ("AsAh", "", [["KK"], ["QQ"]], 0.6697),
    "JTs vs two random hands": ("JdTd", "", [None, None], 0.4200),
    "AKs vs five random hands": ("AsKs", "", [None] * 5, 0.3107),
    "flop, four-way": ("AhKh", "Qh7h2c", [["QQ", "77", "22", "AQs", "AQo"], None, None], 0.3477),
    "turn, three-way": ("9s8s", "7s6d2cKh", [["KK", "AK", "KQ", "77", "22"], None], 0.1804),
}


@pytest.mark.parametrize("case", MULTIWAY_REFERENCES)
def test_R_AI_04_multiway_equity_matches_a_long_reference_run(case: str) -> None:
    hole, board, classes, reference = MULTIWAY_REFERENCES[case]
    ranges = [full_range() if c is None else _range(*c) for c in classes]
    eq = equity_multiway(parse_cards(hole), parse_cards(board), ranges, 40_000, random.Random(case))
    assert eq == pytest.approx(reference, abs=0.01)  # four standard errors


def test_R_AI_04_multiway_weights_are_honoured() -> None:
    # Mostly kings with a sliver of 7-2, and a narrow range; reference as above: 0.6779.
    mostly_kings = _range("KK") | {c: 0.02 for c in combos_of("72o")}
    ranges = [mostly_kings, _range("QQ", "JJ", "AKs")]
    eq = equity_multiway(parse_cards("AsAh"), (), ranges, 40_000, random.Random(10))
    assert eq == pytest.approx(0.6779, abs=0.01)


def test_R_AI_04_multiway_combo_at_full_weight_among_tiny_ones_acts_alone() -> None:
    hole, board = parse_cards("AsAh"), parse_cards("Kh9d4c")
    kings = parse_cards("KdKc")
    one = {(kings[0], kings[1]): 1.0}
    mostly_one = {c: 1e-9 for c in full_range(hole + board)} | one
    others = [_range("QQ", "JJ")]
    alone = equity_multiway(hole, board, [one, *others], 20_000, random.Random(11))
    among = equity_multiway(hole, board, [mostly_one, *others], 20_000, random.Random(11))
    assert alone < 0.1  # aces against a set of kings
    assert among == pytest.approx(alone, abs=0.002)


def test_R_AI_04_weighted_draws_follow_the_weights() -> None:
    weights = [1.0, 0.5, 0.25, 1e-4, 0.0, 2.0]
    combos = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11)]
    r = _Range(dict(zip(combos, weights, strict=True)), known=parse_cards("AsAh"))
    drawn = r.cards[r.draw(np.random.default_rng(12), 400_000)]
    total = sum(weights)
    for combo, w in zip(combos, weights, strict=True):
        count = int(np.all(drawn == combo, axis=1).sum())
        expected = 400_000 * w / total
        assert abs(count - expected) <= 4 * expected**0.5 + 1


def test_R_AI_04_weighted_draws_invert_the_cumulative_weights_exactly() -> None:
    # Slices crowded with tiny weights included: a draw is the combo its uniform number
    # falls in, as a binary search over the cumulative weights finds it.
    weights = [1e-7] * 300 + [1.0] + [1e-7] * 300 + [0.5] + [0.01] * 100
    combos = list(full_range(parse_cards("AsAh")))[: len(weights)]
    r = _Range(dict(zip(combos, weights, strict=True)), known=parse_cards("AsAh"))
    drawn = r.draw(np.random.default_rng(18), 100_000)
    uniform = np.random.default_rng(18).random(100_000)
    cumulative = np.cumsum(weights)
    expected = np.searchsorted(cumulative / cumulative[-1], uniform, side="right")
    assert np.array_equal(drawn, expected)


def test_R_AI_04_multiway_drops_deals_the_ranges_cannot_share() -> None:
    # The second range holds only KhKd: deals where the first range takes it are dropped,
    # which leaves AA against QsQd and KhKd.
    hole = parse_cards("AsAh")
    kk, qq = parse_cards("KhKd"), parse_cards("QsQd")
    kings, queens = {(kk[0], kk[1]): 1.0}, {(qq[0], qq[1]): 1.0}
    blocked = equity_multiway(hole, (), [kings | queens, kings], 20_000, random.Random(13))
    dealt = equity_multiway(hole, (), [queens, kings], 20_000, random.Random(14))
    assert blocked == pytest.approx(dealt, abs=0.015)
    assert equity_multiway(hole, (), [kings, kings], 1_000, random.Random(15)) == 0.5


def test_R_AI_04_multiway_equity_is_a_function_of_the_bot_rng() -> None:
    hole, ranges = parse_cards("9h9d"), [full_range(), _range("AK", "QQ"), full_range()]
    a = equity_multiway(hole, (), ranges, MULTIWAY_SAMPLES, random.Random(16))
    b = equity_multiway(hole, (), ranges, MULTIWAY_SAMPLES, random.Random(16))
    c = equity_multiway(hole, (), ranges, MULTIWAY_SAMPLES, random.Random(17))
    assert a == b
    assert a != c


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


def test_heads_up_equity_follows_from_its_rng_while_bots_on_other_threads_run_eval7() -> None:
    import threading

    from ahiko.bots.equity import equity_vs_range, full_range

    hole, board = (48, 49), (0, 13, 26)
    villain = full_range(hole + board)
    expected = equity_vs_range(hole, board, villain, 20_000, random.Random(5))
    stop = threading.Event()

    def other_bot(seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set():
            equity_vs_range((4, 9), (), full_range((4, 9)), 2_000, rng)

    others = [threading.Thread(target=other_bot, args=(k,)) for k in range(2)]
    for t in others:
        t.start()
    try:
        for _ in range(20):
            assert equity_vs_range(hole, board, villain, 20_000, random.Random(5)) == expected
    finally:
        stop.set()
        for t in others:
            t.join()
