"""Seven-card hand values for numpy batches, equal to ``eval7.evaluate``'s (higher wins).

Cards are Ahiko's ids (``rank * 4 + suit``, ahiko.poker.cards). Two tables, built once per
process on first use from eval7 itself (about 0.1 s, 31 MB):

- Without a flush a hand's value depends only on its multiset of ranks. Each rank has a key
  (SKPokerEval's) such that the sum of seven keys differs for every multiset with at most four
  cards a rank, so the sum indexes a table of the 49,205 multisets' values.
- With five or more cards of one suit among seven, the other two cannot make a full house or
  quads, so the best hand is the flush (or straight flush) of that suit: a table over the
  13-bit mask of the suit's ranks.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import eval7
import numpy as np
import numpy.typing as npt

from ahiko.poker.cards import make_card

from .cards7 import E7_CARDS

RANK_KEYS = np.array(
    [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.intp
)
# Three bits per suit: the sum over seven cards holds each suit's count.
SUIT_KEYS = np.array([1, 1 << 3, 1 << 6, 1 << 9], dtype=np.intp)
NO_FLUSH = -1

Cards = npt.NDArray[np.integer]
Values = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Tables:
    by_rank_key: Values  # sum of the seven cards' rank keys -> value without a flush
    by_flush_ranks: Values  # 13-bit mask of the flush suit's ranks -> value
    flush_suit: npt.NDArray[np.intp]  # sum of the seven cards' suit keys -> suit or NO_FLUSH


def rank_multisets() -> npt.NDArray[np.intp]:
    """The 49,205 sorted multisets of seven ranks with at most four of a rank, one a row."""
    ranks = np.array(list(itertools.combinations_with_replacement(range(13), 7)), np.intp)
    at_most_four: npt.NDArray[np.intp] = ranks[(ranks[:, 4:] != ranks[:, :3]).all(axis=1)]
    return at_most_four


@functools.cache
def tables() -> Tables:
    sevens = rank_multisets()
    # Suits by position in the sorted ranks: copies of a rank get different suits and no
    # suit gets more than two cards, so no flush.
    by_position = [[E7_CARDS[make_card(r, i % 4)] for r in range(13)] for i in range(7)]
    evaluate = eval7.evaluate
    values = [evaluate([by_position[i][r] for i, r in enumerate(hand)]) for hand in sevens.tolist()]
    keys = RANK_KEYS[sevens].sum(axis=1)
    by_rank_key = np.zeros(int(keys.max()) + 1, dtype=np.int32)
    by_rank_key[keys] = values

    by_flush_ranks = np.zeros(1 << 13, dtype=np.int32)
    spades = [E7_CARDS[make_card(r, 3)] for r in range(13)]
    for size in (5, 6, 7):
        for suited in itertools.combinations(range(13), size):
            mask = sum(1 << r for r in suited)
            by_flush_ranks[mask] = evaluate([spades[r] for r in suited])

    flush_suit = np.full(1 << 12, NO_FLUSH, dtype=np.intp)
    for suit_counts in itertools.product(range(8), repeat=4):
        if sum(suit_counts) == 7 and max(suit_counts) >= 5:
            key = sum(n << 3 * s for s, n in enumerate(suit_counts))
            flush_suit[key] = suit_counts.index(max(suit_counts))
    return Tables(by_rank_key, by_flush_ranks, flush_suit)


def evaluate(cards: Cards) -> Values:
    """Values of seven-card hands: ``cards`` of shape (..., 7) gives shape (...)."""
    cards = np.asarray(cards)
    flat = cards.reshape(-1, 7)
    return evaluate_holdem(flat[:, np.newaxis, :2], flat[:, 2:]).reshape(cards.shape[:-1])


def evaluate_holdem(holes: Cards, boards: Cards) -> Values:
    """Values of every player's hand on each board: ``holes`` (n, players, 2) and ``boards``
    (n, 5) give (n, players). The board's share of the work is done once a row."""
    t = tables()
    holes, boards = np.asarray(holes, dtype=np.intp), np.asarray(boards, dtype=np.intp)
    board_ranks, board_suits = boards >> 2, boards & 3
    hole_ranks, hole_suits = holes >> 2, holes & 3
    # Sums over the tiny card axes are written out: numpy's reductions are slow on them.
    board_rank_key = sum(RANK_KEYS[board_ranks[:, i]] for i in range(5))
    rank_key = RANK_KEYS[hole_ranks[..., 0]] + RANK_KEYS[hole_ranks[..., 1]]
    rank_key += board_rank_key[:, np.newaxis]
    values: Values = t.by_rank_key[rank_key]

    board_suit_key = sum(SUIT_KEYS[board_suits[:, i]] for i in range(5))
    suit_key = SUIT_KEYS[hole_suits[..., 0]] + SUIT_KEYS[hole_suits[..., 1]]
    suit_key += board_suit_key[:, np.newaxis]
    suit = t.flush_suit[suit_key]
    rows, players = np.nonzero(suit != NO_FLUSH)
    if rows.size:
        s = suit[rows, players][:, np.newaxis]
        suited = np.concatenate(
            [
                np.where(board_suits[rows] == s, 1 << board_ranks[rows], 0),
                np.where(hole_suits[rows, players] == s, 1 << hole_ranks[rows, players], 0),
            ],
            axis=1,
        )
        values[rows, players] = t.by_flush_ranks[suited.sum(axis=1)]
    return values
