"""Pot-Limit Omaha Hard (R-AI-04): Monte Carlo equity over four-card hands against the range
each opponent's play shows, pot-limit bet sizing, and a memory of the table.

Ranges (ahiko.bots.omaha_equity): an opponent who opened before the flop holds the best
45% of starting hands, one who re-raised the best 12%, one who called the best 60%, a blind who
checked anything;
after the flop each bet or raise they made narrows them to the hands made strongest on the
board so far. The memory (ahiko.bots.memory,
``looseness``) widens every read of a player who bets and raises more than most.

Decisions weigh that equity against the price: value bets and raises by the pot-limit scale
(three quarters of the pot, the whole pot when well ahead, all in when the stack left is small
beside the pot) and calls when the equity beats the pot odds by a margin (more out of
position); no bluffs: the levels below it call too much for them to pay. Equity runs on every street, pre-flop included.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

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
# Opening raises (pot-sized) by the players left to act: heads-up nearly every hand, as
# strong heads-up Omaha players open the button.
OPEN_BY_PLAYERS_BEHIND, OPEN_EARLY = {0: 0.9, 1: 0.9, 2: 0.45, 3: 0.35}, 0.25
# The share of starting hands an opening raise, a re-raise and a call show.
OPENED_PREFLOP, RERAISED_PREFLOP, CALLED_PREFLOP = 0.45, 0.12, 0.6
# Each bet or raise after the flop keeps this share of the bettor's range, the hands made
# strongest on the board so far (a bet in Omaha is seldom nothing), down to NARROWEST.
BET_NARROWS, NARROWEST = 0.5, 0.1
CONTINUATION_NARROWS = 0.8
# Equity a call needs beyond the pot odds (all-in equity is more than a hand realises).
REALISE_IN_POSITION, REALISE_OUT_OF_POSITION = 0.03, 0.08


class PloHardBot:
    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        reads = [self._read(view, sit, seat) for seat in sit.opponents]
        samples = HEADS_UP_SAMPLES
        if len(reads) > 1:
            samples = max(MULTIWAY_SAMPLES, PLAYER_HANDS // (len(reads) + 1))
        eq = omaha_equity(sit.hole, sit.board, reads, samples, rng)
        if not sit.board:
            return self._preflop(sit, eq, rng)
        return self._postflop(sit, eq, rng)

    def _looseness(self, view: HandView, seat: int) -> float:
        return 0.0 if self.memory is None else self.memory.of(view, seat).looseness()

    def _read(self, view: HandView, sit: Situation, seat: int) -> OmahaRange:
        """The range ``seat``'s play shows so far."""
        widen = 1.0 + self._looseness(view, seat)
        preflop, raises = 1.0, 0
        for a in sit.street_actions("preflop"):
            if a.kind in AGGRESSIVE:
                raises += 1
            if a.seat == seat and a.kind in AGGRESSIVE:
                preflop = min(preflop, OPENED_PREFLOP if raises == 1 else RERAISED_PREFLOP)
            elif a.seat == seat and a.kind == "call":
                preflop = min(preflop, CALLED_PREFLOP)
        made = 1.0
        raiser = sit.last_aggressor("preflop") == seat
        for a in sit.actions:
            if a.seat != seat or a.street == "preflop" or a.kind not in AGGRESSIVE:
                continue
            # The pre-flop raiser bets most flops whatever it holds: that bet says little.
            continuation = raiser and a.street == "flop" and made == 1.0
            made = max(NARROWEST, made * (CONTINUATION_NARROWS if continuation else BET_NARROWS))
        return OmahaRange(min(1.0, preflop * widen), min(1.0, made * widen))

    def _preflop(self, sit: Situation, eq: float, rng: random.Random) -> Action:
        legal = sit.legal
        fair = 1.0 / (len(sit.opponents) + 1)
        edge = eq / fair  # 1.0: an average hand against these ranges
        pct = hand_percentile(sit.hole)
        raises = sit.raises_on("preflop")
        if raises == 0:
            behind = sit.players_behind_preflop()
            open_pct = OPEN_BY_PLAYERS_BEHIND.get(behind, OPEN_EARLY)
            if pct <= open_pct or edge >= 1.15:
                return aggressive(legal, pot_sized_to(sit, 1.0))
            return Action.check() if legal.can_check else check_or_fold(legal)
        if edge >= 1.2 and raises <= 2:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        # All-in equity overstates what a called hand wins, the more so out of position.
        margin = REALISE_IN_POSITION if sit.is_last_to_act_postflop else REALISE_OUT_OF_POSITION
        if eq >= price(sit) + margin:
            return passive(legal)
        return check_or_fold(legal)

    def _postflop(self, sit: Situation, eq: float, rng: random.Random) -> Action:
        legal = sit.legal
        spr = sit.effective_stack / max(1, sit.pot)
        heads_up = len(sit.opponents) == 1
        value = 0.52 if heads_up else 0.42
        if legal.call_cost == 0:
            if eq >= value:
                size = 1.0 if eq >= value + 0.15 else 0.75
                return aggressive(legal, legal.max_to if spr < 1.0 else pot_sized_to(sit, size))
            return Action.check()
        p = price(sit)
        if eq >= max(value + 0.15, p + 0.25):
            return aggressive(legal, legal.max_to if spr < 2.0 else pot_sized_to(sit, 1.0))
        if eq >= p + REALISE_IN_POSITION:
            return passive(legal)
        return check_or_fold(legal)
