"""Hold'em Hard (R-AI-04): Monte Carlo equity against the opponents' ranges as narrowed by
their public actions, bet sizes from the board and the stack-to-pot ratio, and bluff and
defence frequencies from the bet size (bluffs b/(p+2b) of a betting range; defend p/(p+b)).
Uses only the public history and its own cards.
"""

from __future__ import annotations

import random
from typing import Any

from ahiko.poker.actions import Action

from . import holdem_features as hf
from .equity import equity_multiway
from .holdem_normal import OPEN_PERCENTILE_BY_PLAYERS_BEHIND, OPEN_PERCENTILE_EARLY
from .holdem_ranges import continuing_range, opponent_ranges
from .preflop import hand_percentile
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    price,
    situation_from_view,
)

# ±1% equity at 95% needs about 9,600 samples (FACTS.md), on every street: heads-up on eval7's
# Monte Carlo, multiway on our numpy simulator (ahiko.bots.equity).
HEADS_UP_SAMPLES = 10_000
MULTIWAY_SAMPLES = 9_600
# Equity a bet or raise needs against the hands that call it.
VALUE_EDGE = 0.55
RAISE_EDGE = 0.62


def bluff_share(bet: float, pot: float) -> float:
    """Share of bluffs in a balanced betting range for a bet ``bet`` into ``pot``."""
    return bet / (pot + 2 * bet) if bet > 0 else 0.0


def defence_share(bet: float, pot: float) -> float:
    """Minimum share of its range a player must continue with against ``bet`` into ``pot``."""
    return pot / (pot + bet) if bet > 0 else 1.0


class HoldemHardBot:
    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        sit = situation_from_view(view)
        if not sit.board:
            return self._preflop(sit, rng)
        return self._postflop(sit, rng)

    def equity(
        self,
        sit: Situation,
        rng: random.Random,
        continuing: float | None = None,
    ) -> float:
        """Equity against the opponents' ranges; with ``continuing``, against only the share
        of each range that would go on against our bet."""
        ranges = opponent_ranges(sit)
        opp = [ranges[s] for s in sit.opponents]
        if continuing is not None:
            opp = [continuing_range(r, sit.board, continuing) for r in opp]
        samples = HEADS_UP_SAMPLES if len(opp) == 1 else MULTIWAY_SAMPLES
        return equity_multiway(sit.hole, sit.board, opp, samples, rng)

    def equity_when_called(self, sit: Situation, rng: random.Random, to: int) -> float:
        """Equity against the hands that call a bet or raise to ``to``: each opponent defends
        the minimum share p/(p+b) of its range."""
        bet = to - sit.legal.committed - sit.legal.call_cost
        pot = sit.pot + sit.legal.call_cost
        return self.equity(sit, rng, continuing=defence_share(bet, pot))

    # --- pre-flop ---------------------------------------------------------------------

    def _preflop(self, sit: Situation, rng: random.Random) -> Action:
        legal, bb = sit.legal, sit.big_blind
        pct = hand_percentile(*sit.hole)
        raises = sit.raises_on("preflop")
        heads_up = len(sit.opponents) == 1
        if raises == 0:
            behind = sit.players_behind_preflop()
            open_pct = OPEN_PERCENTILE_BY_PLAYERS_BEHIND.get(behind, OPEN_PERCENTILE_EARLY)
            if heads_up:
                open_pct = 0.7 if not legal.can_check else 0.0
            if legal.can_check:  # big blind after limps: raise for value only
                cut = 0.56 + 0.04 * (len(sit.opponents) - 1)
                eq = self.equity(sit, rng)
                if eq >= cut:
                    return aggressive(legal, sit.pot + bb * 2)
                return Action.check()
            if pct <= open_pct:
                short = sit.effective_stack <= 12 * bb
                return aggressive(legal, legal.max_to if short else 2.5 * bb)
            return check_or_fold(legal)
        p = price(sit)
        value_cut = 0.6 if raises == 1 else 0.58
        margin = 0.0 if sit.is_last_to_act_postflop else 0.04
        if legal.call_cost < sit.effective_stack * 0.1:
            margin -= 0.04  # implied odds when the call is small against the stacks
        eq = self.equity(sit, rng)
        raise_to = 3 * (legal.committed + legal.call_cost) + sit.pot // 3
        jam = raise_to * 2.5 >= legal.max_to
        if eq >= value_cut:
            return aggressive(legal, legal.max_to if jam else raise_to)
        bet_size = raise_to - legal.committed
        if (
            heads_up
            and raises == 1
            and 0.12 <= pct <= 0.35
            and rng.random() < bluff_share(bet_size, sit.pot + legal.call_cost)
        ):
            return aggressive(legal, raise_to)
        if eq >= p + margin:
            return passive(legal)
        return check_or_fold(legal)

    # --- after the flop ---------------------------------------------------------------

    def _postflop(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        tex = hf.texture(sit.board)
        draw = hf.draws(sit.hole, sit.board)
        n = len(sit.opponents)
        spr = sit.effective_stack / max(1, sit.pot)
        river = sit.street == "river"
        p = price(sit)
        # Before the river a call must also pay for the bets still to come.
        margin = 0.0 if river else (0.05 if sit.is_last_to_act_postflop else 0.07)
        eq = self.equity(sit, rng)
        if legal.call_cost == 0:
            frac = 0.5 + 0.3 * tex.wetness + (0.15 if river else 0.0)
            to = min(legal.max_to, legal.max_to if spr < 1.3 else pot_sized_to(sit, frac))
            value_edge = VALUE_EDGE + 0.05 * (n - 1)
            if eq >= 0.45 and self.equity_when_called(sit, rng, to) >= value_edge:
                return aggressive(legal, to)
            if n == 1:
                if not river and draw.outs >= 8 and rng.random() < 0.6:
                    return aggressive(legal, to)
                aggressor = sit.last_aggressor("preflop") == sit.me
                bet = frac * sit.pot
                bluff_p = bluff_share(bet, sit.pot) * (1.2 if aggressor else 0.7)
                if eq < 0.35 and rng.random() < bluff_p:
                    return aggressive(legal, to)
            return Action.check()
        to = legal.max_to if spr < 2.5 else pot_sized_to(sit, 0.85)
        raise_edge = RAISE_EDGE + 0.05 * (n - 1)
        if eq >= 0.5 and self.equity_when_called(sit, rng, to) >= raise_edge:
            return aggressive(legal, to)
        if n == 1 and sit.street == "flop" and draw.outs >= 8 and rng.random() < 0.3:
            return aggressive(legal, to)
        if eq >= p + margin:
            return passive(legal)
        # Defence: against a bet b into p the bettor profits if we fold more than b/(p+b);
        # bluff-catch some near-misses on the river, where a call is the last decision.
        bet = legal.call_cost
        pot_before = sit.pot - bet
        bluff_catch = rng.random() < 1 - defence_share(bet, pot_before)
        if river and n == 1 and eq >= 0.75 * p and bluff_catch:
            return passive(legal)
        return check_or_fold(legal)
