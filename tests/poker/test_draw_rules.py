"""SPEC §4 fixed-limit five-card draw (R-DR-01..09) through DrawHand."""

from __future__ import annotations

import pytest
from poker_testkit import draw, draw_deck

from ahiko.poker.actions import Action, ActionKind, IllegalAction
from ahiko.poker.cards import parse_cards
from ahiko.poker.config import DrawConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import AntePosted, CardsShown, Discarded, HoleDealt
from ahiko.poker.match import match_over, next_button
from ahiko.poker.view import view

DECK = list(range(52))


def stand_pat_all(hand: DrawHand) -> None:
    while hand.street == "draw":
        hand.act(hand.to_act, Action.discard(()))  # type: ignore[arg-type]


def check_around(hand: DrawHand) -> None:
    street = hand.street
    while hand.street == street and not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())


def test_R_DR_01_two_to_six_players_and_the_button_moves_clockwise() -> None:
    for n in (2, 6):
        hand, _ = DrawHand.start(DrawConfig(1, 2), list(range(n)), [50] * n, 0, DECK)
        assert len(hand.dealt_seats) == n
    for n in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            DrawHand.start(DrawConfig(1, 2), list(range(n)), [50] * n, 0, DECK)
    assert next_button([1, 3, 6], 3) == 6
    assert next_button([1, 3, 6], 6) == 1
    assert next_button([1, 3, 6], 4) == 6


def test_R_DR_02_equal_ante_from_everyone_and_five_cards_each() -> None:
    hand = draw([100, 3, 100], ante=5)
    antes = [e for e in hand.events if isinstance(e, AntePosted)]
    assert [(a.seat, a.amount, a.all_in) for a in antes] == [
        (0, 5, False),
        (1, 3, True),
        (2, 5, False),
    ]
    dealt = [e for e in hand.events if isinstance(e, HoleDealt)]
    assert [e.positions for e in dealt] == [(0, 3, 6, 9, 12), (1, 4, 7, 10, 13), (2, 5, 8, 11, 14)]
    assert all(len(e.cards) == 5 for e in dealt)


def test_R_DR_03_first_round_left_of_dealer_small_bet_then_big_bet() -> None:
    hand = draw([100] * 3, small_bet=10)
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.can_check and legal.bet_kind is ActionKind.BET
    assert (legal.min_to, legal.max_to) == (10, 10)
    hand.act(0, Action.check())
    hand.act(1, Action.bet(10))
    hand.act(2, Action.call())
    hand.act(0, Action.fold())
    assert hand.street == "draw" and hand.to_act == 1
    stand_pat_all(hand)
    legal = hand.legal_actions()
    assert hand.street == "postdraw" and legal.seat == 1  # seat 0 folded
    assert (legal.min_to, legal.max_to) == (20, 20)


def test_R_DR_04_fixed_raises_and_cap_of_a_bet_and_three_raises() -> None:
    hand = draw([500] * 3, small_bet=10)
    hand.act(0, Action.bet(10))
    hand.act(1, Action.raise_to(20))
    hand.act(2, Action.raise_to(30))
    with pytest.raises(IllegalAction, match="must be to exactly 40") as err:
        hand.act(0, Action.raise_to(50))
    assert err.value.rule == "R-DR-04"
    hand.act(0, Action.raise_to(40))
    legal = hand.legal_actions()
    assert legal.bet_kind is None and legal.call_cost == 20
    with pytest.raises(IllegalAction, match="cap of 4") as err:
        hand.act(1, Action.raise_to(50))
    assert err.value.rule == "R-DR-04"


def test_R_DR_04_cap_lifted_when_only_two_players_remain() -> None:
    hand = draw([500] * 3, small_bet=10)
    hand.act(0, Action.bet(10))
    hand.act(1, Action.raise_to(20))
    hand.act(2, Action.fold())
    for to in (30, 40, 50, 60):
        seat = hand.to_act
        hand.act(seat, Action.raise_to(to))  # type: ignore[arg-type]
    assert hand.legal_actions().bet_kind is ActionKind.RAISE


