"""Opponents' hold'em ranges narrowed by their public actions (for the Hard bot, R-AI-04).

Each opponent starts with every two-card combo not among our cards or the board. Each of
their public actions reweighs the combos: a raise keeps mostly the strong ones, a call the
middle, a check takes weight off the strongest. After the flop "strong" is the combo's hand
value on the board of that street, ranked within the opponent's current range. Weights never
reach zero: players bluff and make mistakes.

How much of a range an action keeps comes from ``Reads``: the shares of hands this opponent
opens, jams, re-raises, bets and calls with, read from the public record of the session
(ahiko.bots.memory) and, with no record yet, the defaults below.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import eval7

from ahiko.poker.cards import Card, suit_of

from .cards7 import E7_CARDS
from .equity import WeightedRange, full_range
from .memory import OpponentStats
from .preflop import hand_percentile
from .situation import AGGRESSIVE, Situation, preflop_order

FLOOR = 0.04
DRAW_RANK = 0.3  # where a flush draw is placed among made hands
BOARD_CARDS = {"flop": 3, "turn": 4, "river": 5}


def _reweigh(weights: WeightedRange, keep: dict[tuple[int, int], float]) -> None:
    for combo, factor in keep.items():
        weights[combo] = max(FLOOR * 0.25, weights[combo] * factor)


# Share of hands a first raiser opens with, by players left to act behind it (late = wide).
# Heads-up a balanced small blind opens most hands, but the players who have not shown
# their range yet are mostly tighter than that: calling them as if they opened three in four
# pays off the tight ones, and the loose ones' record soon widens it.
HEADS_UP_OPEN_SHARE = 0.5
OPEN_SHARE_BY_PLAYERS_BEHIND = {0: HEADS_UP_OPEN_SHARE, 1: HEADS_UP_OPEN_SHARE, 2: 0.45, 3: 0.3}
OPEN_SHARE_EARLY = 0.2


# Evidence needed before an observed share replaces a default (chances' worth of prior).
READS_WEIGHT = 10.0


@dataclass(frozen=True, slots=True)
class Reads:
    """Shares of an opponent's hands behind each kind of action (by strength from the top).

    ``open`` None means by position (OPEN_SHARE_BY_PLAYERS_BEHIND). The defaults are a
    reasonable regular's; ``reads_from`` moves them to what the opponent has shown."""

    open: float | None = None
    # A deep stack moved in first is rarely the top of a range: the players who do it jam
    # wide, so calling a jam with only the top 8% of hands hands them the blinds.
    open_jam: float = 0.45
    reraise: float = 0.12
    reraise_again: float = 0.05
    call_raise: float = 0.5  # continues against one raise
    call_reraise: float = 0.15
    bet: float = 0.3  # bets after the flop when nobody has
    bet_late: float = 0.3  # ... on the turn and the river
    cbet: float = 0.6
    raise_bet: float = 0.1
    call_bet: float = 0.55  # calls a bet after the flop
    tail: float = 1.0  # weight left outside a betting range, relative to the defaults'
    reraise_jam: float = 0.02  # re-raises all in (any-two jammers: nearly always)
    fold_to_bet: float = 0.35
    # Folds on later chances of the same hand: to a second bet after calling one, to a raise
    # of their own bet, to a re-raise of their raise (the more they have put in, the fewer).
    fold_to_barrel: float = 0.3
    fold_to_raise: float = 0.3
    fold_to_reraise: float = 0.1
    # Folds to a continuation bet: the pre-flop raiser's first bet on the flop, and the same
    # bettor's first bet on the turn after that.
    fold_to_cbet: float = 0.4
    fold_to_turn_cbet: float = 0.35
    check_raise: float = 0.08  # raises a bet after checking on the same street
    river_bluff: float = 0.15  # weak hands among their river bets shown down
    bet_size: float = 0.6  # their usual bet after the flop, as a share of the pot


