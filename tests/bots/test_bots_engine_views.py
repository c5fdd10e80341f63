"""R-AI-01: every bot level returns a legal action for any view of a real hand (both
variants, 2 to 9 players, any stack depth), seeing only its own seat's cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ahiko.bots.protocol import LEVELS, load_bot
from ahiko.bots.situation import is_legal
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.view import view

BOTS = {level: load_bot(level) for level in LEVELS}


def _random_hand(rng: random.Random, variant: str) -> Any:
    n = rng.randint(2, 9 if variant == "holdem" else 6)
    seats = sorted(rng.sample(range(9), n))
    stacks = [rng.choice([1, 3, 12, 40, 200, 600]) for _ in seats]
    deck = list(range(52))
    rng.shuffle(deck)
    button = rng.choice(seats)
    if variant == "holdem":
        return HoldemHand.start(HoldemConfig(1, 2), seats, stacks, button, deck)[0]
    return DrawHand.start(DrawConfig(ante=1, small_bet=2), seats, stacks, button, deck)[0]


@pytest.mark.parametrize("variant", ["holdem", "draw"])
def test_R_AI_01_every_level_acts_legally_in_random_real_hands(variant: str) -> None:
    rng = random.Random(f"engine-views:{variant}")
    decisions = 0
    for _ in range(14):
        hand = _random_hand(rng, variant)
        while not hand.is_over:
            seat = hand.to_act
            seat_view = view(hand, seat)
            assert all(s["cards"] is None for s in seat_view["seats"] if s["seat"] != seat)
            legal = hand.legal_actions()
            hole = tuple(hand.hole_cards(seat))
            chosen = {}
            for level, bot in BOTS.items():
                action = bot.decide(seat_view, random.Random(decisions))
                assert is_legal(action, legal, hole), (level, action, legal)
                chosen[level] = action
                decisions += 1
            hand.act(seat, chosen[rng.choice(list(chosen))])  # the engine checks it too
    assert decisions > 200
