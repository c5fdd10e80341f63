"""Draw Normal (R-AI-06): hand value, position, number of opponents, possible draws and pot
odds.

Before the draw: a raising standard that loosens with fewer opponents and later position (any
pair heads-up),
draws played when the pot pays for them. After the draw: reads each opponent's draw count
(three cards = usually one pair, one = two pair or a draw, none = a made hand) to pick value
bets and calls, and calls when the pot odds cover its chance of being ahead.

Its one read of the table, as in hold'em (ahiko.bots.memory, in the level bot): how much more
often than most an opponent bets and raises (``looseness``, 0 for most players). Against a
loose one a raise says less, so it calls and raises on with pairs and two pairs, and it stops
defending king or ace high before the draw (a loose bettor bets again after it); against
everyone else it plays exactly as without it.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.view_types import HandView

from .cards7 import PAIR, STRAIGHT, TRIPS, TWO_PAIR
from .draw_eval import DrawHandInfo, analyse
from .memory import TableMemory
from .situation import Situation, aggressive, check_or_fold, passive, price, situation_from_view

SEVENS, NINES, JACKS, QUEENS = 5, 7, 9, 10
ANY_PAIR = 0  # heads-up the antes are worth taking with any pair
CHECKED_TO_BLUFF = 0.6
DRAW_HIT = {"flush": 0.191, "straight": 0.17}  # FACTS.md improvement odds


def pair_wins(pair_rank: int, opponent_draws: list[int], raises: int) -> float:
    """Rough chance a pair is best after the draw against bettors who drew these counts:
    better the higher the pair, worse against one- and two-card draws and each raise."""
    est = 0.2 + 0.045 * pair_rank
    est -= sum(0.15 for d in opponent_draws if d < 3)
    est -= 0.08 * (len(opponent_draws) - 1) + 0.15 * max(0, raises - 1)
    return est


class DrawNormalBot:
    def __init__(self, memory: TableMemory | None = None) -> None:
        self.memory = memory

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        legal = sit.legal
        info = analyse(sit.hole, legal.max_discards if legal.is_draw_phase else 3)
        if legal.is_draw_phase:
            return Action.discard(info.discard)
        loose = 0.0
        if self.memory is not None and sit.opponents:
            loose = max(self.memory.of(view, s).looseness() for s in sit.opponents)
        if sit.street == "postdraw":
            return self._after_draw(sit, info, rng, loose)
        return self._before_draw(sit, info, rng, loose)

    def _before_draw(
        self, sit: Situation, info: DrawHandInfo, rng: random.Random, loose: float = 0.0
    ) -> Action:
        legal = sit.legal
        n = len(sit.opponents)
        raises = sit.raises_on()
        felt = round(raises * (1.0 - loose))  # the raises that say something
        late = sit.is_last_to_act_postflop or n == 1
        open_pair = (ANY_PAIR if n == 1 else NINES) if late else (JACKS if n <= 3 else QUEENS)
        strong = info.category >= TWO_PAIR or (
            info.category == PAIR and info.pair_rank >= open_pair
        )
        if info.category >= TRIPS or (info.category == TWO_PAIR and info.pair_rank >= JACKS):
            return aggressive(legal, legal.max_to) if raises < 4 else passive(legal)
        if raises == 0 and strong:
            return aggressive(legal, legal.max_to)
        if raises <= 1 and info.category >= TWO_PAIR:
            return aggressive(legal, legal.max_to) if n == 1 else passive(legal)
        if raises == 1 and n == 1 and info.category == PAIR and info.pair_rank >= QUEENS:
            return aggressive(legal, legal.max_to)
        if info.category == PAIR:
            need = (3 if n == 1 else 7) + 2 * max(0, felt - 1)
            if info.pair_rank >= need or legal.call_cost == 0:
                return passive(legal)
            return check_or_fold(legal)
        if info.is_drawing_hand:
            hit = DRAW_HIT["flush" if info.four_flush else "straight"]
            # Implied odds: a made flush or straight usually collects a big bet more.
            if legal.call_cost == 0 or hit * n >= price(sit) * 0.8:
                return passive(legal)
        defend = n == 1 and loose < 0.5 and raises <= 1
        if defend and info.pair_rank < 0 and legal.call_cost <= sit.small_bet:
            # Heads-up an ace or king high is often best: defend the cheap price.
            high = max(c >> 2 for c in sit.hole)
            if high >= 11 and rng.random() < 0.6:
                return passive(legal)
        return check_or_fold(legal)

    def _after_draw(
        self, sit: Situation, info: DrawHandInfo, rng: random.Random, loose: float = 0.0
    ) -> Action:
        legal = sit.legal
        opp_draws = [sit.discards.get(s) for s in sit.opponents]
        counts = [d if d is not None else 3 for d in opp_draws]
        pat_opponent = any(d == 0 for d in counts)
        one_card = any(d == 1 for d in counts)
        n = len(sit.opponents)
        raises = sit.raises_on()
        if info.category >= STRAIGHT:
            return aggressive(legal, legal.max_to) if raises < 4 else passive(legal)
        if pat_opponent:
            if info.category >= TRIPS and raises <= 1:
                return passive(legal)
            return check_or_fold(legal)
        value = info.category >= TRIPS or (
            info.category == TWO_PAIR and (not one_card or info.pair_rank >= JACKS)
        )
        if value and raises <= 1 + (n == 1) + round(2 * loose):
            return aggressive(legal, legal.max_to)
        if info.category >= TWO_PAIR:
            return passive(legal)
        checked_to = n == 1 and any(a.kind == "check" for a in sit.street_actions())
        if info.category == PAIR:
            good = info.pair_rank >= (QUEENS if n > 1 else JACKS - (2 if not one_card else 0))
            if legal.call_cost == 0:
                bet = n == 1 and (good or checked_to)
                return aggressive(legal, legal.max_to) if bet else Action.check()
            felt = round(raises * (1.0 - loose))  # the raises that say something
            if good or pair_wins(info.pair_rank, counts, felt) >= price(sit) + 0.12:
                return passive(legal)
            return check_or_fold(legal)
        # A heads-up check after the draw often means no pair: steal some of those pots.
        bluff = CHECKED_TO_BLUFF if checked_to else 0.12 if all(d == 3 for d in counts) else 0.0
        if legal.call_cost == 0 and n == 1 and rng.random() < bluff:
            return aggressive(legal, legal.max_to)
        return check_or_fold(legal)