def test_R_DR_05_draw_zero_to_three_in_order_replacements_never_redealt() -> None:
    hands = ["Ah Ad 2c 3c 4c", "Kh Kd 5c 6c 7c", "Qh Qd 8c 9c Tc"]
    hand = draw([100] * 3, hands=hands, replacements="As Ks Qs Js Ts 9s")
    check_around(hand)
    assert hand.legal_actions().is_draw_phase and hand.legal_actions().max_discards == 3
    snapshot = hand.events
    for bad, text in [
        (parse_cards("2c 3c 4c Ah"), "at most 3"),
        (parse_cards("Kh"), "distinct cards of your hand"),
    ]:
        with pytest.raises(IllegalAction, match=text) as err:
            hand.act(0, Action.discard(bad))
        assert err.value.rule == "R-DR-05" and hand.events == snapshot
    with pytest.raises(IllegalAction, match="it is the draw"):
        hand.act(0, Action.check())
    hand.act(0, Action.discard(parse_cards("2c 3c 4c")))
    hand.act(1, Action.discard(()))
    hand.act(2, Action.discard(parse_cards("8c 9c")))
    draws = [e for e in hand.events if isinstance(e, Discarded)]
    assert [(d.seat, d.count, d.positions) for d in draws] == [
        (0, 3, (15, 16, 17)),
        (1, 0, ()),
        (2, 2, (18, 19)),
    ]
    assert set(hand.hole_cards(0)) == set(parse_cards("Ah Ad As Ks Qs"))
    assert set(hand.hole_cards(2)) == set(parse_cards("Qh Qd Tc Js Ts"))
    assert hand.street == "postdraw"


def test_R_DR_05_discard_before_the_draw_is_illegal() -> None:
    hand = draw([100] * 2)
    with pytest.raises(IllegalAction, match="the draw comes after") as err:
        hand.act(0, Action.discard(()))
    assert err.value.rule == "R-DR-05"


def test_R_DR_06_best_five_card_hand_wins_and_ties_split() -> None:
    hands = ["Ah Kd 9c 7s 3h", "As Kc 9d 7h 3s", "2c 4d 6h 8s Tc"]
    hand = draw([100] * 3, ante=1, hands=hands)
    check_around(hand)
    stand_pat_all(hand)
    check_around(hand)
    assert hand.result is not None
    (pot,) = hand.result.pots
    assert pot.winners == (0, 1) and pot.shares == {0: 2, 1: 1}


def test_R_DR_07_folded_player_sees_no_opponent_cards() -> None:
    hands = ["Ah Ad 2c 3c 4c", "Kh Kd 5c 6c 7c", "Qh Qd 8c 9c Tc"]
    hand = draw([100] * 3, hands=hands)
    hand.act(0, Action.bet(10))
    hand.act(1, Action.call())
    hand.act(2, Action.fold())
    stand_pat_all(hand)
    check_around(hand)
    assert any(isinstance(e, CardsShown) and e.seat == 0 for e in hand.events)
    folded = view(hand, 2)
    assert [s["cards"] for s in folded["seats"]] == [None, None, ["Qh", "Qd", "8c", "9c", "Tc"]]
    assert all(e.get("cards") is None for e in folded["history"] if e["kind"] == "cards_shown")
    hands = [e["hands"] for e in folded["history"] if e["kind"] == "pot_awarded"]
    assert hands == [{"0": {"category": 1, "ranks": []}}]  # R-DR-07 D: the category only
    assert view(hand, 0)["history"][-2]["hands"]["0"]["ranks"] == [12, 2, 1, 0]  # aces, 4 3 2
    spectator = view(hand, None)  # R-DR-07 D: a spectator is blind to the shown cards too
    assert [s["cards"] for s in spectator["seats"]] == [None, None, None]
    assert all(e["cards"] is None for e in spectator["history"] if e["kind"] == "cards_shown")
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.act(2, Action.check())


