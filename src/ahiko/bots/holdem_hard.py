"""Hold'em Hard (R-AI-04): Monte Carlo equity against the opponents' ranges as narrowed by
their public actions and by what their record at this table shows (ahiko.bots.memory), bet
sizes chosen by expected value, and controlled bluff and defence frequencies (bluffs
b/(p+2b) of a betting range, scaled by how much more than that the opponent folds, capped;
defend p/(p+b)). Uses only the public history and its own cards.

Heads-up after the flop one Monte Carlo run against the opponent's range (10,000 samples)
records, for every sample, how strong the opponent's hand is within its range; the equity
against the part of the range that would go on against a bet of any size is then read off
the same samples. A bet of b into p is worth f·p + (1−f)·(e·(p+2b) − b), with f the share
the opponent folds (its record, a size-dependent default before there is one) and e the
equity against the rest; checking is worth about the equity share of the pot. The largest
wins, and a bet made on little equity (a bluff) is played only with a capped probability.

The record steers it (ahiko.bots.holdem_ranges.Reads, each share shrunk towards its default):
folds to a continuation bet on the flop and the turn price our continuation bets, and a
player who folds most flops is raised before the flop and bet into; the bluff cap lifts for a
player seen folding most bets and falls for one who check-raises; river bets are called by how
many of the opponent's river bets shown down were bluffs; and a player who bets often and big
makes checking a strong hand worth more.

A player with no record yet is played by the defaults (priors meant for anyone: the small
blind opens 85% of its hands heads-up, an opener not seen yet is taken to raise half of
theirs, a river bet is called with a near-miss now and then); the record then moves each
read from there.

Facing an all-in, or a call that puts us all in, it calls exactly when the equity against
the range the opponent shows beats the pot odds. Heads-up at 15 big blinds or less it pushes
or folds by the equilibrium chart of tools/pushfold_chart.py (data/pushfold_hu.json).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ahiko.poker.actions import Action
from ahiko.poker.cards import DECK_SIZE
from ahiko.poker.view_types import HandView

from . import holdem_features as hf
from .equity import CARD_BITS, WeightedRange, _Range, equity_multiway
from .holdem_normal import OPEN_PERCENTILE_BY_PLAYERS_BEHIND, OPEN_PERCENTILE_EARLY
from .holdem_ranges import (
    DEFAULT_READS,
    Reads,
    _ranks_from_top,
    continuing_range,
    opponent_ranges,
    reads_from,
)
from .memory import TableMemory
from .preflop import class_of, hand_percentile
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    price,
    situation_from_view,
)
from .vector_eval import evaluate_holdem

# ±1% equity at 95% needs about 9,600 samples (FACTS.md), on every street: heads-up on eval7's
# Monte Carlo, multiway on our numpy simulator (ahiko.bots.equity).
HEADS_UP_SAMPLES = 10_000
MULTIWAY_SAMPLES = 9_600
# Equity a bet or raise needs against the hands that call it.
VALUE_EDGE = 0.55
RAISE_EDGE = 0.62
PUSH_FOLD_BB = 15
BET_SIZES = (0.33, 0.5, 0.75, 1.0, 1.5)
# Heads-up the small blind opens most hands against a player not seen yet: most of them
# fold more than half their hands to a raise (a record then sets it).
HEADS_UP_OPEN = 0.85
MAX_BLUFF_P = 0.6  # the most often a bluff is made when its spot comes up
READ_WEIGHT = 10.0  # chances' worth of default before an opponent's fold rate is believed


def bluff_share(bet: float, pot: float) -> float:
    """Share of bluffs in a balanced betting range for a bet ``bet`` into ``pot``."""
    return bet / (pot + 2 * bet) if bet > 0 else 0.0


def defence_share(bet: float, pot: float) -> float:
    """Minimum share of its range a player must continue with against ``bet`` into ``pot``."""
    return pot / (pot + bet) if bet > 0 else 1.0


def default_fold(bet: float, pot: float) -> float:
    """Share of a range that folds to ``bet`` into ``pot`` before we know the player: a bit
    more than the balanced b/(p+b), as most players over-fold."""
    return min(0.8, 0.1 + bet / (pot + bet)) if bet > 0 else 0.0


def bluff_probability(bet: float, pot: float, fold: float, cap: float = MAX_BLUFF_P) -> float:
    """How often to make a bluff of ``bet`` into ``pot`` against a player folding ``fold``:
    the balanced share, scaled by the square of how much more than the indifference b/(p+b)
    they fold, never more than ``cap`` (R-AI-04)."""
    indifferent = bet / (pot + bet)
    if fold <= indifferent:
        return 0.0
    return min(cap, bluff_share(bet, pot) * (fold / indifferent) ** 2)


def bluff_cap(fold: float) -> float:
    """The most often to bluff a player whose record says they fold ``fold`` (a rate already
    shrunk towards the default): MAX_BLUFF_P until they fold 70%, every time from 85%. Only
    a record earns more: many folds seen are what lift a shrunk rate that high."""
    return MAX_BLUFF_P + (1.0 - MAX_BLUFF_P) * max(0.0, min(1.0, (fold - 0.7) / 0.15))


@cache
def pushfold_chart() -> dict[int, tuple[frozenset[str], frozenset[str]]]:
    """Stack in big blinds -> (classes pushed from the small blind, classes called)."""
    text = (Path(__file__).parent / "data" / "pushfold_hu.json").read_text()
    data = json.loads(text)["stacks_bb"]
    return {int(k): (frozenset(v["push"]), frozenset(v["call"])) for k, v in data.items()}


@dataclass(frozen=True, slots=True)
class Samples:
    """One Monte Carlo run against a heads-up range: per sample our share of the pot and
    the opponent hand's strength rank within its range (0 = the top), sorted by rank."""

    result: np.ndarray
    rank: np.ndarray
    cumulative: np.ndarray

    @property
    def equity(self) -> float:
        return float(self.cumulative[-1] / len(self.result)) if len(self.result) else 0.5

    def equity_top(self, share: float) -> float:
        """Equity against the strongest ``share`` of the range (at least 2% of the samples)."""
        n = len(self.result)
        if not n:
            return 0.5
        k = int(np.searchsorted(self.rank, share, side="right"))
        k = max(k, max(1, n // 50))
        return float(self.cumulative[k - 1] / k)


def simulate(
    hole: tuple[int, ...],
    board: tuple[int, ...],
    weighted: WeightedRange,
    ranks: dict[tuple[int, int], float],
    samples: int,
    rng: random.Random,
) -> Samples:
    known = list(hole) + list(board)
    r = _Range(weighted, known)
    gen = np.random.default_rng(rng.getrandbits(64))
    drawn = r.draw(gen, samples)
    combo_rank = np.array([ranks.get((int(a), int(b)), 1.0) for a, b in r.cards])
    used = CARD_BITS[known].sum() | r.masks[drawn]
    boards = np.empty((samples, 5), dtype=np.intp)
    boards[:, : len(board)] = board
    deck = np.array([c for c in range(DECK_SIZE) if c not in known], dtype=np.intp)
    for k in range(len(board), 5):
        cards = deck[gen.integers(0, len(deck), samples)]
        rows = np.flatnonzero(used & CARD_BITS[cards])
        while rows.size:
            cards[rows] = deck[gen.integers(0, len(deck), rows.size)]
            rows = rows[(used[rows] & CARD_BITS[cards[rows]]) != 0]
        used = used | CARD_BITS[cards]
        boards[:, k] = cards
    holes = np.empty((samples, 2, 2), dtype=np.intp)
    holes[:, 0] = hole
    holes[:, 1] = r.cards[drawn]
    values = evaluate_holdem(holes, boards)
    result = np.where(
        values[:, 0] > values[:, 1], 1.0, np.where(values[:, 0] == values[:, 1], 0.5, 0.0)
    )
    rank = combo_rank[drawn]
    order = np.argsort(rank, kind="stable")
    return Samples(result[order], rank[order], np.cumsum(result[order]))


def preflop_ranks(weights: WeightedRange) -> dict[tuple[int, int], float]:
    ordered = sorted(weights.items(), key=lambda kv: hand_percentile(*kv[0]))
    total = sum(weights.values()) or 1.0
    ranks, acc = {}, 0.0
    for combo, w in ordered:
        acc += w
        ranks[combo] = acc / total
    return ranks


class HoldemHardBot:
    """``memory``: the table memory to read opponents from (shared with the level bot that
    feeds it); None plays every opponent by the defaults."""

    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        reads = self.reads(view, sit)
        if not sit.board:
            return self._preflop(sit, rng, reads)
        if len(sit.opponents) == 1:
            return self._postflop_heads_up(sit, rng, reads)
        return self._postflop(sit, rng, reads)

    def reads(self, view: HandView, sit: Situation) -> dict[int, Reads]:
        if self.memory is None:
            return {}
        # A player with no record yet is played by the defaults, as if unknown: the empty
        # record's reads are the defaults' values, but not what the defaults say about them.
        stats = {s: self.memory.of(view, s) for s in sit.opponents}
        return {s: reads_from(st) for s, st in stats.items() if st.hands}

    def equity(
        self,
        sit: Situation,
        rng: random.Random,
        continuing: float | None = None,
        reads: dict[int, Reads] | None = None,
    ) -> float:
        """Equity against the opponents' ranges; with ``continuing``, against only the share
        of each range that would go on against our bet."""
        ranges = opponent_ranges(sit, reads)
        opp = [ranges[s] for s in sit.opponents]
        if continuing is not None:
            opp = [continuing_range(r, sit.board, continuing) for r in opp]
        samples = HEADS_UP_SAMPLES if len(opp) == 1 else MULTIWAY_SAMPLES
        return equity_multiway(sit.hole, sit.board, opp, samples, rng)

    def equity_when_called(
        self, sit: Situation, rng: random.Random, to: int, reads: dict[int, Reads] | None = None
    ) -> float:
        """Equity against the hands that call a bet or raise to ``to``: each opponent defends
        the minimum share p/(p+b) of its range."""
        bet = to - sit.legal.committed - sit.legal.call_cost
        pot = sit.pot + sit.legal.call_cost
        return self.equity(sit, rng, continuing=defence_share(bet, pot), reads=reads)

    def samples(self, sit: Situation, rng: random.Random, reads: dict[int, Reads]) -> Samples:
        """The heads-up Monte Carlo run, ranked within the opponent's range."""
        (opp,) = sit.opponents
        weights = opponent_ranges(sit, reads)[opp]
        ranks = _ranks_from_top(weights, sit.board) if sit.board else preflop_ranks(weights)
        return simulate(sit.hole, sit.board, weights, ranks, HEADS_UP_SAMPLES, rng)

    # --- pre-flop ---------------------------------------------------------------------

    def _preflop(self, sit: Situation, rng: random.Random, reads: dict[int, Reads]) -> Action:
        legal, bb = sit.legal, sit.big_blind
        pct = hand_percentile(*sit.hole)
        raises = sit.raises_on("preflop")
        heads_up = len(sit.opponents) == 1
        read = reads.get(sit.opponents[0], DEFAULT_READS) if heads_up else DEFAULT_READS
        short = heads_up and sit.effective_stack <= PUSH_FOLD_BB * bb
        if short and raises == 0 and not legal.can_check:  # the small blind, first in
            stack = max(1, min(PUSH_FOLD_BB, round(sit.effective_stack / bb)))
            push, _ = pushfold_chart()[stack]
            if class_of(*sit.hole) in push:
                return aggressive(legal, legal.max_to)
            return check_or_fold(legal)
        if _all_in_call(sit):
            # Nothing left to play for but this call: the pot odds against the shown range.
            eq = self.equity(sit, rng, reads=reads)
            if heads_up and sit.effective_stack <= PUSH_FOLD_BB * bb and not reads:
                stack = max(1, min(PUSH_FOLD_BB, round(sit.effective_stack / bb)))
                _, call = pushfold_chart()[stack]
                return passive(legal) if class_of(*sit.hole) in call else check_or_fold(legal)
            return passive(legal) if eq >= price(sit) else check_or_fold(legal)
        if raises == 0:
            behind = sit.players_behind_preflop()
            open_pct = OPEN_PERCENTILE_BY_PLAYERS_BEHIND.get(behind, OPEN_PERCENTILE_EARLY)
            if heads_up:
                # Steal more from a big blind that folds to raises, less from one that stays.
                folds = 1.0 - read.call_raise
                open_pct = HEADS_UP_OPEN if not legal.can_check else 0.0
                if read is not DEFAULT_READS:
                    # A record of folding half the hands to a raise, a regular's, opens 70%.
                    open_pct = min(1.0, max(0.45, 0.7 + 0.8 * (folds - 0.5)))
                    # A player who gives up the flop to a continuation bet pays for the raise.
                    open_pct = min(1.0, open_pct + 2.0 * max(0.0, read.fold_to_cbet - 0.6))
            if legal.can_check:  # big blind after limps: raise for value only
                cut = 0.56 + 0.04 * (len(sit.opponents) - 1)
                eq = self.equity(sit, rng, reads=reads)
                # ... or to take the flop from a player who folds most of them to a bet.
                steal = heads_up and read.fold_to_cbet >= 0.7
                if eq >= cut or steal:
                    return aggressive(legal, sit.pot + bb * 2)
                return Action.check()
            if heads_up and read.reraise_jam >= 0.5:
                # Against a player who re-raises all in: play only what can call the jam.
                eq = self.equity(sit, rng, continuing=read.reraise, reads=reads)
                stake = sit.effective_stack
                if eq >= (stake - 2.5 * bb) / (2 * stake):
                    return aggressive(legal, 2.5 * bb)
                return check_or_fold(legal)
            if pct <= open_pct:
                short = sit.effective_stack <= 12 * bb
                # Against a big blind that folds whatever the size, the smallest raise steals.
                size = 2.0 * bb if heads_up and read.call_raise <= 0.25 else 2.5 * bb
                return aggressive(legal, legal.max_to if short else size)
            return check_or_fold(legal)
        p = price(sit)
        value_cut = 0.6 if raises == 1 else 0.58
        margin = 0.0 if sit.is_last_to_act_postflop else 0.04
        if legal.call_cost < sit.effective_stack * 0.1:
            margin -= 0.04  # implied odds when the call is small against the stacks
        eq = self.equity(sit, rng, reads=reads)
        raise_to = 3 * (legal.committed + legal.call_cost) + sit.pot // 3
        jam = raise_to * 2.5 >= legal.max_to
        if eq >= value_cut:
            return aggressive(legal, legal.max_to if jam else raise_to)
        bet_size = raise_to - legal.committed
        if (
            heads_up
            and raises == 1
            and 0.12 <= pct <= 0.35
            and rng.random()
            < bluff_probability(bet_size, sit.pot + legal.call_cost, 0.5)
            * (1.0 if read is DEFAULT_READS else 2.0 * (1.0 - read.call_raise))
        ):
            return aggressive(legal, raise_to)
        if eq >= p + margin:
            return passive(legal)
        return check_or_fold(legal)

    # --- after the flop, heads-up: bets by expected value ------------------------------

    def _fold_share(
        self, read: Reads, known: bool, bet: float, pot: float, spot: str = "bet"
    ) -> float:
        """Share of the opponent's range that folds to ``bet`` into ``pot``; ``spot`` is where
        the hand stands: a first bet ("bet"), a bet after they called one on an earlier street
        ("barrel"), a raise of their bet ("raise") or of their raise ("reraise")."""
        base = {
            "bet": read.fold_to_bet,
            "cbet": read.fold_to_cbet,
            "turn_cbet": read.fold_to_turn_cbet,
            "barrel": read.fold_to_barrel,
            "raise": read.fold_to_raise,
            "reraise": read.fold_to_reraise,
        }[spot]
        prior = default_fold(bet, pot)
        if not known:
            defaults = {"bet": 1.0, "cbet": 1.0, "turn_cbet": 0.85, "barrel": 0.85,
                        "raise": 0.85, "reraise": 0.3}  # fmt: skip
            return prior * defaults[spot]
        # The record's fold rate in this spot, each bet size keeping its default's lean.
        return max(0.0, min(0.95, base + (prior - default_fold(pot / 2, pot))))

    def _spot(self, sit: Situation, opp: int) -> str:
        """How far the opponent has gone in this hand: see ``_fold_share``; a first bet of
        ours is a continuation bet ("cbet", "turn_cbet") when we made the last street's."""
        mine = sit.street_actions()
        theirs = [a for a in mine if a.seat == opp and a.kind in ("bet", "raise")]
        if theirs:
            raises = 0
            own = 0
            for a in mine:
                if a.kind in ("bet", "raise"):
                    raises += 1
                    if a.seat == opp:
                        own = raises
            return "raise" if own == 1 else "reraise"
        if not any(a.kind in ("bet", "raise") for a in mine):
            if sit.street == "flop" and sit.last_aggressor("preflop") == sit.me:
                return "cbet"
            if sit.street == "turn" and _continued_on_flop(sit):
                return "turn_cbet"
        earlier = [
            a for a in sit.actions if a.street not in ("preflop", sit.street) and a.seat == opp
        ]
        return "barrel" if any(a.kind == "call" for a in earlier) else "bet"

    def _postflop_heads_up(
        self, sit: Situation, rng: random.Random, reads: dict[int, Reads]
    ) -> Action:
        legal = sit.legal
        (opp,) = sit.opponents
        read = reads.get(opp, DEFAULT_READS)
        known = read is not DEFAULT_READS
        mc = self.samples(sit, rng, reads)
        eq = mc.equity
        river = sit.street == "river"
        pot = sit.pot
        behind = sit.effective_stack - legal.committed
        spot = self._spot(sit, opp)
        if legal.call_cost == 0:
            if legal.bet_kind is None:
                return Action.check()
            ev_check = eq * pot * (1.0 if sit.is_last_to_act_postflop else 0.9)
            if known and not sit.is_last_to_act_postflop:
                # A check lets a player who bets often, and big, bet into a strong hand.
                ev_check += read.bet * read.bet_size * pot * max(0.0, 2 * eq - 1)
            best: tuple[float, int, float, float] | None = None  # ev, to, equity, fold
            for frac in BET_SIZES:
                bet = min(behind, max(legal.min_to - legal.committed, round(frac * pot)))
                if behind < pot * 1.2:
                    bet = behind
                f = self._fold_share(read, known, bet, pot, spot)
                e = mc.equity_top(1.0 - f)
                ev = f * pot + (1 - f) * (e * (pot + 2 * bet) - bet)
                if best is None or ev > best[0]:
                    best = (ev, legal.committed + bet, e, f)
            if best is None or best[0] <= ev_check:
                return Action.check()
            ev, to, e, f = best
            if e >= 0.5:
                return aggressive(legal, to)
            bet = to - legal.committed
            bluff = bluff_probability(bet, pot, f, bluff_cap(f) if known else MAX_BLUFF_P)
            if known and any(a.seat == opp and a.kind == "check" for a in sit.street_actions()):
                # A player who check-raises more than most punishes a bluff into their check.
                bluff *= max(0.0, 1.0 - 3.0 * (read.check_raise - DEFAULT_READS.check_raise))
            if rng.random() < bluff:
                return aggressive(legal, to)
            return Action.check()
        call = legal.call_cost
        p = price(sit)
        all_in = _all_in_call(sit)
        margin = 0.0 if river or all_in else (0.05 if sit.is_last_to_act_postflop else 0.07)
        ev_call = eq * (pot + call) - call
        if eq < p + margin:
            ev_call = min(ev_call, 0.0) - 1e-9
        best_raise: tuple[float, int, float, float] | None = None
        if legal.bet_kind is not None and not all_in:
            their_bet = max(sit.bets[s] for s in sit.opponents)
            for to in {pot_sized_to(sit, 0.85), legal.max_to}:
                to = max(legal.min_to, min(legal.max_to, to))
                put_in = to - legal.committed
                f = self._fold_share(read, known, put_in - call, pot + call, spot)
                e = mc.equity_top(1.0 - f)
                final = pot + put_in + (to - their_bet)
                ev = f * pot + (1 - f) * (e * final - put_in)
                if best_raise is None or ev > best_raise[0]:
                    best_raise = (ev, to, e, f)
        if best_raise is not None and best_raise[0] > max(0.0, ev_call):
            ev, to, e, f = best_raise
            if e >= 0.5 or rng.random() < bluff_probability(to - legal.committed, pot, f):
                return aggressive(legal, to)
        if eq >= p + margin:
            return passive(legal)
        # Defence: against a bet b into p the bettor profits if we fold more than b/(p+b);
        # bluff-catch some near-misses on the river, where a call is the last decision.
        pot_before = pot - call
        if river and known:
            # Their river bets shown down: call a hand that beats a bluff when more of their
            # bets are bluffs than the price asks for.
            if read.river_bluff >= p and eq >= 0.5 * p:
                return passive(legal)
            return check_or_fold(legal)
        bluff_catch = rng.random() < 1 - defence_share(call, pot_before)
        if river and eq >= 0.75 * p and bluff_catch:
            return passive(legal)
        return check_or_fold(legal)

    # --- after the flop, multiway -----------------------------------------------------

    def _postflop(self, sit: Situation, rng: random.Random, reads: dict[int, Reads]) -> Action:
        legal = sit.legal
        tex = hf.texture(sit.board)
        n = len(sit.opponents)
        spr = sit.effective_stack / max(1, sit.pot)
        river = sit.street == "river"
        p = price(sit)
        # Before the river a call must also pay for the bets still to come.
        margin = 0.0 if river else (0.05 if sit.is_last_to_act_postflop else 0.07)
        eq = self.equity(sit, rng, reads=reads)
        if legal.call_cost == 0:
            frac = 0.5 + 0.3 * tex.wetness + (0.15 if river else 0.0)
            to = min(legal.max_to, legal.max_to if spr < 1.3 else pot_sized_to(sit, frac))
            value_edge = VALUE_EDGE + 0.05 * (n - 1)
            if eq >= 0.45 and self.equity_when_called(sit, rng, to, reads) >= value_edge:
                return aggressive(legal, to)
            return Action.check()
        to = legal.max_to if spr < 2.5 else pot_sized_to(sit, 0.85)
        raise_edge = RAISE_EDGE + 0.05 * (n - 1)
        if eq >= 0.5 and self.equity_when_called(sit, rng, to, reads) >= raise_edge:
            return aggressive(legal, to)
        if eq >= p + margin:
            return passive(legal)
        return check_or_fold(legal)


def _continued_on_flop(sit: Situation) -> bool:
    """We raised last before the flop, then made the flop's first bet and its last."""
    first = next((a for a in sit.street_actions("flop") if a.kind in ("bet", "raise")), None)
    return (
        first is not None
        and first.seat == sit.me
        and sit.last_aggressor("preflop") == sit.me
        and sit.last_aggressor("flop") == sit.me
    )


def _all_in_call(sit: Situation) -> bool:
    """A call now ends the betting: it takes our whole stack, or every opponent is all in."""
    legal = sit.legal
    if not legal.call_cost:
        return False
    return legal.call_cost >= legal.stack or not sit.live_opponents
