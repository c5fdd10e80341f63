"""SPEC §3 pots (R-PT-01..06): side pots, folded chips, uncalled bets, split and odd chips."""

from __future__ import annotations

from poker_testkit import holdem

from ahiko.poker.actions import Action
from ahiko.poker.events import BetReturned, PotAwarded
from ahiko.poker.pots import Pot, build_pots, split_pot

ANA, BRUNO, CAIO = 0, 1, 2


def test_R_PT_01_spec_example_ana_50_bruno_100_caio_100() -> None:
    pots = build_pots([ANA, BRUNO, CAIO], [50, 100, 100], [True, True, True])
    assert pots == [Pot(150, (ANA, BRUNO, CAIO)), Pot(100, (BRUNO, CAIO))]


def test_R_PT_01_side_pots_in_a_real_hand() -> None:
    # Ana (seat 0, SB) all-in 50; Bruno and Caio put in 100 each.
    hand = holdem(
        [50, 500, 500], blinds=(10, 20), holes=["Ah Ad", "Kh Kd", "Qh Qd"], board="2c 3d 7s 8c 9h"
    )
    hand.act(CAIO, Action.raise_to(100))
    hand.act(ANA, Action.call())
    hand.act(BRUNO, Action.call())
    while not hand.is_over:
        hand.act(hand.to_act, Action.check())  # type: ignore[arg-type]
    assert hand.result is not None
    pots = [(p.amount, p.eligible, p.winners) for p in hand.result.pots]
    assert pots == [(150, (0, 1, 2), (ANA,)), (100, (1, 2), (BRUNO,))]


def test_R_PT_02_folded_chips_stay_in_the_pot_and_cannot_win() -> None:
    pots = build_pots([0, 1, 2], [100, 100, 60], [True, True, False])
    assert pots == [Pot(260, (0, 1))]
    hand = holdem([1000] * 3, holes=["Ah Ad", "2c 7d", "3c 8d"], board="Kc Kd 4s 5s Jh")
    hand.act(2, Action.raise_to(60))
    hand.act(0, Action.call())
    hand.act(1, Action.call())
    hand.act(0, Action.bet(100))
    hand.act(1, Action.call())
    hand.act(2, Action.fold())
    while not hand.is_over:
        hand.act(hand.to_act, Action.check())  # type: ignore[arg-type]
    assert hand.result is not None
    (pot,) = hand.result.pots
    assert pot.amount == 380 and pot.eligible == (0, 1) and pot.winners == (0,)


def test_R_PT_03_uncalled_bet_is_returned() -> None:
    hand = holdem([1000, 300, 1000])
    hand.act(2, Action.raise_to(1000))
    hand.act(0, Action.fold())
    hand.act(1, Action.call())  # all-in for 300
    returned = [e for e in hand.events if isinstance(e, BetReturned)]
    assert returned == [BetReturned(2, 700)]
    assert hand.result is not None
    assert sum(p.amount for p in hand.result.pots) == 610


def test_R_PT_04_each_pot_awarded_separately() -> None:
    # Ana has the best hand but only covers the main pot; Caio beats Bruno for the side pot.
    hand = holdem([50, 500, 500], holes=["Ah Ad", "2c 7d", "Qh Qd"], board="3c 4d 9s Tc Jh")
    hand.act(CAIO, Action.raise_to(100))
    hand.act(ANA, Action.call())
    hand.act(BRUNO, Action.call())
    while not hand.is_over:
        hand.act(hand.to_act, Action.check())  # type: ignore[arg-type]
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(a.index, a.amount, a.winners) for a in awards] == [(0, 150, (ANA,)), (1, 100, (CAIO,))]
    assert hand.stacks == {ANA: 150, BRUNO: 400, CAIO: 500}


def test_R_PT_05_odd_chips_one_by_one_from_first_winner_after_button() -> None:
    assert split_pot(23, [4, 6, 1]) == {4: 8, 6: 8, 1: 7}
    assert split_pot(25, [2, 3, 5, 7]) == {2: 7, 3: 6, 5: 6, 7: 6}
    # Antes 1 x3, the small blind folds: 53 chips split between the BB and the button.
    hand = holdem([1000] * 3, ante=1, holes=["Ah Ad", "2c 3d", "2d 3c"], board="Ks Qs Js Ts 9s")
    hand.act(2, Action.call())
    hand.act(0, Action.fold())
    hand.act(1, Action.check())
    while not hand.is_over:
        hand.act(hand.to_act, Action.check())  # type: ignore[arg-type]
    assert hand.result is not None
    (pot,) = hand.result.pots
    assert pot.amount == 53 and pot.shares == {1: 27, 2: 26}


def test_R_PT_06_player_with_zero_chips_all_in_still_wins_the_pot() -> None:
    hand = holdem([100, 1000, 1000], holes=["Ah Ad", "2c 7d", "3c 8d"], board="Kc Qd 4s 5s Jh")
    hand.act(2, Action.call())
    hand.act(0, Action.raise_to(100))  # all-in: zero chips behind
    assert hand.stacks[0] == 0 and not hand.is_over
    hand.act(1, Action.call())
    hand.act(2, Action.call())
    while not hand.is_over:
        hand.act(hand.to_act, Action.check())  # type: ignore[arg-type]
    assert hand.stacks[0] == 300
