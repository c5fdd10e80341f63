"""Differential tests: Pot-Limit Omaha and straddled No-Limit Hold'em against pokerkit 0.7.7,
in lockstep (``lockstep.py``: the same cards, every decision's options, pot-limit maximum and
pot compared, finishing stacks equal up to pokerkit's odd-chip rules).

Pot-Limit Omaha is pokerkit's ``PotLimitOmahaHoldem``: four hole cards by the
``omaha4-noburn-v1`` layout, a bet or raise up to the pot after the call, hands of exactly
two hole cards and three board cards. The straddle is pokerkit's third
``blinds_or_straddles`` entry, twice the big blind, posted left of the big blind; the first
to act pre-flop is left of the largest forced bet (heads-up nobody straddles, as in
pokerkit).

The disagreements are the hold'em differential's, and only those: R-HE-08 **D** (a full
raise is never less than the big blind, where pokerkit measures it against the round's
largest raise only: ``spec_closes_below_big_blind``) and the odd chips of a split pot
(R-PT-04/05, ``pokerkit_payouts``). Pot limit adds none: our maximum is pokerkit's
``2 * highest bet - own bet + pot``, never below the least raise, never above the stack.
"""

from __future__ import annotations

import pytest
from lockstep import play_batch
from pokerkit import NoLimitTexasHoldem, PotLimitOmahaHoldem

from ahiko.poker.actions import Action
from ahiko.poker.config import HoldemConfig
from ahiko.poker.holdem import HoldemHand, OmahaHand

HANDS_PER_BATCH = 600
OMAHA_SEATS = (2, 2, 3, 4, 5, 6, 6)  # 2-6 players
STRADDLE_SEATS = (2, 3, 3, 4, 5, 6, 7, 8, 9)


@pytest.mark.parametrize(("batch", "antes"), [(0, False), (1, True), (2, False), (3, True)])
def test_R_HE_07_R_HE_08_R_PT_05_pot_limit_omaha_lockstep_with_pokerkit(
    batch: int, antes: bool
) -> None:
    """2,400 hands in all, 2-6 seats, with and without antes."""
    tally = play_batch(
        20261207 + batch, HANDS_PER_BATCH, OMAHA_SEATS, OmahaHand, PotLimitOmahaHoldem, antes=antes
    )
    assert tally.pot_limited > HANDS_PER_BATCH // 2, "the pot limit rarely bound a bet"


@pytest.mark.parametrize(("batch", "antes"), [(0, False), (1, True)])
def test_R_HE_05_R_HE_07_straddled_holdem_lockstep_with_pokerkit(batch: int, antes: bool) -> None:
    """1,200 hands of no-limit hold'em, every one with a straddle of twice the big blind."""
    play_batch(
        20261208 + batch,
        HANDS_PER_BATCH,
        STRADDLE_SEATS,
        HoldemHand,
        NoLimitTexasHoldem,
        antes=antes,
        straddle=True,
    )


def test_R_HE_05_a_straddle_is_a_third_blind_and_the_seat_after_it_acts_first() -> None:
    """Five players, 10/20 with a 40 straddle: the blinds and the straddle post in turn
    after the button, the seat after the straddler opens pre-flop, a raise is at least to
    60 (the straddle plus the big blind, as pokerkit counts it) and the straddler, last to
    speak, may check when nobody raised."""
    hand, events = HoldemHand.start(
        HoldemConfig(10, 20, straddle=40), [1, 2, 3, 4, 5], [1000] * 5, 5, list(range(52))
    )
    posted = [(e.seat, e.amount, e.blind) for e in events if e.kind == "blind_posted"]
    assert posted == [(1, 10, "sb"), (2, 20, "bb"), (3, 40, "straddle")]
    assert hand.to_act == 4
    legal = hand.legal_actions()
    assert (legal.call_cost, legal.min_to, legal.max_to) == (40, 60, 1000)
    for seat in (4, 5, 1, 2):
        hand.act(seat, Action.call())
    assert hand.to_act == 3 and hand.legal_actions().can_check
    assert hand.events[0].config == {"small_blind": 10, "big_blind": 20, "ante": 0, "straddle": 40}


def test_R_HE_03_heads_up_nobody_straddles() -> None:
    hand, events = HoldemHand.start(
        HoldemConfig(10, 20, straddle=40), [1, 2], [1000, 1000], 1, list(range(52))
    )
    assert [e.blind for e in events if e.kind == "blind_posted"] == ["sb", "bb"]
    assert hand.to_act == 1  # the button, small blind, acts first heads-up


def test_R_HE_07_pot_limit_maximum_is_the_pot_after_the_call() -> None:
    """10/20, three players: the first raise may reach 70 (call 20, then a pot of 50: 10 +
    20 + 20); after a raise to 70 the small blind's call of 60 makes the pot 160, so it may
    raise to 70 + 160 = 230."""
    hand, _ = OmahaHand.start(HoldemConfig(10, 20), [1, 2, 3], [1000] * 3, 3, list(range(52)))
    assert hand.to_act == 3
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (40, 70)
    hand.act(3, Action.raise_to(70))
    legal = hand.legal_actions()
    assert legal.seat == 1 and (legal.min_to, legal.max_to) == (120, 230)
    with pytest.raises(ValueError, match="max 230; got 231"):
        hand.act(1, Action.raise_to(231))
