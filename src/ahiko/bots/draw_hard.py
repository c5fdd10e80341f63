"""Draw Hard (R-AI-07): Monte Carlo of the draw against opponents' ranges read from their
draw counts and actions, with limited bluffing and snowing (standing pat on nothing).

Before the draw it estimates the equity of its textbook draw against each opponent's
pre-draw range; after the draw, against ranges narrowed by how many cards each opponent
took and how they bet. Bluffs follow the balanced share b/(p+2b) scaled down, and a
heads-up snow is rare and only when the opponent drew three.

With the table's memory (ahiko.bots.memory) the ranges follow each opponent's record
(ahiko.bots.draw_ranges.DrawReads), and heads-up it steals and defends the antes by expected
value: a bet of b into p is worth f·p + (1−f)·(e·(p+2b) − b), f the share the opponent folds
(its record; more after it checked), e our equity against the hands that call; a bet on
little equity is a bluff, made with the capped probability of holdem_hard.bluff_probability.
The same rule prices bluffs after the draw against the opponent's fold rate there (to a
continuation bet when we bet last before the draw), and a river bet is called with less when
more of the opponent's bets shown down were bluffs than the price asks for.

Without a record a player is priced by defaults that hold against every kind of player: half
their hands fold to a bet before the draw (STEAL_FOLD_DEFAULT), so a tight player's antes are
worth taking, and after the draw a good share folds, more once they checked, and not only the
hands we beat (new players fold pairs to a bet as often as they call with nothing), so a bet
worth more than a check is made outright with showdown value and a pair bets when checked to;
only a bet on little equity is a bluff. A bettor after the draw is given more bluffs than a record of a tight
player would show (ahiko.bots.draw_ranges), so a maniac's bets are not paid off by folding.
A record then moves each figure; one of folding most continuation bets makes a bet before the
draw worth it for the bet after.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from .cards7 import STRAIGHT
from .draw_eval import DrawHandInfo, analyse
from .draw_ranges import DrawReads, draw_equity, draw_reads
from .holdem_hard import MAX_BLUFF_P, bluff_cap, bluff_probability
from .memory import TableMemory
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    price,
    situation_from_view,
)

PREDRAW_SAMPLES = 500
POSTDRAW_SAMPLES = 700
SNOW_RATE = 0.08
STEAL_FOLD_DEFAULT = 0.5  # share of hands a player we know nothing about folds to a bet
# Share of the pots a bet before the draw must win (folds after the draw, then equity) to
# be made for the bet after it.
BUILD_FOR_CBET = 0.7
# A player we know nothing about, after the draw: the share that folds to a bet (more once
# they have checked), and the share of those folds that come from the hands we beat first
# (the rest fold whatever they hold, as players new to a table do).
FOLD_AFTER_DRAW_DEFAULT = 0.45
FOLD_AFTER_CHECK_EXTRA = 0.35
FOLDS_BY_STRENGTH_DEFAULT = 0.5
# Against such a player a bet worth more than a check is made outright with this much equity
# (before the draw, and after it): some of the hands that fold beat us. Below it, and against
# a player we read (whose folds are the hands we beat), it is a bluff unless a favourite when
# called, made at the capped balanced rate.
SHOWDOWN_VALUE_BEFORE_DRAW = 0.5
SHOWDOWN_VALUE_AFTER_DRAW = 0.3
# Equity over a fair share that raises a bet after the draw: less from a player we know
# nothing about, whose bets hold more bluffs than a tight player's record shows.
RAISE_EDGE_AFTER_DRAW = 0.15
RAISE_EDGE_READ = 0.22


class DrawHardBot:
    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        legal = sit.legal
        info = analyse(sit.hole, legal.max_discards if legal.is_draw_phase else 3)
        if legal.is_draw_phase:
            return self._discard(sit, info, rng)
        reads: dict[int, DrawReads] = {}
        if self.memory is not None:
            for s in sit.opponents:
                r = draw_reads(self.memory.of(view, s))
                if r is not None:
                    reads[s] = r
        if sit.street == "postdraw":
            return self._after_draw(sit, info, rng, reads)
        return self._before_draw(sit, info, rng, reads)

    def _discard(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        opp_draws = [sit.discards.get(s) for s in sit.opponents]
        heads_up = len(opp_draws) == 1
        raised = sit.last_aggressor("predraw") == sit.me
        if (
            heads_up
            and opp_draws[0] == 3
            and raised
            and info.category == 0
            and not info.is_drawing_hand
            and rng.random() < SNOW_RATE
        ):
            return Action.discard(())
        return Action.discard(info.discard)

    def _before_draw(
        self, sit: Situation, info: DrawHandInfo, rng: random.Random, reads: dict[int, DrawReads]
    ) -> Action:
        legal = sit.legal
        n = len(sit.opponents)
        eq = draw_equity(sit, info.keep, PREDRAW_SAMPLES, rng, reads)
        fair = 1 / (n + 1)
        if eq >= fair + 0.12 + 0.04 * sit.raises_on():
            return aggressive(legal, legal.max_to)
        if legal.call_cost == 0:
            if n == 1 and legal.bet_kind is not None and self._steal(sit, info, rng, reads, eq):
                return aggressive(legal, legal.max_to)
            return Action.check()
        # Pot odds now plus the bet after the draw that a winner usually collects.
        implied = 0.8 if info.is_drawing_hand else 0.95
        if eq >= price(sit) * implied:
            return passive(legal)
        return check_or_fold(legal)

    def _steal(
        self,
        sit: Situation,
        info: DrawHandInfo,
        rng: random.Random,
        reads: dict[int, DrawReads],
        eq: float,
    ) -> bool:
        """Heads-up, nobody has bet before the draw: is a bet worth more than a check?"""
        (opp,) = sit.opponents
        r = reads.get(opp)
        legal = sit.legal
        bet = legal.max_to - legal.committed
        pot = sit.pot
        checked = any(a.seat == opp and a.kind == "check" for a in sit.street_actions())
        fold = (r.fold_pre if r is not None else STEAL_FOLD_DEFAULT) + (0.1 if checked else 0.0)
        fold = min(0.95, fold)
        called = draw_equity(sit, info.keep, PREDRAW_SAMPLES, rng, reads, assume="called")
        if r is not None and r.fold_cbet + (1 - r.fold_cbet) * called >= BUILD_FOR_CBET:
            # A bet now grows the pot that our bet after the draw takes from a player whose
            # record says they give most of those up.
            return True
        ev_bet = fold * pot + (1 - fold) * (called * (pot + 2 * bet) - bet)
        if ev_bet <= eq * pot:
            return False
        if called >= 0.5 or (r is None and eq >= SHOWDOWN_VALUE_BEFORE_DRAW):
            return True
        return rng.random() < bluff_probability(bet, pot, fold)

    def _bet_after_draw(
        self, sit: Situation, eq: float, read: DrawReads | None, rng: random.Random
    ) -> bool:
        """Heads-up after the draw, nobody has bet: is a bet worth more than a check? They
        fold ``f``: with a record, to a continuation bet when we bet last before the draw, else
        to a street's first bet; without one, FOLD_AFTER_DRAW_DEFAULT, more once they checked.
        A player we read folds the hands we beat first, so against the rest our equity is at
        least (eq − f)/(1 − f); one we know nothing about folds only half of them first. A bet
        worth more than the check is made with showdown value (SHOWDOWN_VALUE_AFTER_DRAW) or
        as a favourite when called; otherwise it is a bluff, made with the capped
        probability."""
        legal = sit.legal
        bet = legal.max_to - legal.committed
        pot = sit.pot
        if read is None:
            checked = any(a.kind == "check" for a in sit.street_actions())
            fold = FOLD_AFTER_DRAW_DEFAULT + (FOLD_AFTER_CHECK_EXTRA if checked else 0.0)
        else:
            fold = read.fold_cbet if sit.last_aggressor("predraw") == sit.me else read.fold_first
        # The share of the folds that come from the hands we beat first: all of them for a
        # player whose record we read, part of them for one we know nothing about.
        by_strength = 1.0 if read is not None else FOLDS_BY_STRENGTH_DEFAULT
        beaten_left = eq - by_strength * fold - (1.0 - by_strength) * fold * eq
        called = max(0.0, beaten_left / (1.0 - fold)) if fold < 1.0 else 1.0
        ev_bet = fold * pot + (1 - fold) * (called * (pot + 2 * bet) - bet)
        if ev_bet <= eq * pot:
            return False
        if called >= 0.5 or (read is None and eq >= SHOWDOWN_VALUE_AFTER_DRAW):
            return True
        cap = bluff_cap(fold) if read is not None else MAX_BLUFF_P  # only a record earns more
        return rng.random() < bluff_probability(bet, pot, fold, cap)

    def _after_draw(
        self, sit: Situation, info: DrawHandInfo, rng: random.Random, reads: dict[int, DrawReads]
    ) -> Action:
        legal = sit.legal
        n = len(sit.opponents)
        if info.category >= STRAIGHT and sit.raises_on() < 3:
            return aggressive(legal, legal.max_to)
        eq = draw_equity(sit, sit.hole, POSTDRAW_SAMPLES, rng, reads)
        fair = 1 / (n + 1)
        snowed = sit.discards.get(sit.me) == 0 and info.category == 0
        read = reads.get(sit.opponents[0]) if n == 1 else None
        if legal.call_cost == 0:
            if eq >= fair + 0.1:
                return aggressive(legal, legal.max_to)
            if n == 1 and (snowed or self._bet_after_draw(sit, eq, read, rng)):
                return aggressive(legal, legal.max_to)
            return Action.check()
        edge = RAISE_EDGE_READ if reads else RAISE_EDGE_AFTER_DRAW
        if eq >= fair + edge and sit.raises_on() <= 2:
            return aggressive(legal, legal.max_to)
        p = price(sit)
        if eq >= p:
            return passive(legal)
        if read is not None and read.river_bluff >= p and eq >= 0.5 * p:
            # More of their bets shown down were bluffs than the price asks for.
            return passive(legal)
        return check_or_fold(legal)
