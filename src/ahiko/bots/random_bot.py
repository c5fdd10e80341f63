"""The baseline: uniform over the kinds of action, for measuring the other bots against.

Facing a bet: fold, call or raise, one third each; otherwise check or bet, one half each.
A bet or raise goes to the minimum, the pot or all-in with equal chance. In the draw phase
it throws away 0 to 3 random cards.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from .situation import aggressive, passive, pot_sized_to, situation_from_view


class RandomBot:
    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        legal = sit.legal
        if legal.is_draw_phase:
            n = rng.randint(0, min(3, legal.max_discards, len(sit.hole)))
            return Action.discard(tuple(rng.sample(sorted(sit.hole), n)))
        choices = ["passive"]
        if legal.can_fold and not legal.can_check:
            choices.append("fold")
        if legal.bet_kind is not None:
            choices.append("raise")
        pick = rng.choice(choices)
        if pick == "fold":
            return Action.fold()
        if pick == "passive":
            return passive(legal)
        size = rng.choice(("min", "pot", "all-in"))
        to = {"min": legal.min_to, "pot": pot_sized_to(sit, 1.0), "all-in": legal.max_to}[size]
        return aggressive(legal, to)
