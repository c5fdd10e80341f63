"""Pot-Limit Omaha Normal (R-AI-03): position, pot odds, starting-hand ranges and an equity
estimate against any hands.

Its one read of the table (ahiko.bots.memory, in the level bot): how much more often than most
an opponent bets and raises (``looseness``). Against a loose one it reads less into a bet.

Pre-flop: opening ranges of four-card points (ahiko.bots.omaha_eval) widen with fewer players
left to act; calls against a raise depend on the price. After the flop: a short Monte Carlo
equity against random hands (ahiko.bots.omaha_equity), lowered for each bet it faces (a bet in
Omaha usually means a made hand), compared with the pot odds; value bets by the pot-limit
scale (half to all of the pot) and continuation bets heads-up as the pre-flop raiser.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from .memory import TableMemory
from .omaha_equity import ANY_HAND, omaha_equity
from .omaha_eval import hand_percentile
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    price,
    situation_from_view,
)

SAMPLES = 400
OPEN_BY_PLAYERS_BEHIND = {0: 0.6, 1: 0.5, 2: 0.35, 3: 0.28, 4: 0.22}
OPEN_EARLY = 0.18
BET_READ = 0.12  # equity taken off for each bet or raise faced on this street


class PloNormalBot:
    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        if not sit.board:
            return self._preflop(sit, rng)
        return self._postflop(sit, rng, self._loosest(view, sit))

    def _loosest(self, view: HandView, sit: Situation) -> float:
        """How loose the loosest opponent still in the hand is (0 without a memory)."""
        if self.memory is None:
            return 0.0
        return max((self.memory.of(view, seat).looseness() for seat in sit.opponents), default=0.0)

    def _preflop(self, sit: Situation, rng: random.Random) -> Action:
        legal, bb = sit.legal, sit.big_blind
        pct = hand_percentile(sit.hole)
        raises = sit.raises_on("preflop")
        if raises == 0:
            behind = sit.players_behind_preflop()
            if pct <= OPEN_BY_PLAYERS_BEHIND.get(behind, OPEN_EARLY):
                return aggressive(legal, pot_sized_to(sit, 1.0))
            if legal.can_check:
                return Action.check()
            return passive(legal) if pct <= 0.45 and legal.call_cost <= bb else check_or_fold(legal)
        p = price(sit)
        if raises == 1 and pct <= 0.06:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        call_pct = max(0.05, min(0.4, 0.55 - 1.2 * p)) / raises
        if sit.is_last_to_act_postflop:
            call_pct += 0.04
        return passive(legal) if pct <= call_pct else check_or_fold(legal)

    def estimate_equity(self, sit: Situation, rng: random.Random, loose: float) -> float:
        eq = omaha_equity(sit.hole, sit.board, [ANY_HAND] * len(sit.opponents), SAMPLES, rng)
        bets = sit.raises_on()
        return max(0.0, eq - BET_READ * bets * (1.0 - 0.5 * loose))

    def _postflop(self, sit: Situation, rng: random.Random, loose: float) -> Action:
        legal = sit.legal
        eq = self.estimate_equity(sit, rng, loose)
        heads_up = len(sit.opponents) == 1
        if legal.call_cost == 0:
            if eq >= 0.6:
                return aggressive(legal, pot_sized_to(sit, 0.75))
            raiser = sit.last_aggressor("preflop") == sit.me
            if raiser and heads_up and sit.street == "flop" and rng.random() < 0.5:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return Action.check()
        if eq >= 0.7:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        if eq >= price(sit) + 0.05:
            return passive(legal)
        return check_or_fold(legal)
