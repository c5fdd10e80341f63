"""Opponent styles to measure the level bots against, both variants, loadable by
import path (``ahiko.bots.styles:Maniac``). Each is a caricature of a kind of player, fixed
(they keep no memory), deciding from the seat's view like every bot (R-AI-01):

- ``CallingStation``: calls almost everything, never raises; folds only hopeless hands to a
  bet on the last round.
- ``Maniac``: bets and raises most of the time with any hand, big; calls the rest.
- ``Nit``: plays only the top of its hands, raises them, folds to aggression without a
  strong hand.
- ``Tag``: a tight-aggressive regular: a fixed opening range, re-raises strong hands,
  continuation bets, bets made hands, folds weak ones to raises.
- ``EquityThreshold``: bets and calls by its equity against one random hand against the pot
  odds (a poor guide against real ranges, FACTS.md).
- ``AnyTwoJammer``: all in (draw: the largest raise) whenever it may bet, else calls.
- ``FlopFolder``: calls before the flop (the draw) with any hand, then folds nine first bets
  in ten after it unless it holds a strong hand; checks and calls otherwise.
- ``RiverBluffer``: a regular until the last betting round, where it bets whenever checked
  to, hand or not, and raises a bet with nothing one time in three.
- ``NeverBluffs``: bets and raises only made hands (hold'em: a good pair or better; draw:
  two pair or better) and calls with a pair; never bets without one.

``JammerBestResponse`` is the yardstick against the jammer: it never bets, and facing a bet
it calls exactly when its equity against any two cards beats the pot odds.
"""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.games import game
from ahiko.poker.view_types import HandView

from . import holdem_features as hf
from .cards7 import PAIR, STRAIGHT, TRIPS, TWO_PAIR
from .draw_eval import DrawHandInfo, analyse
from .equity import equity_vs_range, full_range
from .preflop import hand_percentile, strength
from .situation import (
    Situation,
    aggressive,
    check_or_fold,
    passive,
    pot_sized_to,
    price,
    situation_from_view,
)

JACKS, QUEENS, KINGS, NINES, SEVENS = 9, 10, 11, 7, 5


class _Style:
    """Dispatch by variant and phase; subclasses write the four situations."""

    def decide(self, view: HandView, rng: random.Random) -> Action:
        sit = situation_from_view(view)
        legal = sit.legal
        if game(sit.variant).has_draw:
            info = analyse(sit.hole, legal.max_discards if legal.is_draw_phase else 3)
            if legal.is_draw_phase:
                return Action.discard(info.discard)
            return self.draw(sit, info, rng)
        return self.holdem(sit, rng)

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        raise NotImplementedError

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        raise NotImplementedError


def _made(sit: Situation) -> int:
    return hf.made_hand(sit.hole, sit.board).level


