"""Hold'em equity by Monte Carlo: eval7's heads-up simulator against a weighted range, and a
multiway simulator of our own (eval7 has none).

Only eval7's Monte Carlo is used: its exact enumeration functions give wrong answers
(FACTS.md). eval7's generator is reseeded from the bot's ``random.Random`` before every run,
so a bot's decisions are a function of its view and its rng.

Multiway runs are sequential when the caller names its decision thresholds: a first batch of
``FIRST_BATCH`` samples, and only when that estimate lies within ``DECISION_MARGIN`` of a
threshold does the run continue to the full sample count (>= 9,600 for +-1% at 95%,
FACTS.md). ``DECISION_MARGIN`` is over three standard errors of the first batch (at most
0.5/sqrt(1,500) = 1.3%), so an estimate outside it is on the same side of every threshold as
the full run's with probability above 99.8%: the +-1% precision holds where the decision
depends on it, and clear-cut spots cost a sixth of the time.
"""

from __future__ import annotations

import bisect
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
FIRST_BATCH = 1_500
DECISION_MARGIN = 0.04
# Draws of one opponent's hand clashing with cards already dealt before dealing anew.
REDRAWS = 50


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


class _MultiwaySimulator:
    """Showdowns of our hand against one hand drawn from each range, dealt without clashes.

    Each opponent's hand is drawn from its range, redrawn while it clashes with the cards
    already dealt (exact for unnarrowed ranges, a close approximation for weighted ones).
    Cards are bit masks for the clash tests; hand values are cached by the cards they depend
    on when they repeat (all cards fixed on the river, one open on the turn)."""

    def __init__(
        self,
        hole: Sequence[Card],
        board: Sequence[Card],
        ranges: Sequence[WeightedRange],
        rng: random.Random,
    ) -> None:
        self.rng = rng
        self.pools = [list(r) for r in ranges]
        self.cums = [list(accumulate(r.values())) for r in ranges]
        self.pool_masks = [[(1 << a) | (1 << b) for a, b in pool] for pool in self.pools]
        self.pool_cards = [[[E7_CARDS[a], E7_CARDS[b]] for a, b in pool] for pool in self.pools]
        known = 0
        for c in (*hole, *board):
            known |= 1 << c
        self.known = known
        self.deck = [c for c in range(DECK_SIZE) if not known >> c & 1]
        self.need = 5 - len(board)
        self.hole = [E7_CARDS[c] for c in hole]
        self.board = [E7_CARDS[c] for c in board]
        self.values: dict[int, int] = {}
        self.won = 0.0
        self.done = 0

    def estimate(self) -> float:
        return self.won / self.done if self.done else 0.5

    def run(self, samples: int) -> None:
        """Add ``samples`` showdowns (fewer only if the ranges can hardly be dealt together)."""
        rand, bisect_right = self.rng.random, bisect.bisect_right
        deck, size, need, values = self.deck, len(self.deck), self.need, self.values
        board, hole, known = self.board, self.hole, self.known
        seats = [
            (cum, cum[-1], len(cum) - 1, masks, cards)
            for cum, masks, cards in zip(self.cums, self.pool_masks, self.pool_cards, strict=True)
        ]
        evaluate = eval7.evaluate
        cached = need <= 1  # with more cards to come values rarely repeat
        won, done, target = self.won, self.done, self.done + samples
        attempts = 0
        while done < target and attempts < 20 * samples:
            attempts += 1
            used = known
            hands: list[tuple[int, list[eval7.Card]]] = []
            for cum, total, last, masks, cards in seats:
                for _ in range(REDRAWS):
                    i = bisect_right(cum, rand() * total, 0, last)
                    m = masks[i]
                    if not used & m:
                        break
                else:
                    break  # this range is (nearly) blocked by the others: deal again
                used |= m
                hands.append((m, cards[i]))
            else:
                runout_mask = 0
                full_board = board[:]
                for _ in range(need):
                    c = deck[int(rand() * size)]
                    while used >> c & 1:
                        c = deck[int(rand() * size)]
                    used |= 1 << c
                    runout_mask |= 1 << c
                    full_board.append(E7_CARDS[c])
                if cached:
                    mine = values.get(runout_mask)
                    if mine is None:
                        mine = values[runout_mask] = evaluate(hole + full_board)
                    others = []
                    for m, cards in hands:
                        key = (m | runout_mask) << DECK_SIZE  # apart from our own keys
                        v = values.get(key)
                        if v is None:
                            v = values[key] = evaluate(cards + full_board)
                        others.append(v)
                else:
                    mine = evaluate(hole + full_board)
                    others = [evaluate(cards + full_board) for _, cards in hands]
                best = max(others)
                if mine > best:
                    won += 1.0
                elif mine == best:
                    won += 1.0 / (others.count(best) + 1)
                done += 1
        self.won, self.done = won, done


def equity_multiway(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: Sequence[WeightedRange],
    samples: int,
    rng: random.Random,
    thresholds: Sequence[float] = (),
) -> float:
    """Share of the pot won against several opponents, each holding a hand of its range.

    With ``thresholds`` (the equities the caller's decision turns on) the run stops after
    ``FIRST_BATCH`` samples when the estimate is clear of all of them by ``DECISION_MARGIN``.
    """
    if len(opponents) == 1:
        return equity_vs_range(hole, board, opponents[0], samples, rng)
    known = list(hole) + list(board)
    ranges = [without_dead(r, known) or full_range(known) for r in opponents]
    sim = _MultiwaySimulator(hole, board, ranges, rng)
    if thresholds and samples > FIRST_BATCH:
        sim.run(FIRST_BATCH)
        est = sim.estimate()
        if all(abs(est - t) > DECISION_MARGIN for t in thresholds):
            return est
    sim.run(samples - sim.done)
    return sim.estimate()
