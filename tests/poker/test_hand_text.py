"""An action and a hand print as text a person reads: ``repr(Action.raise_to(60))`` as the
table's ``act`` frame reads, ``repr(hand)`` with the game, the street, the board, the seats and
whose turn it is. The modules' doctests are the examples, run here; a draw hand and an Omaha
hand print the same way."""

from __future__ import annotations

import doctest

import pytest

import ahiko.poker.actions
import ahiko.poker.hand_text
from ahiko.poker import Action, DrawConfig, DrawHand, HoldemConfig, OmahaHand


@pytest.mark.parametrize("module", [ahiko.poker.actions, ahiko.poker.hand_text])
def test_the_printed_examples_hold(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_every_game_prints_its_name_street_and_seats() -> None:
    draw, _ = DrawHand.start(DrawConfig(5, 10), [0, 4], [200, 200], 4, list(range(52)))
    assert repr(draw) == "<DrawHand draw predraw, seats 0:195 4:195, to act 0>"
    omaha, _ = OmahaHand.start(HoldemConfig(1, 2), [2, 5], [100, 100], 5, list(range(52)))
    assert repr(omaha) == "<OmahaHand plo preflop, seats 2:98 5:99, to act 5>"  # button last
    assert repr(Action.raise_to(60)) == "<Action raise to 60>" == str(Action.raise_to(60))
