"""Hold'em Normal (R-AI-03): position, stack depth, pot odds, board texture and simplified
starting-hand ranges.

Its one read of the table (ahiko.bots.memory, in the level bot): how much more often than
most an opponent bets and raises (``looseness``, 0 for most players). Against a loose one it
calls re-raises and all-ins wider, reads less into a bet and values its made hand against a
wide range; against everyone else it plays exactly as without it.

Pre-flop: opening ranges widen with fewer players left to act, calls against a raise depend
on the price, short stacks (12 big blinds or less) play push or fold. After the flop: an
equity estimate from the made hand and the draws (outs), lowered by the number of opponents,
by raises faced and on coordinated boards, compared with the pot odds; bet sizes follow the
board texture and the stack-to-pot ratio; continuation bets as the pre-flop aggressor.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from . import holdem_features as hf
from .memory import TableMemory
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

PUSH_FOLD_BB = 12
OPEN_PERCENTILE_BY_PLAYERS_BEHIND = {0: 0.8, 1: 0.8, 2: 0.42, 3: 0.3, 4: 0.22}
OPEN_PERCENTILE_EARLY = 0.16
MADE_EQUITY = {
    hf.NOTHING: 0.12,
    hf.WEAK_PAIR: 0.42,
    hf.GOOD_PAIR: 0.66,
    hf.STRONG: 0.82,
    hf.MONSTER: 0.92,
}
# The same against a player who bets and raises nearly anything (its range is most hands).
MADE_EQUITY_LOOSE = {
    hf.NOTHING: 0.3,
    hf.WEAK_PAIR: 0.6,
    hf.GOOD_PAIR: 0.78,
    hf.STRONG: 0.9,
    hf.MONSTER: 0.95,
}


class HoldemNormalBot:
    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        loose = 0.0
        if self.memory is not None and sit.opponents:
            loose = max(self.memory.of(view, s).looseness() for s in sit.opponents)
        if not sit.board:
            return self._preflop(sit, rng, loose)
        return self._postflop(sit, rng, loose)

    # --- pre-flop ---------------------------------------------------------------------

    def _preflop(self, sit: Situation, rng: random.Random, loose: float = 0.0) -> Action:
        legal, bb = sit.legal, sit.big_blind
        pct = hand_percentile(*sit.hole)
        extra = len(sit.opponents) - 1
        raises = sit.raises_on("preflop")
        eff_bb = sit.effective_stack / bb
        if eff_bb <= PUSH_FOLD_BB:
            return self._push_fold(sit, pct, eff_bb)
        if raises == 0:
            behind = sit.players_behind_preflop()
            open_pct = OPEN_PERCENTILE_BY_PLAYERS_BEHIND.get(behind, OPEN_PERCENTILE_EARLY)
            limpers = sum(1 for a in sit.street_actions() if a.kind == "call")
            if limpers:
                open_pct *= 0.6
            open_pct *= 1.0 - 0.4 * loose  # a loose player behind re-raises: open less
            if pct <= open_pct:
                return aggressive(legal, (2.5 + limpers) * bb)
            if legal.can_check:
                return Action.check()
            if limpers and pct <= open_pct * 1.6:
                return passive(legal)
            return check_or_fold(legal)
        p = price(sit)
        if raises == 1:
            value_3bet = 0.05 - 0.01 * extra
            if pct <= value_3bet or (0.22 <= pct <= 0.26 and rng.random() < 0.35 and not extra):
                return aggressive(legal, 3 * (legal.committed + legal.call_cost) + sit.pot // 3)
            call_pct = min(0.7, max(0.05, 0.85 - 1.6 * p)) - 0.06 * extra
            if sit.is_last_to_act_postflop:
                call_pct += 0.05
            call_pct += (0.15 if _all_in_call(sit) else 0.35) * loose
            return passive(legal) if pct <= call_pct else check_or_fold(legal)
        if pct <= 0.025:
            return aggressive(legal, legal.max_to)
        call_pct = min(0.12, max(0.03, 0.3 - 0.5 * p))
        call_pct += (0.15 if _all_in_call(sit) else 0.45) * loose
        return passive(legal) if pct <= call_pct else check_or_fold(legal)

    def _push_fold(self, sit: Situation, pct: float, eff_bb: float) -> Action:
        legal = sit.legal
        extra = len(sit.opponents) - 1
        if sit.raises_on("preflop") == 0:
            push_pct = min(0.75, 3.5 / eff_bb) - 0.08 * extra
            if pct <= push_pct:
                return aggressive(legal, legal.max_to)
            return passive(legal) if legal.can_check else check_or_fold(legal)
        call_pct = min(0.5, 2.2 / eff_bb) - 0.06 * extra
        if pct <= call_pct * 0.5:
            return aggressive(legal, legal.max_to)
        return passive(legal) if pct <= call_pct else check_or_fold(legal)

    # --- after the flop ---------------------------------------------------------------

    def estimate_equity(self, sit: Situation, read_bet: bool = True, loose: float = 0.0) -> float:
        made = hf.made_hand(sit.hole, sit.board)
        draw = hf.draws(sit.hole, sit.board)
        tex = hf.texture(sit.board)
        eq = MADE_EQUITY[made.level] * (1 - loose) + MADE_EQUITY_LOOSE[made.level] * loose
        if made.level in (hf.GOOD_PAIR, hf.WEAK_PAIR):
            eq -= 0.12 * tex.wetness
        cards_to_come = 5 - len(sit.board)
        draw_eq = min(0.5, draw.outs * (0.04 if cards_to_come == 2 else 0.02))
        eq = eq + draw_eq * (1 - eq)
        eq -= 0.08 * (len(sit.opponents) - 1)
        eq -= 0.08 * max(0, sit.raises_on() - 1) * (1.0 - loose)
        if read_bet and sit.legal.call_cost:
            # A bet says something: the bigger and the later, the stronger it tends to be.
            size = min(1.0, sit.legal.call_cost / max(1, sit.pot - sit.legal.call_cost))
            eq -= ((0.04 if cards_to_come == 2 else 0.08) + 0.08 * size) * (1.0 - loose)
        return max(0.02, min(0.98, eq))

    def _postflop(self, sit: Situation, rng: random.Random, loose: float = 0.0) -> Action:
        legal = sit.legal
        eq = self.estimate_equity(sit, loose=loose)
        tex = hf.texture(sit.board)
        spr = sit.effective_stack / max(1, sit.pot)
        size = 0.5 + 0.3 * tex.wetness
        draw = hf.draws(sit.hole, sit.board)
        if legal.call_cost == 0:
            if eq >= 0.62:
                return aggressive(legal, legal.max_to if spr < 1.2 else pot_sized_to(sit, size))
            aggressor = sit.last_aggressor("preflop") == sit.me
            heads_up = len(sit.opponents) == 1
            if (
                aggressor
                and heads_up
                and sit.street == "flop"
                and rng.random() < (0.65 - 0.4 * tex.wetness) * (1.0 - loose)
            ):
                return aggressive(legal, pot_sized_to(sit, 0.4))
            if draw.outs >= 8 and len(sit.board) < 5 and rng.random() < 0.4:
                return aggressive(legal, pot_sized_to(sit, size))
            bluff = 0.2 * (1.0 - loose)
            if heads_up and sit.is_last_to_act_postflop and eq < 0.3 and rng.random() < bluff:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return Action.check()
        p = price(sit)
        strength = self.estimate_equity(sit, read_bet=False)
        if strength >= 0.8 - 0.15 * loose or (strength >= 0.7 and spr < 1.5):
            return aggressive(legal, legal.max_to if spr < 2 else pot_sized_to(sit, 0.8))
        if (
            draw.outs >= 8
            and sit.street == "flop"
            and sit.is_last_to_act_postflop
            and rng.random() < 0.25
        ):
            return aggressive(legal, pot_sized_to(sit, 0.8))
        if eq >= p + 0.05 * (1.0 - loose):
            return passive(legal)
        return check_or_fold(legal)


def _all_in_call(sit: Situation) -> bool:
    """Calling would put us all in, or the raiser is all in already."""
    legal = sit.legal
    return legal.call_cost >= legal.stack or not sit.live_opponents
