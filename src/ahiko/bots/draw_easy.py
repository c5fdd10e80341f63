"""Draw Easy (R-AI-05): bets and raises with a pair or better, calls with a pair, bluffs
rarely; draws by the textbook (keep pairs and trips, draw to four-flushes and open-enders)."""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from .cards7 import PAIR, TWO_PAIR
from .draw_eval import analyse
from .situation import aggressive, check_or_fold, passive, situation_from_view

BLUFF_RATE = 0.04
MAX_RAISES = 3  # heads-up there is no cap (R-DR-04): stop raising here


class DrawEasyBot:
    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        legal = sit.legal
        info = analyse(sit.hole, legal.max_discards if legal.is_draw_phase else 3)
        if legal.is_draw_phase:
            return Action.discard(info.discard)
        raising = info.category >= TWO_PAIR and sit.raises_on() < MAX_RAISES
        if raising or (info.category == PAIR and legal.call_cost == 0):
            return aggressive(legal, legal.max_to)
        if info.category >= PAIR:
            return passive(legal)
        if sit.street != "postdraw" and info.is_drawing_hand and legal.call_cost <= sit.small_bet:
            return passive(legal)
        if legal.call_cost == 0 and rng.random() < BLUFF_RATE:
            return aggressive(legal, legal.max_to)
        return check_or_fold(legal)
