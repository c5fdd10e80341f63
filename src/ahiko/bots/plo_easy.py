"""Pot-Limit Omaha Easy (R-AI-02): plays on the immediate strength of its cards.

Before the flop it looks only at its four cards' points (ahiko.bots.omaha_eval); after it only
at the Omaha hand it has made (two of its cards and three of the board), never at whether a
better one is possible. It ignores position, stacks and opponents, bets a fixed share of the
pot and bluffs seldom.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from .cards7 import PAIR, STRAIGHT, TWO_PAIR, category, shown_value
from .omaha_eval import hand_percentile
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    situation_from_view,
)

BLUFF_RATE = 0.05


class PloEasyBot:
    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        if not sit.board:
            return self._preflop(sit)
        return self._postflop(sit, rng)

    def _preflop(self, sit: Situation) -> Action:
        legal = sit.legal
        pct = hand_percentile(sit.hole)
        if sit.raises_on("preflop") == 0:
            if pct <= 0.12:
                return aggressive(legal, pot_sized_to(sit, 1.0))
            return passive(legal) if pct <= 0.55 or legal.can_check else check_or_fold(legal)
        if pct <= 0.04:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        cheap = legal.call_cost <= 8 * sit.big_blind
        return passive(legal) if pct <= 0.15 or (pct <= 0.35 and cheap) else check_or_fold(legal)

    def _postflop(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        made = category(shown_value(sit.variant, sit.hole, sit.board))
        facing = legal.call_cost > 0
        share = legal.call_cost / max(1, sit.pot)
        if made >= STRAIGHT:
            return aggressive(legal, pot_sized_to(sit, 0.75))
        if made >= TWO_PAIR:
            if not facing:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return passive(legal) if share <= 0.6 else check_or_fold(legal)
        if made == PAIR:
            return passive(legal) if share <= 0.3 else check_or_fold(legal)
        if not facing and rng.random() < BLUFF_RATE:
            return aggressive(legal, pot_sized_to(sit, 0.5))
        return check_or_fold(legal)
