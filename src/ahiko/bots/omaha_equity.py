"""Pot-Limit Omaha equity by Monte Carlo on numpy batches: every sample deals each opponent
four cards and the rest of the board at once, and values every hand as Omaha does (exactly two
hole cards and three board cards, ahiko.bots.omaha_eval).

An opponent's range is read by weighting the samples, not by redrawing them: each opponent
dealt a hand outside what their play shows is rare (weight ``OUTSIDE``, softened over
``EDGE``), so the equity is the weighted share of the pots won. Two reads make a range: the
starting hands they play (the best ``preflop_width`` share of four-card hands) and, after the
flop, the hands they have made on the board so far (the best ``made_width`` share of the
hands dealt to them in the same batch, strongest first).

The generator is seeded from the bot's ``random.Random``: a decision follows from its view and
its rng. 3,000 samples heads-up take a few milliseconds; five opponents about ten times that.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from ahiko.poker.cards import DECK_SIZE, Card

from .omaha_eval import evaluate_omaha, preflop_percentile

OUTSIDE = 0.03  # weight of a hand well outside an opponent's range
EDGE = 0.08  # the range's edge is softened over this share of hands
PREFLOP_SHOWDOWN_SAMPLES = 20_000  # all in before the flop: Monte Carlo shares

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class OmahaRange:
    """What an opponent's play shows: 1.0 is no read (any hand)."""

    preflop_width: float = 1.0
    made_width: float = 1.0


ANY_HAND = OmahaRange()


def _in_range(percentile: Floats, width: float) -> Floats:
    """1 inside the best ``width`` share of hands, falling to ``OUTSIDE`` past its edge."""
    if width >= 1.0:
        return np.ones_like(percentile)
    past = np.maximum(percentile - width, 0.0)
    weight: Floats = np.maximum(np.exp(-past / EDGE), OUTSIDE)
    return weight


def _made_percentile(values: npt.NDArray[np.int32]) -> Floats:
    """Each value's share of the batch made stronger than it (0 = the strongest)."""
    order = np.sort(values)[::-1]
    stronger = np.searchsorted(-order, -values, side="left")
    share: Floats = stronger / len(values)
    return share


def _deal(
    known: Sequence[Card], cards: int, n: int, gen: np.random.Generator
) -> npt.NDArray[np.intp]:
    """``n`` rows of ``cards`` distinct cards from those not ``known``, in random order."""
    dead = set(known)
    deck = np.array([c for c in range(DECK_SIZE) if c not in dead], dtype=np.intp)
    keys = gen.random((n, len(deck)))
    chosen = np.argpartition(keys, cards - 1, axis=1)[:, :cards]
    # The chosen cards in the order of their keys: a uniformly random ordered deal.
    order = np.argsort(np.take_along_axis(keys, chosen, axis=1), axis=1)
    dealt: npt.NDArray[np.intp] = deck[np.take_along_axis(chosen, order, axis=1)]
    return dealt


def _pot_shares(values: npt.NDArray[np.int32]) -> Floats:
    """Seat 0's share of each pot: 1 won, 1/k tied among k best, 0 lost."""
    mine, best = values[:, 0], values[:, 1:].max(axis=1)
    tied = (values[:, 1:] == best[:, np.newaxis]).sum(axis=1)
    share: Floats = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (tied + 1), 0.0))
    return share


def omaha_equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    opponents: Sequence[OmahaRange],
    samples: int,
    rng: random.Random,
) -> float:
    """Share of the pot won against ``opponents``, each holding four cards of their range."""
    if not opponents:
        return 1.0
    gen = np.random.default_rng(rng.getrandbits(64))
    seats = len(opponents)
    dealt = _deal([*hole, *board], 4 * seats + 5 - len(board), samples, gen)
    their = dealt[:, : 4 * seats].reshape(samples, seats, 4)
    holes = np.concatenate([np.broadcast_to(np.asarray(hole), (samples, 1, 4)), their], axis=1)
    boards = np.concatenate(
        [
            np.broadcast_to(np.asarray(board, dtype=np.intp), (samples, len(board))),
            dealt[:, 4 * seats :],
        ],
        axis=1,
    )
    shares = _pot_shares(evaluate_omaha(holes, boards))
    weights = np.ones(samples)
    for seat, read in enumerate(opponents):
        if read.preflop_width < 1.0:
            weights *= _in_range(preflop_percentile(their[:, seat]), read.preflop_width)
        if read.made_width < 1.0 and len(board) >= 3:
            now = np.broadcast_to(np.asarray(board, dtype=np.intp), (samples, len(board)))
            made = evaluate_omaha(their[:, seat : seat + 1], now)[:, 0]
            weights *= _in_range(_made_percentile(made), read.made_width)
    return float((weights * shares).sum() / weights.sum())


def omaha_showdown_shares(
    holes: dict[int, tuple[Card, ...]], board: tuple[Card, ...], rng: random.Random
) -> dict[int, float]:
    """Heads-up pot shares of two known Omaha hands: exact over every remaining board after
    the flop, Monte Carlo (``PREFLOP_SHOWDOWN_SAMPLES``) before it."""
    (first, h1), (second, h2) = holes.items()
    known = [*h1, *h2, *board]
    missing = 5 - len(board)
    if board:
        rest = [c for c in range(DECK_SIZE) if c not in set(known)]
        runouts = np.array(list(combinations(rest, missing)), dtype=np.intp).reshape(-1, missing)
    else:
        gen = np.random.default_rng(rng.getrandbits(64))
        runouts = _deal(known, 5, PREFLOP_SHOWDOWN_SAMPLES, gen)
    n = len(runouts)
    boards = np.concatenate(
        [np.broadcast_to(np.asarray(board, dtype=np.intp), (n, len(board))), runouts], axis=1
    )
    pair = np.broadcast_to(np.array([h1, h2], dtype=np.intp), (n, 2, 4))
    share = float(_pot_shares(evaluate_omaha(pair, boards)).mean())
    return {first: share, second: 1.0 - share}