def _value_raise(sit: Situation) -> Action:
    """A pre-flop raise to three times the bet faced plus half the pot."""
    legal = sit.legal
    return aggressive(legal, 3 * (legal.committed + legal.call_cost) + sit.pot // 2)


class CallingStation(_Style):
    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        if sit.board and sit.street == "river" and legal.call_cost and _made(sit) == hf.NOTHING:
            return check_or_fold(legal)
        if sit.board and legal.call_cost > sit.pot and _made(sit) == hf.NOTHING:
            draw = hf.draws(sit.hole, sit.board)
            if draw.outs < 8:
                return check_or_fold(legal)
        return passive(legal)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        if sit.street == "postdraw" and legal.call_cost and info.category < PAIR:
            return check_or_fold(legal)
        return passive(legal)


class Maniac(_Style):
    AGGRESSION = 0.7

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        if legal.bet_kind is not None and rng.random() < self.AGGRESSION:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        if sit.street == "river" and legal.call_cost and _made(sit) == hf.NOTHING:
            return check_or_fold(legal) if rng.random() < 0.5 else passive(legal)
        return passive(legal)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        if legal.bet_kind is not None and rng.random() < self.AGGRESSION:
            return aggressive(legal, legal.max_to)
        if sit.street == "postdraw" and legal.call_cost and info.category < PAIR:
            return check_or_fold(legal) if rng.random() < 0.5 else passive(legal)
        return passive(legal)


class Nit(_Style):
    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        if not sit.board:
            pct = hand_percentile(*sit.hole)
            raises = sit.raises_on("preflop")
            if pct <= 0.04 or (pct <= 0.1 and raises == 0):
                return _value_raise(sit)
            if pct <= 0.1 and legal.call_cost <= sit.effective_stack * 0.15:
                return passive(legal)
            return check_or_fold(legal)
        made = _made(sit)
        if made >= hf.STRONG:
            return aggressive(legal, pot_sized_to(sit, 0.75))
        if made == hf.GOOD_PAIR:
            if legal.call_cost == 0:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return passive(legal) if legal.call_cost <= sit.pot * 0.6 else check_or_fold(legal)
        return check_or_fold(legal)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        if sit.street != "postdraw":
            strong = info.category >= TWO_PAIR or (info.category == PAIR and info.pair_rank >= 11)
            if strong:
                return aggressive(legal, legal.max_to) if sit.raises_on() < 3 else passive(legal)
            if info.category == PAIR and info.pair_rank >= JACKS:
                return passive(legal) if sit.raises_on() <= 1 else check_or_fold(legal)
            return check_or_fold(legal)
        if info.category >= TRIPS:
            return aggressive(legal, legal.max_to)
        if info.category == TWO_PAIR:
            return aggressive(legal, legal.max_to) if legal.call_cost == 0 else passive(legal)
        if info.category == PAIR and info.pair_rank >= KINGS and sit.raises_on() <= 1:
            return passive(legal)
        return check_or_fold(legal)


class Tag(_Style):
    OPEN = 0.45
    CBET = 0.7

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        if not sit.board:
            return self._preflop(sit)
        made = _made(sit)
        draw = hf.draws(sit.hole, sit.board)
        if legal.call_cost == 0:
            aggressor = sit.last_aggressor("preflop") == sit.me
            if made >= hf.GOOD_PAIR:
                return aggressive(legal, pot_sized_to(sit, 0.66))
            if sit.street == "flop" and aggressor and rng.random() < self.CBET:
                return aggressive(legal, pot_sized_to(sit, 0.5))
            return Action.check()
        bet_share = legal.call_cost / max(1, sit.pot - legal.call_cost)
        if made >= hf.STRONG:
            return aggressive(legal, pot_sized_to(sit, 0.8))
        if made == hf.GOOD_PAIR and sit.raises_on() <= 1:
            return passive(legal)
        if sit.street != "river" and draw.outs >= 8 and bet_share <= 0.8:
            return passive(legal)
        if made == hf.WEAK_PAIR and sit.street == "flop" and bet_share <= 0.5:
            return passive(legal)
        return check_or_fold(legal)

    def _preflop(self, sit: Situation) -> Action:
        legal = sit.legal
        pct = hand_percentile(*sit.hole)
        raises = sit.raises_on("preflop")
        bb = sit.big_blind
        if raises == 0:
            if pct <= self.OPEN:
                return aggressive(legal, 2.5 * bb)
            return check_or_fold(legal)
        reraise = 3 * (legal.committed + legal.call_cost) + sit.pot // 3
        if raises == 1:
            if pct <= 0.08:
                return aggressive(legal, reraise)
            return passive(legal) if pct <= 0.3 else check_or_fold(legal)
        if pct <= 0.03:
            return aggressive(legal, legal.max_to)
        return passive(legal) if pct <= 0.08 else check_or_fold(legal)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        raises = sit.raises_on()
        if sit.street != "postdraw":
            if info.category >= TWO_PAIR or (info.category == PAIR and info.pair_rank >= JACKS):
                return aggressive(legal, legal.max_to) if raises < 3 else passive(legal)
            if raises == 0 and info.category == PAIR and info.pair_rank >= NINES:
                return aggressive(legal, legal.max_to)
            if raises <= 1 and (info.is_drawing_hand or info.pair_rank >= SEVENS):
                return passive(legal)
            return check_or_fold(legal)
        if info.category >= STRAIGHT or (info.category >= TWO_PAIR and raises <= 1):
            return aggressive(legal, legal.max_to)
        if info.category >= TWO_PAIR or (info.category == PAIR and info.pair_rank >= QUEENS):
            return passive(legal)
        if legal.call_cost == 0 and info.category == PAIR and info.pair_rank >= NINES:
            return aggressive(legal, legal.max_to)
        return check_or_fold(legal)


EQ_SAMPLES = 1_500


def equity_vs_any_two(sit: Situation, rng: random.Random) -> float:
    """Equity against one random hand: the pre-flop table, or Monte Carlo after the flop."""
    if not sit.board:
        return strength(*sit.hole)
    return equity_vs_range(sit.hole, sit.board, full_range(), EQ_SAMPLES, rng)


# Five-card draw: the share of random five-card hands a final hand beats, by category and
# pair rank (pairs: deuces 0.56 .. aces 0.92); used by the draw equity-threshold player.
def _draw_equity_vs_random(info: DrawHandInfo, after_draw: bool) -> float:
    if info.category >= TRIPS:
        return 0.98
    if info.category == TWO_PAIR:
        return 0.95
    if info.category == PAIR:
        eq = 0.56 + 0.03 * info.pair_rank
        return eq if after_draw else eq - 0.03
    if info.is_drawing_hand and not after_draw:
        return 0.5
    return 0.3 if not after_draw else 0.2


class EquityThreshold(_Style):
    RAISE_AT = 0.75
    BET_AT = 0.6

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        return self._by_equity(sit, equity_vs_any_two(sit, rng), pot_sized_to(sit, 0.66))

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        eq = _draw_equity_vs_random(info, sit.street == "postdraw")
        return self._by_equity(sit, eq, sit.legal.max_to)

    def _by_equity(self, sit: Situation, eq: float, to: int) -> Action:
        legal = sit.legal
        if legal.call_cost == 0:
            return aggressive(legal, to) if eq >= self.BET_AT else Action.check()
        if eq >= self.RAISE_AT and sit.raises_on() < 3:
            return aggressive(legal, to)
        return passive(legal) if eq >= price(sit) else check_or_fold(legal)


class AnyTwoJammer(_Style):
    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        return aggressive(sit.legal, sit.legal.max_to)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        return aggressive(sit.legal, sit.legal.max_to)


class FlopFolder(_Style):
    """Calls to see the flop (the draw), then gives up to nine first bets in ten."""

    FOLD = 0.9

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        if not sit.board or legal.call_cost == 0:
            return passive(legal)
        if _made(sit) >= hf.STRONG:
            return passive(legal)
        return self._faced(sit, rng)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        if sit.street != "postdraw" or legal.call_cost == 0:
            return passive(legal)
        if info.category >= TRIPS:
            return passive(legal)
        return self._faced(sit, rng)

    def _faced(self, sit: Situation, rng: random.Random) -> Action:
        # Only the first bet it meets after the flop is folded to this often; having called
        # one, it sees the hand out.
        called_after_flop = any(
            a.seat == sit.me and a.kind == "call" and a.street not in ("preflop", "predraw")
            for a in sit.actions
        )
        if called_after_flop or rng.random() >= self.FOLD:
            return passive(sit.legal)
        return Action.fold()


class RiverBluffer(Tag):
    """The regular of ``Tag`` until the last betting round, which it bets with anything."""

    RAISE_BLUFF = 1 / 3

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        if sit.street != "river":
            return super().holdem(sit, rng)
        return self._last_round(sit, rng, made=_made(sit) >= hf.GOOD_PAIR)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        if sit.street != "postdraw":
            return super().draw(sit, info, rng)
        strong = info.category >= TWO_PAIR or (info.category == PAIR and info.pair_rank >= JACKS)
        return self._last_round(sit, rng, made=strong)

    def _last_round(self, sit: Situation, rng: random.Random, made: bool) -> Action:
        legal = sit.legal
        if legal.call_cost == 0:
            return aggressive(legal, pot_sized_to(sit, 0.75))
        if made:
            return passive(legal)
        if sit.raises_on() <= 1 and rng.random() < self.RAISE_BLUFF:
            return aggressive(legal, pot_sized_to(sit, 1.0))
        return check_or_fold(legal)


class NeverBluffs(_Style):
    """Every bet and raise is a made hand; calls with a pair, folds the rest to a bet."""

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        if not sit.board:
            return self._preflop(sit)
        legal = sit.legal
        made = _made(sit)
        if made >= hf.GOOD_PAIR:
            if legal.call_cost == 0 or made >= hf.STRONG:
                return aggressive(legal, pot_sized_to(sit, 0.66))
            return passive(legal)
        if made == hf.WEAK_PAIR and legal.call_cost <= sit.pot // 2:
            return passive(legal)
        return check_or_fold(legal)

    def _preflop(self, sit: Situation) -> Action:
        pct = hand_percentile(*sit.hole)
        if pct <= 0.08:
            return _value_raise(sit)
        return passive(sit.legal) if pct <= 0.5 else check_or_fold(sit.legal)

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        if info.category >= TWO_PAIR or (info.category == PAIR and info.pair_rank >= KINGS):
            return aggressive(legal, legal.max_to) if sit.raises_on() < 3 else passive(legal)
        if info.category == PAIR:
            return passive(legal) if sit.raises_on() <= 1 else check_or_fold(legal)
        if sit.street != "postdraw" and info.is_drawing_hand and sit.raises_on() <= 1:
            return passive(legal)
        return check_or_fold(legal)


class JammerBestResponse(_Style):
    """Never bets; facing a bet, calls exactly when equity against any two beats the odds."""

    def holdem(self, sit: Situation, rng: random.Random) -> Action:
        legal = sit.legal
        if legal.call_cost == 0:
            return Action.check()
        return passive(legal) if equity_vs_any_two(sit, rng) > price(sit) else Action.fold()

    def draw(self, sit: Situation, info: DrawHandInfo, rng: random.Random) -> Action:
        legal = sit.legal
        if legal.call_cost == 0:
            return Action.check()
        eq = _draw_equity_vs_random(info, sit.street == "postdraw")
        return passive(legal) if eq > price(sit) else Action.fold()


STYLES: dict[str, str] = {
    "station": "ahiko.bots.styles:CallingStation",
    "maniac": "ahiko.bots.styles:Maniac",
    "nit": "ahiko.bots.styles:Nit",
    "tag": "ahiko.bots.styles:Tag",
    "equity": "ahiko.bots.styles:EquityThreshold",
    "jammer": "ahiko.bots.styles:AnyTwoJammer",
    "flopfolder": "ahiko.bots.styles:FlopFolder",
    "riverbluffer": "ahiko.bots.styles:RiverBluffer",
    "neverbluffs": "ahiko.bots.styles:NeverBluffs",
}
