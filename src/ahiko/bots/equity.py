"""Hold'em equity by Monte Carlo: eval7's heads-up simulator against a weighted range, and a
multiway simulator of our own (eval7 has none) on numpy batches.

Only eval7's Monte Carlo is used: its exact enumeration functions give wrong answers
(FACTS.md). eval7's generator, and the numpy generator of the multiway simulator, are seeded
from the bot's ``random.Random`` before every run, so a bot's decisions are a function of its
view and its rng.

The multiway simulator deals all its samples at once in numpy arrays: each opponent's hand
drawn from its weighted range, then the run-out, and every hand's value from
ahiko.bots.vector_eval (eval7's values). 9,600 pre-flop samples against eight ranges take
about 13 ms (one eval7 call per hand took 130 ms), so every run goes to the sample count asked
for (>= 9,600 for +-1% at 95%, FACTS.md), with no early stop.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from itertools import chain
from math import ceil

import eval7
import eval7.xorshift_rand as e7_rand
import numpy as np
import numpy.typing as npt

from ahiko.poker.cards import DECK_SIZE, Card

from .cards7 import E7_CARDS
from .vector_eval import evaluate_holdem

Combo = tuple[Card, Card]
WeightedRange = dict[Combo, float]  # combo -> weight in (0, 1]

ALL_COMBOS: tuple[Combo, ...] = tuple(
    (a, b) for a in range(DECK_SIZE) for b in range(a + 1, DECK_SIZE)
)
# Combos drawn (by weight) from a range to stand for it in eval7's uniform simulation.
RANGE_SAMPLE = 1_500
# Draws of one opponent's hand clashing with cards already dealt before the sample is dropped.
REDRAWS = 50
# Deals tried (dropped ones included) at most per sample asked for, and at most per batch.
MAX_DEALS = 20
BATCH = 50_000
GUIDE_BUCKETS = 4  # per combo of a range (_Range)
GUIDE_STEPS = 4
# eval7 has one generator for the process; a seed and the run it seeds must not interleave
# with another thread's (ahiko.rooms.thinking), or a decision would not follow from its rng.
_E7_GENERATOR = threading.Lock()
CARD_BITS = np.left_shift(np.uint64(1), np.arange(DECK_SIZE, dtype=np.uint64))


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
    hand, on_board = [E7_CARDS[c] for c in hole], [E7_CARDS[c] for c in board]
    with _E7_GENERATOR:  # eval7's generator is global: bots on other threads wait their turn
        seed_from(rng)
        weighted = _e7_weighted(live, rng)
        return float(eval7.py_hand_vs_range_monte_carlo(hand, weighted, on_board, samples))


class _Range:
    """A weighted range as arrays, drawn from by inverse transform with a guide table: each
    of ``GUIDE_BUCKETS`` per combo equal slices of the cumulative weight knows the first combo
    it can fall in, so a draw starts there and seldom steps on (a binary search for every
    draw would cost more than the rest of the simulation). Draws still short of their combo
    after ``GUIDE_STEPS`` steps (slices crowded with tiny weights) are binary-searched."""

    def __init__(self, weighted: WeightedRange, known: Sequence[Card]) -> None:
        """The combos of ``weighted`` clear of the ``known`` cards (with a positive weight),
        or every combo clear of them if there are none."""
        cards = np.fromiter(chain.from_iterable(weighted), np.intp, 2 * len(weighted))
        cards = cards.reshape(-1, 2)
        weights = np.fromiter(weighted.values(), np.float64, len(weighted))
        masks = CARD_BITS[cards[:, 0]] | CARD_BITS[cards[:, 1]]
        live = ((masks & CARD_BITS[list(known)].sum()) == 0) & (weights > 0)
        if not live.any():
            cards = np.array(list(full_range(known)), dtype=np.intp)
            weights = np.ones(len(cards))
            masks = CARD_BITS[cards[:, 0]] | CARD_BITS[cards[:, 1]]
            live = np.ones(len(cards), dtype=bool)
        self.cards, self.masks = cards[live], masks[live]
        cumulative = np.cumsum(weights[live])
        self.buckets = GUIDE_BUCKETS * len(cumulative)
        self.bounds = cumulative * (self.buckets / cumulative[-1])
        self.bounds[-1] = np.inf  # no draw can pass the last combo
        # One bucket past the end in case a draw rounds up to it.
        self.guide = np.searchsorted(self.bounds, np.arange(self.buckets + 1), side="right")

    def draw(self, gen: np.random.Generator, n: int) -> npt.NDArray[np.intp]:
        """``n`` combo indices, each with probability proportional to its weight."""
        x = gen.random(n) * self.buckets
        i = self.guide[x.astype(np.intp)]
        rows = np.flatnonzero(self.bounds[i] <= x)
        for _ in range(GUIDE_STEPS):
            if not rows.size:
                return i
            i[rows] += 1
            rows = rows[self.bounds[i[rows]] <= x[rows]]
        i[rows] = np.searchsorted(self.bounds, x[rows], side="right")
        return i


def _showdowns(
    hole: Sequence[Card],
    board: Sequence[Card],
    ranges: Sequence[_Range],
    gen: np.random.Generator,
    n: int,
    keep: int,
) -> tuple[float, int]:
    """Pot shares won in ``n`` deals, the first ``keep`` that could be dealt, and how many
    those were.

    Each opponent's hand is drawn from its range, the rows that clash with the cards already
    dealt redrawn up to ``REDRAWS`` times (exact for unnarrowed ranges, a close approximation
    for weighted ones); rows still clashing are dropped. Then the run-out is dealt from the
    cards left in each row."""
    known = list(hole) + list(board)
    used = np.full(n, CARD_BITS[known].sum(), dtype=np.uint64)
    dealt = np.ones(n, dtype=bool)
    holes = np.empty((n, len(ranges) + 1, 2), dtype=np.intp)
    holes[:, 0] = hole
    for seat, r in enumerate(ranges, start=1):
        drawn = r.draw(gen, n)
        clash = (used & r.masks[drawn]) != 0
        for _ in range(REDRAWS):
            rows = np.flatnonzero(clash)
            if not rows.size:
                break
            drawn[rows] = r.draw(gen, rows.size)
            clash[rows] = (used[rows] & r.masks[drawn[rows]]) != 0
        dealt &= ~clash
        used |= r.masks[drawn]
        holes[:, seat] = r.cards[drawn]
    kept = np.flatnonzero(dealt)[:keep]
    holes, used = holes[kept], used[kept]
    n = len(used)

    deck = np.array([c for c in range(DECK_SIZE) if c not in known], dtype=np.intp)
    boards = np.empty((n, 5), dtype=np.intp)
    boards[:, : len(board)] = board
    for k in range(len(board), 5):
        cards = deck[gen.integers(0, len(deck), n)]
        rows = np.flatnonzero(used & CARD_BITS[cards])
        while rows.size:
            cards[rows] = deck[gen.integers(0, len(deck), rows.size)]
            rows = rows[(used[rows] & CARD_BITS[cards[rows]]) != 0]
        used |= CARD_BITS[cards]
        boards[:, k] = cards

    values = evaluate_holdem(holes, boards)
    mine, theirs = values[:, 0], values[:, 1:].T
    best = np.maximum.reduce(theirs)
    tied = np.add.reduce(theirs == best, dtype=np.intp)
    won = np.count_nonzero(mine > best) + float((1.0 / (tied[mine == best] + 1)).sum())
    return won, n


def equity_multiway(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: Sequence[WeightedRange],
    samples: int,
    rng: random.Random,
) -> float:
    """Share of the pot won against several opponents, each holding a hand of its range
    (a win counts 1, a tie among k best hands 1/k)."""
    if len(opponents) == 1:
        return equity_vs_range(hole, board, opponents[0], samples, rng)
    known = list(hole) + list(board)
    ranges = [_Range(r, known) for r in opponents]
    gen = np.random.default_rng(rng.getrandbits(64))
    won, done, tried = 0.0, 0, 0
    while done < samples and tried < MAX_DEALS * samples:
        # When deals get dropped, ask for enough to finish at the rate seen so far.
        rate = max(done / tried, 0.05) if tried else 1.0
        n = min(BATCH, MAX_DEALS * samples - tried, ceil((samples - done) / rate))
        w, d = _showdowns(hole, board, ranges, gen, n, samples - done)
        won, done, tried = won + w, done + d, tried + n
    return won / done if done else 0.5
