"""The house options against pokerkit 0.7.7, in lockstep (``lockstep_house.py``): the
voluntary straddle's two forms (after the big blind, and the button's), run it twice and the
double board, in hold'em and Pot-Limit Omaha. At every decision both engines offer the same
options and hold the same pot; both ask the same players to run it twice at the same
moment; the second run-out is the same cards; finishing stacks are equal up to the odd-chip
rules (R-PT-05)."""

from __future__ import annotations

import pytest
from lockstep_house import play_house_batch
from pokerkit import PotLimitOmahaHoldem

from ahiko.poker.holdem import OmahaHand

HANDS = 1000
SEATS = (2, 3, 3, 4, 5, 6, 7, 8, 9)
OMAHA_SEATS = (2, 3, 4, 5, 6)


@pytest.mark.parametrize("button", [0, 1])
def test_R_HE_05_straddles_lockstep_with_pokerkit(button: int) -> None:
    """1,000 hands each: the straddle of the seat after the big blind, and the button's
    (Mississippi: the small blind opens, the button speaks last)."""
    play_house_batch(43_000 + button, HANDS, SEATS, {"straddle": 1, "straddle_button": button})


def test_R_HE_11_R_PT_05_run_it_twice_lockstep_with_pokerkit() -> None:
    tally = play_house_batch(43_010, HANDS, SEATS, {"run_twice": 1})
    assert tally.offered > HANDS // 10 and tally.run_twice > HANDS // 20, tally


def test_R_HE_11_R_PT_05_double_board_lockstep_with_pokerkit() -> None:
    tally = play_house_batch(43_020, HANDS, SEATS, {"boards": 2})
    assert tally.two_board_showdowns > HANDS // 5, tally


@pytest.mark.parametrize("options", [{"run_twice": 1}, {"boards": 2}, {"straddle": 1}])
def test_R_HE_07_pot_limit_omaha_house_options_lockstep_with_pokerkit(
    options: dict[str, int],
) -> None:
    play_house_batch(43_030, HANDS // 2, OMAHA_SEATS, options, OmahaHand, PotLimitOmahaHoldem)
