"""SPEC §1 hand ranking (R-RK-01..07) through ahiko.poker.ranking."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from poker_testkit import holdem

from ahiko.poker.actions import Action
from ahiko.poker.cards import format_cards, parse_cards
from ahiko.poker.ranking import HandCategory, hand_value, omaha_strengths, omaha_value


def hv(text: str):  # type: ignore[no-untyped-def]
    return hand_value(parse_cards(text))


LADDER = [
    ("Ah Kd 9c 7s 3h", HandCategory.HIGH_CARD),
    ("2h 2d 5c 7s 9h", HandCategory.PAIR),
    ("3h 3d 2c 2s 4h", HandCategory.TWO_PAIR),
    ("4h 4d 4c 2s 3h", HandCategory.THREE_OF_A_KIND),
    ("Ah 2d 3c 4s 5h", HandCategory.STRAIGHT),
    ("2h 3h 4h 5h 7h", HandCategory.FLUSH),
    ("2h 2d 2c 3s 3h", HandCategory.FULL_HOUSE),
    ("2h 2d 2c 2s 3h", HandCategory.FOUR_OF_A_KIND),
    ("Ah 2h 3h 4h 5h", HandCategory.STRAIGHT_FLUSH),
]


def test_R_RK_01_categories_in_order_and_higher_category_always_wins() -> None:
    values = [hv(text) for text, _ in LADDER]
    assert [v.category for v in values] == [c for _, c in LADDER]
    assert values == sorted(values)
    assert all(a < b for a, b in pairwise(values))


def test_R_RK_02_combination_ranks_decide_within_a_category() -> None:
    assert hv("Kh Kd Kc 2s 3h") > hv("Qh Qd Qc As Kh")
    assert hv("Kh Kd 3c 3s 2h") > hv("Qh Qd Jc Js Ah")  # higher pair first
    assert hv("Kh Kd 7c 7s 2h") > hv("Kc Ks 6c 6s Ah")  # then the lower pair
    assert hv("Kh Kd 7c 7s 2h").ranks[:2] == (11, 5)


def test_R_RK_03_kickers_from_highest_to_lowest() -> None:
    assert hv("Ah Ad Kc 9s 7h") > hv("As Ac Qc 9d 7d")
    assert hv("Ah Ad Kc 9s 7h") > hv("As Ac Kd 9d 6d")
    assert hv("Ah Ad Kc 9s 7h").ranks == (12, 11, 7, 5)


def test_R_RK_04_suits_never_break_ties() -> None:
    assert hv("Ah Kd 9c 7s 3h") == hv("As Kc 9d 7h 3s")
    assert hv("2h 3h 4h 5h 7h") == hv("2s 3s 4s 5s 7s")


def test_R_RK_05_wheel_is_the_lowest_straight_and_no_wrap_around() -> None:
    wheel, six_high, broadway = hv("Ah 2d 3c 4s 5h"), hv("2d 3c 4s 5h 6d"), hv("Th Jd Qc Ks Ah")
    assert wheel < six_high < broadway
    assert wheel.ranks == (3,)
    assert [c for c in wheel.cards][-1] == parse_cards("Ah")[0]  # the ace reads low
    assert hv("Qh Kd Ac 2s 3h").category is HandCategory.HIGH_CARD


def test_R_RK_06_best_five_of_seven_using_two_one_or_no_hole_cards() -> None:
    two = hand_value(parse_cards("Ah Kh Qh Jh 2c 3d Th"))
    assert two.category is HandCategory.STRAIGHT_FLUSH and len(two.cards) == 5
    one = hand_value(parse_cards("Ah 2c 9s 9d 9c 4h 4s"))
    assert one.category is HandCategory.FULL_HOUSE and one.ranks == (7, 2)
    none = hand_value(parse_cards("2c 3d Ts Js Qs Ks As"))
    assert none.category is HandCategory.STRAIGHT_FLUSH
    assert set(none.cards) == set(parse_cards("Ts Js Qs Ks As"))
    with pytest.raises(ValueError):
        hand_value(parse_cards("Ah Kh Qh Jh"))


def test_R_RK_07_board_plays_and_players_split() -> None:
    hand = holdem([1000, 1000], holes=["2c 3d", "2d 3c"], board="Ah Kh Qh Jh Th")
    hand.act(1, Action.call())
    hand.act(0, Action.check())
    for _ in range(3):
        hand.act(0, Action.check())
        hand.act(1, Action.check())
    assert hand.result is not None
    (pot,) = hand.result.pots
    assert pot.winners == (0, 1) and pot.shares == {0: 20, 1: 20}


def test_R_RK_06_omaha_uses_exactly_two_hole_cards_and_three_of_the_board() -> None:
    """Four hearts on the board and one in the hand is no flush in Omaha, and four of a
    rank in the hand is only a pair of them: two from the hand, three from the board."""
    board = parse_cards("2h 5h 9h Kh 3c")
    flushless = omaha_value(parse_cards("Ah Ac Ad Qs"), board)
    assert flushless.category is HandCategory.PAIR and flushless.ranks[0] == 12  # aces
    assert set(flushless.cards) <= set(parse_cards("Ah Ac Ad Qs")) | set(board)
    held = set(flushless.cards) & set(parse_cards("Ah Ac Ad Qs"))
    assert len(held) == 2
    quads = omaha_value(parse_cards("7c 7d 7h 7s"), parse_cards("2c 5d 9s Kh Qd"))
    assert quads.category is HandCategory.PAIR and quads.ranks[0] == 5  # sevens
    assert omaha_strengths([parse_cards("7c 7d 7h 7s")], parse_cards("2c 5d 9s Kh Qd")) == [
        quads.value
    ]


def test_R_RK_04_omaha_strengths_order_hands_as_pokerkit_does() -> None:
    """2,000 random pairs of Omaha hands on random boards: our values order them as
    pokerkit 0.7.7's ``OmahaHoldemHand`` does (better, worse or tied)."""
    from pokerkit import OmahaHoldemHand

    rng = random.Random(7)
    for _ in range(2000):
        cards = rng.sample(range(52), 13)
        first, second, board = cards[:4], cards[4:8], cards[8:]
        ours = omaha_strengths([first, second], board)
        theirs = [
            OmahaHoldemHand.from_game(format_cards(hole, ""), format_cards(board, ""))
            for hole in (first, second)
        ]
        expected = (theirs[0] > theirs[1]) - (theirs[0] < theirs[1])
        assert (ours[0] > ours[1]) - (ours[0] < ours[1]) == expected, (first, second, board)
        assert omaha_value(first, board).value == ours[0]