def test_R_DR_08_short_all_in_below_half_a_bet_does_not_reopen() -> None:
    hand = draw([500, 15, 500], small_bet=10)  # seat 1 has 14 after the ante
    hand.act(0, Action.bet(10))
    hand.act(1, Action.raise_to(14))  # all-in, 4 over the bet: less than half
    hand.act(2, Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.call_cost == 4 and legal.bet_kind is None


def test_R_DR_08_all_in_of_half_a_bet_or_more_reopens_to_the_next_full_level() -> None:
    hand = draw([500, 17, 500], small_bet=10)  # seat 1 has 16 after the ante
    hand.act(0, Action.bet(10))
    hand.act(1, Action.raise_to(16))  # 6 over: counts as a raise to the 20 level
    legal = hand.legal_actions()
    assert legal.seat == 2 and (legal.min_to, legal.max_to) == (30, 30)
    hand.act(2, Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.bet_kind is ActionKind.RAISE and legal.min_to == 30


def test_R_DR_08_short_call_all_in_and_side_pots() -> None:
    hands = ["Ah Ad Ac 3c 4c", "Kh Kd 5c 6c 7c", "Qh Qd 8c 9c Tc"]
    hand = draw([500, 6, 500], small_bet=10, hands=hands)
    hand.act(0, Action.bet(10))
    hand.act(1, Action.call())  # all-in for 5
    assert hand.events[-1].all_in  # type: ignore[union-attr]
    hand.act(2, Action.call())
    stand_pat_all(hand)
    check_around(hand)
    assert hand.result is not None
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(18, (0, 1, 2)), (10, (0, 2))]


def test_R_DR_08_draw_still_happens_when_nobody_can_bet() -> None:
    hand = draw([100, 6], small_bet=10)
    hand.act(0, Action.bet(10))
    hand.act(1, Action.call())  # all-in
    assert hand.street == "draw" and hand.to_act == 0
    hand.act(0, Action.discard(()))
    hand.act(1, Action.discard(hand.hole_cards(1)[:2]))
    assert hand.is_over


def test_R_DR_09_match_ends_after_the_configured_number_of_hands() -> None:
    stacks = {0: 50, 1: 50}
    assert not match_over(3, 4, stacks)
    assert match_over(4, 4, stacks)
    assert match_over(1, None, {0: 100, 1: 0})
    assert not match_over(100, None, stacks)


def test_R_DR_03_deck_layout_for_replacements() -> None:
    deck = draw_deck(["Ah Ad 2c 3c 4c", "Kh Kd 5c 6c 7c"], "As")
    assert deck[10] == parse_cards("As")[0]


def test_R_TM_04_D_a_draw_forfeit_leaves_the_draw_at_once_and_replays() -> None:
    """R-TM-04 D: the absentee folds when the deadline passes, in the draw as well: the
    seat to draw leaves the draw queue (it drew nothing), and so does one further down it."""
    hand = draw([100, 100, 100])
    while not hand.legal_actions().is_draw_phase:
        legal = hand.legal_actions()
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())
    seat = hand.to_act
    assert seat is not None
    hand.forfeit(seat)
    assert view(hand, None)["seats"][hand.dealt_seats.index(seat)]["status"] == "folded"
    assert hand.to_act != seat and hand.legal_actions().is_draw_phase
    later = next(s for s in hand.dealt_seats if s not in (seat, hand.to_act))
    hand.forfeit(later)  # out of turn: the last one left takes the pot unseen
    assert hand.is_over and hand.result is not None and not hand.result.showdown
    assert DrawHand.from_events(hand.events).events == hand.events


def test_R_TM_06_D_stop_betting_in_draw_goes_to_the_showdown_and_replays() -> None:
    hand = draw([100, 100, 100])
    first = hand.legal_actions().seat
    hand.act(first, Action.bet(10))
    events = hand.stop_betting()
    assert events[0].kind == "betting_stopped" and hand.is_over
    assert [(e.seat, e.amount) for e in events if e.kind == "bet_returned"] == [(first, 10)]  # type: ignore[attr-defined]
    assert hand.result is not None and hand.result.showdown
    assert not any(e.kind == "discarded" for e in hand.events)  # no draw after the stop
    assert DrawHand.from_events(hand.events).events == hand.events
    assert hand.stop_betting() == []  # a hand already over is left alone
