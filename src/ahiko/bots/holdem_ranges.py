"""Opponents' hold'em ranges narrowed by their public actions (for the Hard bot, R-AI-04).

Each opponent starts with every two-card combo not among our cards or the board. Each of
their public actions reweighs the combos: a raise keeps mostly the strong ones, a call the
middle, a check takes weight off the strongest. After the flop "strong" is the combo's hand
value on the board of that street, ranked within the opponent's current range. Weights never
reach zero: players bluff and make mistakes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import eval7

from ahiko.poker.cards import Card, suit_of

from .cards7 import E7_CARDS
from .equity import WeightedRange, full_range
from .preflop import hand_percentile
from .situation import AGGRESSIVE, Situation, preflop_order

FLOOR = 0.04
DRAW_RANK = 0.3  # where a flush draw is placed among made hands
BOARD_CARDS = {"flop": 3, "turn": 4, "river": 5}


def _reweigh(weights: WeightedRange, keep: dict[tuple[int, int], float]) -> None:
    for combo, factor in keep.items():
        weights[combo] = max(FLOOR * 0.25, weights[combo] * factor)


# Share of hands a first raiser opens with, by players left to act behind it (late = wide).
OPEN_SHARE_BY_PLAYERS_BEHIND = {0: 0.75, 1: 0.75, 2: 0.45, 3: 0.3}
OPEN_SHARE_EARLY = 0.2


def _preflop_factor(pct: float, kind: str, raises_before: int, all_in: bool, behind: int) -> float:
    if kind in AGGRESSIVE:
        opening = OPEN_SHARE_BY_PLAYERS_BEHIND.get(behind, OPEN_SHARE_EARLY)
        cut = opening if raises_before == 0 else (0.12 if raises_before == 1 else 0.05)
        if all_in and raises_before == 0:
            cut = 0.2
        return 1.0 if pct <= cut else max(FLOOR, 1.0 - (pct - cut) * 6)
    if kind == "call":
        if raises_before == 0:  # a limp
            return 0.4 if pct <= 0.08 else (1.0 if pct <= 0.7 else 0.3)
        top = 0.04 if raises_before == 1 else 0.015
        cut = 0.5 if raises_before == 1 else 0.15
        if pct <= top:
            return 0.4
        return 1.0 if pct <= cut else max(FLOOR, 1.0 - (pct - cut) * 4)
    if kind == "check":
        return 0.4 if pct <= 0.1 else 1.0
    return 1.0


def _postflop_factor(rank_from_top: float, kind: str, raises_before: int, cbet: bool) -> float:
    if kind in AGGRESSIVE:
        if cbet:  # the pre-flop raiser's first bet on the flop: often made with anything
            return 1.0 if rank_from_top <= 0.6 else 0.3
        if raises_before == 0:
            return 1.0 if rank_from_top <= 0.3 else 0.1
        cut = 0.1 if raises_before == 1 else 0.05
        return 1.0 if rank_from_top <= cut else 0.02
    if kind == "call":
        if rank_from_top <= 0.05:
            return 0.6
        return 1.0 if rank_from_top <= 0.55 else 0.06
    if kind == "check":
        return 0.5 if rank_from_top <= 0.15 else 1.0
    return 1.0


def _ranks_from_top(weights: WeightedRange, board: Sequence[Card]) -> dict[tuple[int, int], float]:
    """Each combo's weighted share of the range that beats or ties it on this board."""
    e7_board = [E7_CARDS[c] for c in board]
    dead = set(board)
    scored = [
        (eval7.evaluate([E7_CARDS[a], E7_CARDS[b], *e7_board]), (a, b), w)
        for (a, b), w in weights.items()
        if a not in dead and b not in dead
    ]
    scored.sort(key=lambda t: -t[0])
    total = sum(w for _, _, w in scored) or 1.0
    out: dict[tuple[int, int], float] = {}
    acc = 0.0
    for _, combo, w in scored:
        acc += w
        out[combo] = acc / total
    if len(board) < 5:
        # Flush draws play like medium-strong hands: they bet, raise and call.
        suits = Counter(suit_of(c) for c in board)
        for (a, b), rank in out.items():
            sa, sb = suit_of(a), suit_of(b)
            n = suits[sa] + 1 + (sb == sa) if sa == sb else max(suits[sa], suits[sb]) + 1
            if n == 4 and rank > DRAW_RANK:
                out[(a, b)] = DRAW_RANK
    return out


def opponent_ranges(sit: Situation) -> dict[int, WeightedRange]:
    """Weighted ranges of every opponent still in the hand, from the public history."""
    dead = list(sit.hole) + list(sit.board)
    ranges = {s: full_range(dead) for s in sit.opponents}
    pct_cache: dict[tuple[int, int], float] = {}
    raises_before: dict[str, int] = {}
    rank_cache: dict[tuple[int, str], dict[tuple[int, int], float]] = {}
    preflop_raiser = sit.last_aggressor("preflop")
    order = preflop_order(sit.dealt_seats)
    for act in sit.actions:
        street = act.street
        before = raises_before.get(street, 0)
        if act.kind in AGGRESSIVE:
            raises_before[street] = before + 1
        if act.seat not in ranges or act.kind == "fold":
            continue
        weights = ranges[act.seat]
        if street == "preflop":
            behind = len(order) - 1 - order.index(act.seat)
            factors = {}
            for combo in weights:
                pct = pct_cache.get(combo)
                if pct is None:
                    pct = pct_cache[combo] = hand_percentile(*combo)
                factors[combo] = _preflop_factor(pct, act.kind, before, act.all_in, behind)
        else:
            board = sit.board[: BOARD_CARDS.get(street, len(sit.board))]
            key = (act.seat, street)
            # One ranking per opponent and street: later actions on it reuse it.
            if key not in rank_cache:
                rank_cache[key] = _ranks_from_top(weights, board)
            ranks = rank_cache[key]
            cbet = street == "flop" and before == 0 and act.seat == preflop_raiser
            factors = {
                c: _postflop_factor(ranks.get(c, 1.0), act.kind, before, cbet) for c in weights
            }
        _reweigh(weights, factors)
    return ranges


def continuing_range(weights: WeightedRange, board: Sequence[Card], share: float) -> WeightedRange:
    """The part of a range that goes on against a bet: its strongest ``share`` on this board
    (pre-flop: by starting-hand rank), the rest nearly gone."""
    if board:
        ranks = _ranks_from_top(weights, board)
    else:
        ordered = sorted(weights.items(), key=lambda kv: hand_percentile(*kv[0]))
        total = sum(weights.values()) or 1.0
        ranks, acc = {}, 0.0
        for combo, w in ordered:
            acc += w
            ranks[combo] = acc / total
    return {c: w * (1.0 if ranks.get(c, 1.0) <= share else 0.03) for c, w in weights.items()}
