"""Reading a seat's view (R-AI-01) and turning intentions into legal actions (R-HE-07)."""

from __future__ import annotations

import random

from ahiko.bots.holdem_easy import HoldemEasyBot
from ahiko.bots.levels import EasyBot
from ahiko.bots.situation import aggressive, passive, situation_from_view
from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.config import HoldemConfig
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.view import view


def _three_handed() -> HoldemHand:
    deck = list(range(52))
    hand, _ = HoldemHand.start(HoldemConfig(1, 2), [0, 3, 5], [200, 150, 300], 5, deck)
    return hand


def test_R_AI_01_situation_reads_own_cards_pot_and_public_actions() -> None:
    hand = _three_handed()  # button 5: seat 0 small blind, seat 3 big blind, seat 5 first
    assert hand.to_act == 5
    hand.act(5, Action.raise_to(6))
    hand.act(0, Action.call())
    sit = situation_from_view(view(hand, 3))
    assert sit.me == 3
    assert sit.hole == tuple(hand.hole_cards(3))
    assert sit.pot == 6 + 6 + 2
    assert sit.to_call == 4
    assert sit.raises_on("preflop") == 1
    assert sit.last_aggressor("preflop") == 5
    assert [(a.seat, a.kind) for a in sit.actions] == [(5, "raise"), (0, "call")]
    assert sit.opponents == [0, 5]  # deal order: first seat after the button first
    assert sit.players_behind_preflop() == 0
    assert sit.is_last_to_act_postflop is False  # the button (5) acts last after the flop


def test_R_HE_07_aggressive_intent_is_clamped_into_the_legal_bounds() -> None:
    hand = _three_handed()
    sit = situation_from_view(view(hand, 5))
    too_small = aggressive(sit.legal, 1)
    too_big = aggressive(sit.legal, 10**6)
    assert too_small == Action(ActionKind.RAISE, sit.legal.min_to)
    assert too_big == Action(ActionKind.RAISE, sit.legal.max_to)
    assert passive(sit.legal) == Action.call()


def test_R_AI_01_level_bots_dispatch_on_the_variant() -> None:
    hand = _three_handed()
    seat_view = view(hand, 5)
    assert EasyBot().decide(seat_view, random.Random(1)) == HoldemEasyBot().decide(
        seat_view, random.Random(1)
    )
