"""Hold'em Easy (R-AI-02): plays on the immediate strength of its cards.

Pre-flop it looks only at its two cards' equity against a random hand; after the flop only at
the hand it has made (and, rarely, a big draw). It ignores position, stacks and opponents'
tendencies, bets a fixed share of the pot and bluffs seldom.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from . import holdem_features as hf
from .preflop import strength
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    situation_from_view,
)

BLUFF_RATE = 0.05


class HoldemEasyBot:
    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        if not sit.board:
            return self._preflop(sit, rng)
        return self._postflop(sit, rng)

    def _preflop(self, sit: Situation, rng: random.Random) -> Action:
        s = strength(*sit.hole) - 0.03 * (len(sit.opponents) - 1)
        legal, bb = sit.legal, sit.big_blind
        facing_raise = sit.raises_on("preflop") > 0
        if not facing_raise:
            if s >= 0.63:
                return aggressive(legal, 3 * bb + legal.committed)
            return passive(legal) if s >= 0.5 or legal.can_check else check_or_fold(legal)
        if s >= 0.72:
            return aggressive(legal, 3 * (legal.committed + legal.call_cost))
        cheap = legal.call_cost <= 6 * bb
        if s >= 0.66 or (s >= 0.58 and cheap):
            return passive(legal)
        return check_or_fold(legal)

    def _postflop(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        made = hf.made_hand(sit.hole, sit.board).level
        outs = hf.draws(sit.hole, sit.board).outs
        facing = legal.call_cost > 0
        share = legal.call_cost / max(1, sit.pot)
        if made >= hf.STRONG:
            return aggressive(legal, pot_sized_to(sit, 0.75))
        if made == hf.GOOD_PAIR:
            if not facing:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return passive(legal)
        if made == hf.WEAK_PAIR:
            return passive(legal) if share <= 0.5 else check_or_fold(legal)
        if outs >= 8 and share <= 0.35:
            return passive(legal)
        if not facing and rng.random() < BLUFF_RATE:
            return aggressive(legal, pot_sized_to(sit, 0.5))
        return check_or_fold(legal)
