"""Draw Hard (R-AI-07): Monte Carlo of the draw against opponents' ranges read from their
draw counts and actions, with limited bluffing and snowing (standing pat on nothing).

Before the draw it estimates the equity of its textbook draw against each opponent's
pre-draw range; after the draw, against ranges narrowed by how many cards each opponent
took and how they bet. Bluffs follow the balanced share b/(p+2b) scaled down, and a
heads-up snow is rare and only when the opponent drew three.
"""

from __future__ import annotations

import random
from typing import Any

from ahiko.poker.actions import Action

from .cards7 import STRAIGHT
from .draw_eval import DrawHandInfo, analyse
from .draw_ranges import draw_equity
from .holdem_hard import bluff_share
from .situation import Situation, aggressive, check_or_fold, passive, price, situation_from_view

PREDRAW_SAMPLES = 500
POSTDRAW_SAMPLES = 700
SNOW_RATE = 0.08
BLUFF_SCALE = 0.6


class DrawHardBot:
    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        sit = situation_from_view(view)
        legal = sit.legal
        info = analyse(sit.hole, legal.max_discards if legal.is_draw_phase else 3)
        if legal.is_draw_phase:
            return self._discard(sit, info, rng)
        if sit.street == "postdraw":
            return self._after_draw(sit, info, rng)
        return self._before_draw(sit, info, rng)

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

    def _before_draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        n = len(sit.opponents)
        eq = draw_equity(sit, info.keep, PREDRAW_SAMPLES, rng)
        fair = 1 / (n + 1)
        if eq >= fair + 0.12 + 0.04 * sit.raises_on():
            return aggressive(legal, legal.max_to)
        if legal.call_cost == 0:
            return Action.check()
        # Pot odds now plus the bet after the draw that a winner usually collects.
        implied = 0.8 if info.is_drawing_hand else 0.95
        if eq >= price(sit) * implied:
            return passive(legal)
        return check_or_fold(legal)

    def _after_draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        n = len(sit.opponents)
        if info.category >= STRAIGHT and sit.raises_on() < 3:
            return aggressive(legal, legal.max_to)
        eq = draw_equity(sit, sit.hole, POSTDRAW_SAMPLES, rng)
        fair = 1 / (n + 1)
        snowed = sit.discards.get(sit.me) == 0 and info.category == 0
        if legal.call_cost == 0:
            if eq >= fair + 0.1:
                return aggressive(legal, legal.max_to)
            bet = legal.max_to - legal.committed
            bluff_p = bluff_share(bet, sit.pot) * BLUFF_SCALE
            if n == 1 and (snowed or (eq < 0.25 and rng.random() < bluff_p)):
                return aggressive(legal, legal.max_to)
            return Action.check()
        if eq >= fair + 0.22 and sit.raises_on() <= 2:
            return aggressive(legal, legal.max_to)
        if eq >= price(sit):
            return passive(legal)
        return check_or_fold(legal)
