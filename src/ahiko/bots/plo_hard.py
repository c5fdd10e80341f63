"""Pot-Limit Omaha Hard (R-AI-04): Monte Carlo equity over four-card hands against the range
each opponent's play shows, pot-limit bet sizing, and a memory of the table.

Ranges (ahiko.bots.omaha_equity): an opponent who raised before the flop holds the best
quarter of starting hands, one who called the best half or so, a blind who checked anything;
after the flop each bet or raise they made narrows them to the hands made strongest on the
board so far. The memory (ahiko.bots.memory,
``looseness``) widens every read of a player who bets and raises more than most.

Decisions weigh that equity against the price: value bets and raises by the pot-limit scale
(two thirds of the pot, the whole pot with the nuts nearly, all in when the stack left is
small beside the pot), calls when the equity beats the pot odds, and semi-bluffs with strong
draws in position. Equity runs on every street, pre-flop included.
"""

from __future__ import annotations

import random
from typing import Any

from ahiko.poker.actions import Action

from .memory import TableMemory
from .omaha_equity import OmahaRange, omaha_equity
from .omaha_eval import hand_percentile
from .situation import (
    AGGRESSIVE,
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    price,
    situation_from_view,
)

HEADS_UP_SAMPLES = 2_000
# Multiway, the samples shrink as the players grow (the work is samples times players), to
# no fewer than MULTIWAY_SAMPLES: a decision stays within its time at nine seats.
PLAYER_HANDS, MULTIWAY_SAMPLES = 4_500, 500
RAISED_PREFLOP, CALLED_PREFLOP = 0.25, 0.55
# Each bet or raise after the flop keeps this share of the bettor's range, the hands made
# strongest on the board so far (a bet in Omaha is seldom nothing), down to NARROWEST.
BET_NARROWS, NARROWEST = 0.5, 0.1


class PloHardBot:
    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        sit = situation_from_view(view)
        reads = [self._read(view, sit, seat) for seat in sit.opponents]
        samples = HEADS_UP_SAMPLES
        if len(reads) > 1:
            samples = max(MULTIWAY_SAMPLES, PLAYER_HANDS // (len(reads) + 1))
        eq = omaha_equity(sit.hole, sit.board, reads, samples, rng)
        if not sit.board:
            return self._preflop(sit, eq, rng)
        return self._postflop(sit, eq, rng)

    def _looseness(self, view: dict[str, Any], seat: int) -> float:
        return 0.0 if self.memory is None else self.memory.of(view, seat).looseness()

    def _read(self, view: dict[str, Any], sit: Situation, seat: int) -> OmahaRange:
        """The range ``seat``'s play shows so far."""
        widen = 1.0 + self._looseness(view, seat)
        pre = [a for a in sit.street_actions("preflop") if a.seat == seat]
        preflop = 1.0
        if any(a.kind in ("bet", "raise") for a in pre):
            preflop = RAISED_PREFLOP
        elif any(a.kind == "call" for a in pre):
            preflop = CALLED_PREFLOP
        bets = sum(
            1
            for a in sit.actions
            if a.seat == seat and a.street != "preflop" and a.kind in AGGRESSIVE
        )
        made = max(NARROWEST, BET_NARROWS**bets)
        return OmahaRange(min(1.0, preflop * widen), min(1.0, made * widen))

    def _preflop(self, sit: Situation, eq: float, rng: random.Random) -> Action:
        legal = sit.legal
        fair = 1.0 / (len(sit.opponents) + 1)
        edge = eq / fair  # 1.0: an average hand against these ranges
        pct = hand_percentile(sit.hole)
        raises = sit.raises_on("preflop")
        if raises == 0:
            behind = sit.players_behind_preflop()
            open_pct = 0.55 if behind <= 1 else 0.3
            if pct <= open_pct or edge >= 1.15:
                return aggressive(legal, pot_sized_to(sit, 1.0))
            return Action.check() if legal.can_check else check_or_fold(legal)
        if edge >= 1.2 and raises <= 2:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        if eq >= price(sit) + 0.02 or (edge >= 0.95 and legal.call_cost <= 4 * sit.big_blind):
            return passive(legal)
        return check_or_fold(legal)

    def _postflop(self, sit: Situation, eq: float, rng: random.Random) -> Action:
        legal = sit.legal
        spr = sit.effective_stack / max(1, sit.pot)
        heads_up = len(sit.opponents) == 1
        value = 0.55 if heads_up else 0.45
        if legal.call_cost == 0:
            if eq >= value:
                return aggressive(legal, legal.max_to if spr < 1.0 else pot_sized_to(sit, 0.7))
            in_position = sit.is_last_to_act_postflop
            if heads_up and sit.street != "river" and eq >= 0.4 and rng.random() < 0.5:
                return aggressive(legal, pot_sized_to(sit, 0.6))
            if heads_up and in_position and eq < 0.25 and rng.random() < 0.15:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return Action.check()
        p = price(sit)
        if eq >= max(value + 0.15, p + 0.25):
            return aggressive(legal, legal.max_to if spr < 2.0 else pot_sized_to(sit, 1.0))
        if eq >= p:
            return passive(legal)
        return check_or_fold(legal)
