"""Omaha hand values for numpy batches, equal to ``ranking.omaha_strengths`` (eval7's values,
higher wins): the best five of exactly two of the four hole cards and three of the board.

A hand is 6 hole pairs times 10 board triples, 60 five-card hands, each valued by table:
without a flush a five-card hand's value depends only on its multiset of ranks, whose sum of
rank keys (ahiko.bots.vector_eval's, distinct for every multiset of up to seven cards) indexes
a table built once per process from eval7 (6,175 multisets, 26 MB); when the two hole cards and
the three board cards share one suit the hand is a flush (or straight flush), read from a
table of the 1,287 flushes by the mask of its ranks. A flush's five ranks differ, so the rank
table's value (a straight or high card) is the one it replaces.

Also here, the pre-flop strength of a four-card hand (``preflop_percentile``): a points count of
pairs, suits, connectedness and high cards (the Hutchison tradition), ranked against every
hand, for the bots' starting-hand choices and the ranges they give opponents.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from math import comb

import eval7
import numpy as np
import numpy.typing as npt

from ahiko.poker.cards import DECK_SIZE, make_card

from .cards7 import E7_CARDS
from .vector_eval import RANK_KEYS, Cards, Values

HOLE_PAIRS = np.array(list(itertools.combinations(range(4), 2)), dtype=np.intp)  # (6, 2)
# The board's triples by its size: a flop has one, a turn four, a river ten.
BOARD_TRIPLES = {
    size: np.array(list(itertools.combinations(range(size), 3)), dtype=np.intp)
    for size in (3, 4, 5)
}
ACE = 12


@dataclass(frozen=True)
class FiveCardTables:
    by_rank_key: Values  # sum of five cards' rank keys -> value of those ranks, no flush
    by_flush_ranks: Values  # 13-bit mask of a flush's five ranks -> its value


@functools.cache
def five_card_tables() -> FiveCardTables:
    fives = np.array(list(itertools.combinations_with_replacement(range(13), 5)), np.intp)
    fives = fives[fives[:, 4] != fives[:, 0]]  # at most four cards a rank
    # Suits by position (0, 1, 2, 3, 0): never five of one suit, so never a flush.
    by_position = [[E7_CARDS[make_card(r, i % 4)] for r in range(13)] for i in range(5)]
    evaluate = eval7.evaluate
    values = [evaluate([by_position[i][r] for i, r in enumerate(hand)]) for hand in fives.tolist()]
    keys = RANK_KEYS[fives].sum(axis=1)
    by_rank_key = np.zeros(int(keys.max()) + 1, dtype=np.int32)
    by_rank_key[keys] = values
    by_flush_ranks = np.zeros(1 << 13, dtype=np.int32)
    spades = [E7_CARDS[make_card(r, 3)] for r in range(13)]
    for suited in itertools.combinations(range(13), 5):
        by_flush_ranks[sum(1 << r for r in suited)] = evaluate([spades[r] for r in suited])
    return FiveCardTables(by_rank_key, by_flush_ranks)


def evaluate_omaha(holes: Cards, boards: Cards) -> Values:
    """Values of every player's Omaha hand on each board: ``holes`` (n, players, 4) and
    ``boards`` (n, 3 to 5) give (n, players) (a flop or turn: the hand made so far)."""
    t = five_card_tables()
    holes, boards = np.asarray(holes, dtype=np.intp), np.asarray(boards, dtype=np.intp)
    pair_cards = holes[..., HOLE_PAIRS]  # (n, p, 6, 2)
    triple_cards = boards[:, BOARD_TRIPLES[boards.shape[1]]]  # (n, triples, 3)
    pr, ps = pair_cards >> 2, pair_cards & 3
    tr, ts = triple_cards >> 2, triple_cards & 3
    pair_key = RANK_KEYS[pr[..., 0]] + RANK_KEYS[pr[..., 1]]
    triple_key = RANK_KEYS[tr[..., 0]] + RANK_KEYS[tr[..., 1]] + RANK_KEYS[tr[..., 2]]
    values = t.by_rank_key[pair_key[..., :, np.newaxis] + triple_key[:, np.newaxis, np.newaxis, :]]

    pair_suit = np.where(ps[..., 0] == ps[..., 1], ps[..., 0], -1)  # (n, p, 6)
    triple_suit = np.where((ts[..., 0] == ts[..., 1]) & (ts[..., 1] == ts[..., 2]), ts[..., 0], -2)
    flush = pair_suit[..., :, np.newaxis] == triple_suit[:, np.newaxis, np.newaxis, :]
    if flush.any():
        pair_mask = (1 << pr[..., 0]) | (1 << pr[..., 1])
        triple_mask = (1 << tr[..., 0]) | (1 << tr[..., 1]) | (1 << tr[..., 2])
        rows = np.flatnonzero(flush.any(axis=(1, 2, 3)))  # a suited triple on board: few rows
        masks = pair_mask[rows, ..., np.newaxis] | triple_mask[rows, np.newaxis, np.newaxis, :]
        values[rows] = np.where(flush[rows], t.by_flush_ranks[masks], values[rows])
    best: Values = values.reshape(*values.shape[:2], -1).max(axis=2)
    return best


def preflop_points(holes: Cards) -> npt.NDArray[np.float64]:
    """Points of four-card hands ``holes`` (..., 4): higher plays better before the flop."""
    holes = np.asarray(holes, dtype=np.intp)
    ranks, suits = holes >> 2, holes & 3
    points = np.maximum(ranks - 7, 0).sum(axis=-1) * 0.5  # tens and up
    rank_counts = (ranks[..., :, np.newaxis] == np.arange(13)).sum(axis=-2)  # (..., 13)
    pair_value = np.where(rank_counts == 2, 2.0 + 0.6 * np.arange(13), 0.0).sum(axis=-1)
    trips = (rank_counts >= 3).sum(axis=-1)
    points += pair_value - 6.0 * trips  # a third card of a rank is nearly dead
    suit_counts = (suits[..., :, np.newaxis] == np.arange(4)).sum(axis=-2)  # (..., 4)
    # A suit is worth its highest card: a flush draw to the ace is the nut draw.
    top_of_suit = np.where(suits[..., :, np.newaxis] == np.arange(4), ranks[..., :, np.newaxis], -1)
    top = top_of_suit.max(axis=-2)
    suited = suit_counts >= 2
    points += np.where(suited, 1.5 + 0.25 * top + np.where(top == ACE, 1.5, 0.0), 0.0).sum(axis=-1)
    points -= np.where(suit_counts >= 3, suit_counts - 2, 0).sum(axis=-1) * 1.5
    # Connectedness: the gaps between the distinct ranks (a wheel ace counts low too).
    present = rank_counts > 0
    distinct = np.sort(np.where(present, np.arange(13), -10), axis=-1)[..., -4:]
    gaps = np.diff(distinct, axis=-1)
    valid = distinct[..., :-1] >= 0
    link = np.select([gaps == 1, gaps == 2, gaps == 3], [4.5, 3.0, 1.5], 0.0)
    points += np.where(valid, link, 0.0).sum(axis=-1)
    result: npt.NDArray[np.float64] = points
    return result


@functools.cache
def percentile_table() -> npt.NDArray[np.float32]:
    """The percentile of every four-card hand, by its index (``hand_index``): built once per
    process from the points of all 270,725 hands (about 0.3 s, 1 MB)."""
    every = np.array(list(itertools.combinations(range(DECK_SIZE), 4)), dtype=np.intp)
    points = preflop_points(every)
    ranked = np.sort(points)
    better = len(ranked) - np.searchsorted(ranked, points, side="right")
    table = np.empty(len(every), dtype=np.float32)
    table[hand_index(every)] = better / len(ranked)
    return table


# C(card, k) for k = 1..4: a sorted hand's rank among all hands in colex order (combinadic).
_CHOOSE = np.array(
    [[comb(card, k) for card in range(DECK_SIZE)] for k in range(1, 5)], dtype=np.intp
)


def hand_index(holes: Cards) -> npt.NDArray[np.intp]:
    """Each four-card hand's index among all of them (its cards in any order)."""
    ordered = np.sort(np.asarray(holes, dtype=np.intp), axis=-1)
    index: npt.NDArray[np.intp] = sum(_CHOOSE[k][ordered[..., k]] for k in range(4))
    return index


def preflop_percentile(holes: Cards) -> npt.NDArray[np.float64]:
    """Share of four-card hands with more points than each of ``holes`` (..., 4): 0 = the best
    hands, 1 = the worst, the Omaha counterpart of hold'em's ``preflop.hand_percentile``."""
    result: npt.NDArray[np.float64] = percentile_table()[hand_index(holes)].astype(np.float64)
    return result


def hand_percentile(hole: tuple[int, ...]) -> float:
    """``preflop_percentile`` of one hand."""
    return float(preflop_percentile(np.array(hole))[()])
