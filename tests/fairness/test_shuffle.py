"""R-FD-01: Fisher–Yates with cryptographic randomness; fresh salts per card per hand."""

from __future__ import annotations

import ast
import itertools
import secrets
from pathlib import Path

import pytest

from ahiko.fairness.shuffle import fisher_yates, fresh_salts, shuffled_deck

SRC = Path(__file__).resolve().parents[2] / "src" / "ahiko"
SHUFFLES = 20_000


def _scripted(outcomes: tuple[int, ...]):
    queue = list(outcomes)

    def randbelow(bound: int) -> int:
        value = queue.pop(0)
        assert 0 <= value < bound
        return value

    return randbelow


def test_R_FD_01_enumerated_shuffle_gives_each_of_24_orders_exactly_once() -> None:
    # randbelow is called with 4, 3, 2 in that order; enumerate every outcome sequence
    orders = [
        tuple(fisher_yates("abcd", _scripted((a, b, c))))
        for a, b, c in itertools.product(range(4), range(3), range(2))
    ]
    assert len(orders) == 24
    assert sorted(orders) == sorted(itertools.permutations("abcd"))


def test_R_FD_01_randbelow_is_asked_for_i_plus_one_from_the_top() -> None:
    bounds: list[int] = []
    fisher_yates(range(6), lambda b: bounds.append(b) or 0)
    assert bounds == [6, 5, 4, 3, 2]


def test_R_FD_01_a_randbelow_outside_its_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="randbelow"):
        fisher_yates(range(5), lambda b: b)


def _chi_square(shuffle) -> float:
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(SHUFFLES):
        for position, card in enumerate(shuffle()):
            counts[card][position] += 1
    expected = SHUFFLES / 52
    return sum((c - expected) ** 2 / expected for row in counts for c in row)


# df = 51 * 51 = 2601, sd = sqrt(2 * 2601) ~ 72: mean + 6 sd keeps false alarms below 1e-8
CHI_SQUARE_LIMIT = 2601 + 6 * 72


def test_R_FD_01_card_by_position_chi_square_is_within_six_sigma() -> None:
    statistic = _chi_square(shuffled_deck)
    assert statistic < CHI_SQUARE_LIMIT, statistic


def test_R_FD_01_chi_square_catches_the_naive_swap_any_shuffle() -> None:
    def naive() -> list[int]:
        deck = list(range(52))
        for i in range(52):
            j = secrets.randbelow(52)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    assert _chi_square(naive) > CHI_SQUARE_LIMIT


# Modules exempt from this test. None: any module of these packages importing ``random`` fails.
NOT_DEALING: set[str] = set()


@pytest.mark.parametrize("package", ["fairness", "poker"])
def test_R_FD_01_no_random_module_in_dealing_code(package: str) -> None:
    sources = sorted((SRC / package).rglob("*.py"))
    assert sources, "no sources found"
    offenders = []
    for path in sources:
        if path.relative_to(SRC).as_posix() in NOT_DEALING:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "random"]
    assert offenders == []


def test_R_FD_01_salts_are_32_bytes_and_unique_over_many_hands() -> None:
    salts = [salt for _ in range(2_000) for salt in fresh_salts(52)]
    assert {len(s) for s in salts} == {32}
    assert len(set(salts)) == len(salts)


def test_R_FD_01_a_shuffled_deck_holds_every_card_once() -> None:
    assert sorted(shuffled_deck()) == list(range(52))
