"""Hold'em equity by Monte Carlo: eval7's heads-up simulator against a weighted range, and a
multiway simulator of our own (eval7 has none).

Only eval7's Monte Carlo is used: its exact enumeration functions give wrong answers
(FACTS.md). eval7's generator is reseeded from the bot's ``random.Random`` before every run,
so a bot's decisions are a function of its view and its rng.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import accumulate

import eval7
import eval7.xorshift_rand as e7_rand

from ahiko.poker.cards import DECK_SIZE, Card

from .cards7 import E7_CARDS

Combo = tuple[Card, Card]
WeightedRange = dict[Combo, float]  # combo -> weight in (0, 1]

ALL_COMBOS: tuple[Combo, ...] = tuple(
    (a, b) for a in range(DECK_SIZE) for b in range(a + 1, DECK_SIZE)
)
# Combos drawn (by weight) from a range to stand for it in eval7's uniform simulation.
RANGE_SAMPLE = 1_500


def seed_from(rng: random.Random) -> None:
    e7_rand.seed(rng.getrandbits(62) | 1)


def without_dead(rng_range: WeightedRange, dead: Sequence[Card]) -> WeightedRange:
    d = set(dead)
    return {c: w for c, w in rng_range.items() if c[0] not in d and c[1] not in d and w > 0}


def full_range(dead: Sequence[Card] = ()) -> WeightedRange:
    d = set(dead)
    return {c: 1.0 for c in ALL_COMBOS if c[0] not in d and c[1] not in d}


def e7_range(combos: Sequence[Combo]) -> eval7.HandRange:
    """An eval7 range holding these combos (built directly: no range-string parsing)."""
    hr = eval7.HandRange.__new__(eval7.HandRange)
    hr.string = ""
    hr.tokens = []
    hr.hands = [((E7_CARDS[a], E7_CARDS[b]), 1.0) for a, b in combos]
    return hr


def _e7_weighted(weighted: WeightedRange, rng: random.Random) -> eval7.HandRange:
    """eval7 draws uniformly from its list, so the list is a weighted sample of the range."""
    combos = list(weighted)
    if len(combos) <= 1:
        return e7_range(combos)
    return e7_range(rng.choices(combos, weights=list(weighted.values()), k=RANGE_SAMPLE))


def equity_vs_range(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponent: WeightedRange,
    samples: int,
    rng: random.Random,
) -> float:
    """Share of the pot won against one opponent holding a hand of ``opponent`` (ties = half)."""
    live = without_dead(opponent, list(hole) + list(board))
    if not live:
        return 0.5
    seed_from(rng)
    return float(
        eval7.py_hand_vs_range_monte_carlo(
            [E7_CARDS[c] for c in hole],
            _e7_weighted(live, rng),
            [E7_CARDS[c] for c in board],
            samples,
        )
    )


def equity_multiway(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: Sequence[WeightedRange],
    samples: int,
    rng: random.Random,
) -> float:
    """Share of the pot won against several opponents, each holding a hand of its range."""
    if len(opponents) == 1:
        return equity_vs_range(hole, board, opponents[0], samples, rng)
    known = list(hole) + list(board)
    ranges = [without_dead(r, known) or full_range(known) for r in opponents]
    pools = [list(r) for r in ranges]
    cums = [list(accumulate(r.values())) for r in ranges]
    deck = [c for c in range(DECK_SIZE) if c not in set(known)]
    need = 5 - len(board)
    e7_hole = [E7_CARDS[c] for c in hole]
    e7_board = [E7_CARDS[c] for c in board]
    draws = [
        rng.choices(pool, cum_weights=cum, k=samples * 2)
        for pool, cum in zip(pools, cums, strict=False)
    ]
    won = 0.0
    done = 0
    for t in range(samples * 2):
        if done >= samples:
            break
        used = set()
        hands = []
        clash = False
        for d in draws:
            a, b = d[t]
            if a in used or b in used:
                clash = True
                break
            used.add(a)
            used.add(b)
            hands.append((a, b))
        if clash:
            continue
        rest = rng.sample(deck, need + 2 * len(hands))
        runout = [c for c in rest if c not in used][:need]
        full_board = e7_board + [E7_CARDS[c] for c in runout]
        mine = eval7.evaluate(e7_hole + full_board)
        best_other = max(eval7.evaluate([E7_CARDS[a], E7_CARDS[b], *full_board]) for a, b in hands)
        if mine > best_other:
            won += 1.0
        elif mine == best_other:
            ties = 1 + sum(
                1
                for a, b in hands
                if eval7.evaluate([E7_CARDS[a], E7_CARDS[b], *full_board]) == mine
            )
            won += 1.0 / ties
        done += 1
    return won / done if done else 0.5