def reads_from(stats: OpponentStats, weight: float = READS_WEIGHT) -> Reads:
    """What the opponent's public record says, each share shrunk towards its default by
    ``weight`` chances' worth of it: a few hands move a read a little, a few hundred decide."""
    d = Reads()
    if stats.hands == 0:
        return d
    open_share = stats.open_share(HEADS_UP_OPEN_SHARE, weight) if stats.open_chances else None
    reraise = stats.reraise_share(d.reraise, weight)
    bet = stats.bet_share(d.bet, weight)
    fold_bet = stats.fold_to_bet(1 - d.call_bet - d.raise_bet, weight)
    fold_raise = stats.fold_to_raise(1 - d.call_raise, weight)
    # Weak hands shown after betting the river: they bet wider than their frequency suggests
    # (a tail above 1), or never without a hand (a tail near 0.2).
    river_bluff = stats.river_bluff_share(d.river_bluff)
    return Reads(
        open=open_share,
        open_jam=max(
            stats.open_jam_share(d.open_jam, weight), 0.9 * max(stats.shown_jam_pct, default=0.0)
        ),
        reraise=reraise,
        reraise_again=max(0.02, min(reraise, d.reraise_again * reraise / d.reraise)),
        call_raise=max(0.05, 1.0 - fold_raise),
        call_reraise=max(0.05, min(1.0, (1.0 - fold_raise) * d.call_reraise / d.call_raise)),
        bet=min(1.0, bet),
        bet_late=min(1.0, stats.late_bet_share(d.bet_late, weight)),
        cbet=min(1.0, 2.0 * bet),
        raise_bet=stats.raise_share(d.raise_bet, weight),
        call_bet=max(0.05, min(1.0, 1.0 - fold_bet)),
        tail=max(0.2, min(4.0, river_bluff / d.river_bluff)),
        reraise_jam=stats.reraise_jam_share(d.reraise_jam, weight),
        fold_to_bet=fold_bet,
        fold_to_barrel=stats.fold_to_barrel(d.fold_to_barrel, weight),
        fold_to_raise=stats.fold_to_raise_after_bet(d.fold_to_raise, weight),
        fold_to_reraise=stats.fold_to_reraise(d.fold_to_reraise, weight),
        fold_to_cbet=stats.fold_to_cbet(d.fold_to_cbet, weight),
        fold_to_turn_cbet=stats.fold_to_turn_cbet(d.fold_to_turn_cbet, weight),
        check_raise=stats.check_raise_share(d.check_raise, weight),
        river_bluff=river_bluff,
        bet_size=stats.bet_size(d.bet_size, weight),
    )


DEFAULT_READS = Reads()


def _preflop_factor(
    pct: float, kind: str, raises_before: int, all_in: bool, behind: int, reads: Reads
) -> float:
    if kind in AGGRESSIVE:
        if raises_before == 0:
            cut = reads.open
            if cut is None:
                cut = OPEN_SHARE_BY_PLAYERS_BEHIND.get(behind, OPEN_SHARE_EARLY)
            if all_in:
                cut = reads.open_jam
        else:
            cut = reads.reraise if raises_before == 1 else reads.reraise_again
            if all_in and raises_before == 1:
                # A whole stack over one raise is as wild as a first-in jam, and as wide.
                cut = max(cut, reads.open_jam)
        return 1.0 if pct <= cut else max(FLOOR, 1.0 - (pct - cut) * 6)
    if kind == "call":
        if raises_before == 0:  # a limp
            return 0.4 if pct <= 0.08 else (1.0 if pct <= 0.7 else 0.3)
        top = 0.04 if raises_before == 1 else 0.015
        cut = reads.call_raise if raises_before == 1 else reads.call_reraise
        if pct <= top:
            return 0.4
        return 1.0 if pct <= cut else max(FLOOR, 1.0 - (pct - cut) * 4)
    if kind == "check":
        return 0.4 if pct <= 0.1 else 1.0
    return 1.0


def _postflop_factor(
    rank_from_top: float, kind: str, raises_before: int, cbet: bool, reads: Reads, late: bool
) -> float:
    if kind in AGGRESSIVE:
        if cbet:  # the pre-flop raiser's first bet on the flop: often made with anything
            return 1.0 if rank_from_top <= reads.cbet else min(1.0, 0.3 * reads.tail)
        if raises_before == 0:
            cut = reads.bet_late if late else reads.bet
            return 1.0 if rank_from_top <= cut else min(1.0, 0.1 * reads.tail)
        cut = reads.raise_bet if raises_before == 1 else reads.raise_bet / 2
        return 1.0 if rank_from_top <= cut else min(1.0, 0.02 * reads.tail)
    if kind == "call":
        if rank_from_top <= 0.05:
            return 0.6
        return 1.0 if rank_from_top <= reads.call_bet else 0.06
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


def opponent_ranges(
    sit: Situation, reads: dict[int, Reads] | None = None
) -> dict[int, WeightedRange]:
    """Weighted ranges of every opponent still in the hand, from the public history and what
    each opponent's record says (``reads``, defaults for anyone missing)."""
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
        r = (reads or {}).get(act.seat, DEFAULT_READS)
        if street == "preflop":
            behind = len(order) - 1 - order.index(act.seat)
            factors = {}
            for combo in weights:
                pct = pct_cache.get(combo)
                if pct is None:
                    pct = pct_cache[combo] = hand_percentile(*combo)
                factors[combo] = _preflop_factor(pct, act.kind, before, act.all_in, behind, r)
        else:
            board = sit.board[: BOARD_CARDS.get(street, len(sit.board))]
            key = (act.seat, street)
            # One ranking per opponent and street: later actions on it reuse it.
            if key not in rank_cache:
                rank_cache[key] = _ranks_from_top(weights, board)
            ranks = rank_cache[key]
            cbet = street == "flop" and before == 0 and act.seat == preflop_raiser
            late = street in ("turn", "river")
            factors = {
                c: _postflop_factor(ranks.get(c, 1.0), act.kind, before, cbet, r, late)
                for c in weights
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
