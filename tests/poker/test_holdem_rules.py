"""SPEC §2 No-Limit Hold'em (R-HE-01..12) through HoldemHand."""

from __future__ import annotations

import pytest
from poker_testkit import holdem, holdem_deck

from ahiko.poker.actions import Action, ActionKind, IllegalAction
from ahiko.poker.cards import parse_cards
from ahiko.poker.config import HoldemConfig
from ahiko.poker.events import (
    ActionTaken,
    BlindPosted,
    CardsShown,
    HoleDealt,
    Mucked,
    StreetDealt,
)
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.view import view

DECK = list(range(52))


def check_down(hand: HoldemHand) -> None:
    """Everyone checks (or calls) until the hand is over."""
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())


def test_R_HE_01_two_to_nine_players() -> None:
    for n in (2, 9):
        hand, _ = HoldemHand.start(HoldemConfig(1, 2), list(range(n)), [100] * n, 0, DECK)
        assert len(hand.dealt_seats) == n
    for n in (1, 10):
        with pytest.raises(ValueError, match="2 to 9 players"):
            HoldemHand.start(HoldemConfig(1, 2), list(range(n)), [100] * n, 0, DECK)


def test_R_HE_02_the_two_seats_after_the_button_post_the_blinds() -> None:
    hand, events = HoldemHand.start(HoldemConfig(10, 20), [0, 2, 5], [1000, 800, 1200], 5, DECK)
    blinds = [e for e in events if isinstance(e, BlindPosted)]
    assert [(b.seat, b.amount, b.blind) for b in blinds] == [(0, 10, "sb"), (2, 20, "bb")]
    assert hand.dealt_seats == (0, 2, 5)
    moved, _ = HoldemHand.start(HoldemConfig(10, 20), [0, 2, 5], [1000, 800, 1200], 0, DECK)
    assert (moved.small_blind_seat, moved.big_blind_seat) == (2, 5)
    assert moved.dealt_seats == (2, 5, 0)


def test_R_HE_02_short_stack_posts_the_blind_all_in_for_less() -> None:
    hand = holdem([1000, 15, 1000])
    assert [e for e in hand.events if isinstance(e, BlindPosted)][1] == BlindPosted(
        1, 15, "bb", True
    )
    assert hand.to_act == 2
    assert hand.legal_actions().call_cost == 15


def test_R_HE_03_heads_up_button_posts_small_blind_and_acts_first_preflop_only() -> None:
    hand = holdem([1000, 1000], holes=["2c 3d", "4c 5d"])  # seats 0, 1; button 1
    assert (hand.small_blind_seat, hand.big_blind_seat) == (1, 0)
    assert hand.to_act == 1
    hand.act(1, Action.call())
    assert hand.to_act == 0  # the big blind's option
    hand.act(0, Action.check())
    assert hand.street == "flop" and hand.to_act == 0


def test_R_HE_04_two_hole_cards_then_flop_turn_river_by_the_layout() -> None:
    hand = holdem([500, 500, 500], holes=["Ah Kh", "2c 3c", "7d 8d"], board="Qh Jh Th 9s 2s")
    dealt = [e for e in hand.events if isinstance(e, HoleDealt)]
    assert [(e.seat, e.positions) for e in dealt] == [(0, (0, 3)), (1, (1, 4)), (2, (2, 5))]
    assert hand.hole_cards(0) == parse_cards("Ah Kh")
    check_down(hand)
    streets = [e for e in hand.events if isinstance(e, StreetDealt)]
    assert [(s.name, len(s.cards), s.positions) for s in streets] == [
        ("flop", 3, (6, 7, 8)),
        ("turn", 1, (9,)),
        ("river", 1, (10,)),
    ]
    assert hand.board == parse_cards("Qh Jh Th 9s 2s")


def test_R_HE_05_first_to_act_preflop_after_big_blind_then_first_after_button() -> None:
    hand = holdem([500] * 4)  # sb 0, bb 1, button 3
    assert hand.to_act == 2
    hand.act(2, Action.call())
    hand.act(3, Action.call())
    hand.act(0, Action.fold())
    hand.act(1, Action.check())
    assert hand.street == "flop" and hand.to_act == 1  # seat 0 folded: next after the button


def test_R_HE_06_only_legal_actions_and_last_action_shown_per_round() -> None:
    hand = holdem([500] * 3)
    legal = hand.legal_actions()
    assert (legal.can_fold, legal.can_check, legal.call_cost, legal.bet_kind) == (
        True,
        False,
        20,
        ActionKind.RAISE,
    )
    hand.act(2, Action.raise_to(60))
    seats = view(hand, None)["seats"]
    assert seats[2]["last_action"] == {"kind": "raise", "amount": 60}
    assert seats[0]["last_action"] is None
    hand.act(0, Action.call())
    hand.act(1, Action.call())
    legal = hand.legal_actions()
    assert legal.can_check and not legal.can_fold and legal.bet_kind is ActionKind.BET
    assert all(s["last_action"] is None for s in view(hand, None)["seats"])  # a new round
    with pytest.raises(IllegalAction) as err:
        hand.act(0, Action.fold())
    assert err.value.rule == "R-HE-06"


def test_R_HE_07_min_raise_is_last_full_raise_spec_example() -> None:
    hand = holdem([1000] * 4)
    hand.act(2, Action.raise_to(40))  # 20 -> 40
    assert hand.legal_actions().min_to == 60
    hand.act(3, Action.raise_to(100))  # 40 -> 100 adds 60
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (160, 1000)
    before = hand.events
    with pytest.raises(IllegalAction, match="min raise is to 160, max 1000") as err:
        hand.act(0, Action.raise_to(150))
    assert err.value.rule == "R-HE-07" and hand.events == before
    with pytest.raises(IllegalAction, match="R-HE-07"):
        hand.act(0, Action.raise_to(1001))


def test_R_HE_07_first_bet_at_least_the_big_blind_and_all_in_for_less_allowed() -> None:
    hand = holdem([1000, 1000, 1000])
    check_to_flop(hand)
    legal = hand.legal_actions()
    assert (legal.bet_kind, legal.min_to, legal.max_to) == (ActionKind.BET, 20, 980)
    with pytest.raises(IllegalAction, match="min bet is to 20"):
        hand.act(0, Action.bet(19))
    short = holdem([1000, 1000, 50])
    short.act(2, Action.raise_to(50))  # all-in for less than a min raise (to 40 is the min)
    assert short.events[-1].all_in  # type: ignore[union-attr]


def check_to_flop(hand: HoldemHand) -> None:
    while hand.street == "preflop":
        legal = hand.legal_actions()
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())


def test_R_HE_08_short_all_in_does_not_reopen_for_the_bettor() -> None:
    hand = holdem([1000, 1000, 70])  # seat 2 (button) has 50 after the flop
    check_to_flop(hand)
    hand.act(0, Action.bet(40))
    hand.act(1, Action.call())
    hand.act(2, Action.raise_to(50))  # all-in, adds 10 only
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.call_cost == 10 and legal.bet_kind is None
    with pytest.raises(IllegalAction, match="raising is closed") as err:
        hand.act(0, Action.raise_to(200))
    assert err.value.rule == "R-HE-08"


def test_R_HE_08_player_who_has_not_acted_may_raise_a_short_all_in() -> None:
    hand = holdem([1000, 1000, 1000, 70])
    check_to_flop(hand)
    hand.act(0, Action.bet(40))
    hand.act(1, Action.fold())
    hand.act(2, Action.call())
    hand.act(3, Action.raise_to(50))  # short all-in
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.bet_kind is None  # the bettor: closed
    hand.act(0, Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.bet_kind is None  # called already: closed too


def test_R_HE_08_several_short_all_ins_that_make_a_full_raise_reopen() -> None:
    hand = holdem([2000, 2000, 80, 105])  # after the flop seats 2/3 hold 60 and 85
    check_to_flop(hand)
    hand.act(0, Action.bet(40))
    hand.act(1, Action.call())
    hand.act(2, Action.raise_to(60))  # +20, short
    hand.act(3, Action.raise_to(85))  # +25, short; 45 since the bettor acted >= 40
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.bet_kind is ActionKind.RAISE
    assert (legal.min_to, legal.max_to) == (125, 1980)
    hand.act(0, Action.call())
    assert hand.legal_actions().bet_kind is ActionKind.RAISE  # seat 1 also faces 45


def test_R_HE_08_caller_between_short_all_ins_faces_less_than_a_full_raise() -> None:
    hand = holdem([2000, 2000, 2000, 80, 105], blinds=(10, 20))
    check_to_flop(hand)
    hand.act(0, Action.bet(40))
    hand.act(1, Action.call())
    hand.act(2, Action.fold())
    hand.act(3, Action.raise_to(60))
    hand.act(4, Action.raise_to(85))
    assert hand.legal_actions().bet_kind is ActionKind.RAISE  # bettor faces 45
    hand2 = holdem([2000, 2000, 2000, 80, 125])
    check_to_flop(hand2)
    hand2.act(0, Action.bet(40))
    hand2.act(1, Action.fold())
    hand2.act(2, Action.fold())
    hand2.act(3, Action.raise_to(60))  # seat 3 all-in +20
    assert hand2.to_act == 4
    hand2.act(4, Action.call())  # calls 60 (has 105 behind)
    legal = hand2.legal_actions()
    assert legal.seat == 0 and legal.bet_kind is None  # faced only 20


def test_R_HE_08_D_preflop_caller_of_the_big_blind_faces_a_short_all_in_and_may_not_raise() -> None:
    """The issue's reproduction: blinds 10/20, five seats, button seat 5, stacks
    1000/1000/1000/30/1000. Seat 3 calls 20, seat 4 goes all-in to 30 (+10), seats 5, 1, 2
    call. The full raise seat 3 must face is never less than the big blind (the round's first
    full bet pre-flop): it faced only 10, so it may call 10 or fold, not raise. pokerkit
    0.7.7 offers a raise here; the spec's D line wins (see the differential's
    ``spec_closes_below_big_blind``)."""
    hand, _ = HoldemHand.start(
        HoldemConfig(10, 20), [1, 2, 3, 4, 5], [1000, 1000, 1000, 30, 1000], 5, DECK
    )
    hand.act(3, Action.call())
    hand.act(4, Action.raise_to(30))  # all-in, +10
    for seat in (5, 1, 2):
        hand.act(seat, Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.call_cost == 10 and legal.can_fold
    assert legal.bet_kind is None
    before = hand.events
    with pytest.raises(IllegalAction, match=r"less than a full raise \(20\)") as err:
        hand.act(3, Action.raise_to(50))
    assert err.value.rule == "R-HE-08" and hand.events == before
    hand.act(3, Action.call())
    assert hand.street == "flop"


def test_R_HE_08_D_after_the_flop_a_first_bet_all_in_below_the_big_blind_does_not_reopen() -> None:
    """Post-flop, a first bet that is an all-in below the big blind (15 < 20) is not a full
    bet: a player who checked before it may call or fold, not raise."""
    hand = holdem([1000, 1000, 35])  # the button has 15 behind after the flop
    check_to_flop(hand)
    hand.act(0, Action.check())
    hand.act(1, Action.check())
    hand.act(2, Action.bet(15))  # all-in below the big blind
    legal = hand.legal_actions()
    assert legal.seat == 0 and legal.call_cost == 15 and legal.bet_kind is None
    hand.act(0, Action.call())
    assert hand.legal_actions().bet_kind is None  # seat 1 too
    with pytest.raises(IllegalAction) as err:
        hand.act(1, Action.raise_to(40))
    assert err.value.rule == "R-HE-08"


def test_R_HE_08_D_short_all_ins_adding_up_to_the_big_blind_reopen_before_a_full_bet() -> None:
    """Several short all-ins that together reach the big blind do reopen it: blinds 10/20,
    a call of 20, then all-ins to 30 and 40: the caller faces 20 = a full raise."""
    hand, _ = HoldemHand.start(
        HoldemConfig(10, 20), [1, 2, 3, 4, 5], [1000, 1000, 1000, 30, 40], 5, DECK
    )
    hand.act(3, Action.call())
    hand.act(4, Action.raise_to(30))
    hand.act(5, Action.raise_to(40))
    hand.act(1, Action.call())
    hand.act(2, Action.call())
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.bet_kind is ActionKind.RAISE and legal.min_to == 60


def test_R_HE_09_round_ends_when_all_matched_and_all_in_player_stays_in() -> None:
    hand = holdem([1000, 1000, 30])
    hand.act(2, Action.raise_to(30))  # all-in
    hand.act(0, Action.call())
    assert hand.street == "preflop"
    hand.act(1, Action.call())
    assert hand.street == "flop"
    assert view(hand, None)["seats"][2]["status"] == "allin"


def test_R_HE_10_last_player_standing_wins_at_once_without_showing() -> None:
    hand = holdem([1000] * 3)
    hand.act(2, Action.raise_to(100))
    hand.act(0, Action.fold())
    hand.act(1, Action.fold())
    assert hand.is_over and hand.result is not None and not hand.result.showdown
    assert hand.result.net == {0: -10, 1: -20, 2: 30}
    assert not any(isinstance(e, CardsShown) for e in hand.events)
    assert view(hand, None)["seats"][2]["cards"] is None


def test_R_HE_11_run_out_when_no_more_than_one_player_can_bet() -> None:
    hand = holdem([300, 1000, 1000], holes=["Ah Ad", "Kh Kd", "2c 7d"], board="3s 4s 9h Jc Qd")
    hand.act(2, Action.fold())
    hand.act(0, Action.raise_to(300))  # all-in
    hand.act(1, Action.call())
    assert hand.is_over and hand.board == parse_cards("3s 4s 9h Jc Qd")
    shown = [e for e in hand.events if isinstance(e, CardsShown)]
    assert {e.seat for e in shown} == {0, 1} and {e.reason for e in shown} == {"allin"}
    assert hand.stacks == {0: 600, 1: 700, 2: 1000}


def test_R_HE_12_last_aggressor_shows_first_and_a_beaten_hand_mucks() -> None:
    hand = holdem([1000] * 3, holes=["2c 7d", "Ah Ad", "Kh Kd"], board="3s 4s 9h Jc Qd")
    check_to_flop(hand)
    while hand.street != "river":
        hand.act(hand.to_act, Action.check())  # type: ignore[arg-type]
    hand.act(0, Action.check())
    hand.act(1, Action.check())
    hand.act(2, Action.bet(50))  # the last aggressor: kings
    hand.act(0, Action.call())
    hand.act(1, Action.call())
    tail = [e for e in hand.events if isinstance(e, CardsShown | Mucked)]
    assert tail == [
        CardsShown(2, parse_cards("Kh Kd"), "showdown"),
        Mucked(0),  # 7-high cannot beat kings: mucks, cards stay private
        CardsShown(1, parse_cards("Ah Ad"), "showdown"),
    ]
    assert view(hand, None)["seats"][0]["cards"] is None
    assert view(hand, 0)["seats"][0]["cards"] == ["2c", "7d"]
    hand.show(0)  # a mucker may show voluntarily
    assert view(hand, None)["seats"][0]["cards"] == ["2c", "7d"]


def test_R_HE_12_without_a_river_bet_first_seat_after_button_shows_first() -> None:
    hand = holdem([1000] * 3, holes=["Kh Kd", "Ah Ad", "2c 7d"], board="3s 4s 9h Jc Qd")
    check_down(hand)
    tail = [e for e in hand.events if isinstance(e, CardsShown | Mucked)]
    assert tail == [
        CardsShown(0, parse_cards("Kh Kd"), "showdown"),
        CardsShown(1, parse_cards("Ah Ad"), "showdown"),
        Mucked(2),
    ]


def test_R_HE_12_voluntary_show_only_after_the_hand_and_not_for_folders() -> None:
    hand = holdem([1000] * 3, holes=["Kh Kd", "Ah Ad", "2c 7d"])
    with pytest.raises(IllegalAction, match="only after the hand"):
        hand.show(2)
    hand.act(2, Action.fold())
    hand.act(0, Action.fold())
    with pytest.raises(IllegalAction, match="folded") as err:
        hand.show(2)
    assert err.value.rule == "R-HE-12"
    assert not hand.has_shown(1) and not hand.has_shown(7)  # 7: not in the hand
    events = hand.show(1)
    assert events == [CardsShown(1, parse_cards("Ah Ad"), "voluntary")]
    assert hand.has_shown(1) and not hand.has_shown(0)
    with pytest.raises(IllegalAction, match="already shown"):
        hand.show(1)


def test_R_HE_06_illegal_actions_name_the_rule_and_change_nothing() -> None:
    hand = holdem([1000] * 3)
    snapshot = (hand.events, view(hand, 2))
    cases = [
        (0, Action.call(), "R-HE-05", "seat 2's turn"),
        (7, Action.call(), "R-HE-05", "not in this hand"),
        (2, Action.check(), "R-HE-06", "cannot check facing a bet"),
        (2, Action.bet(40), "R-HE-06", "raise instead"),
        (2, Action.raise_to(39), "R-HE-07", "min raise is to 40, max 1000"),
        (2, Action.discard(()), "R-HE-06", "not a betting action"),
    ]
    for seat, action, rule, text in cases:
        with pytest.raises(IllegalAction, match=text) as err:
            hand.act(seat, action)
        assert err.value.rule == rule
        assert (hand.events, view(hand, 2)) == snapshot
    hand.act(2, Action.fold())
    hand.act(0, Action.fold())
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.act(1, Action.check())


def test_R_HE_02_antes_are_dead_money_and_short_ante_is_all_in() -> None:
    hand = holdem([1000, 1000, 3], ante=5)
    assert hand.stacks == {0: 985, 1: 975, 2: 0}
    assert hand.to_act == 0 and hand.legal_actions().call_cost == 10
    hand.act(0, Action.fold())
    assert hand.is_over is False or hand.result is not None


def test_R_HE_04_deck_must_be_a_permutation() -> None:
    with pytest.raises(ValueError, match="52 cards"):
        HoldemHand.start(HoldemConfig(1, 2), [0, 1], [10, 10], 0, list(range(51)))
    assert len(holdem_deck(["Ah Kh", "2c 3c"])) == 52


def test_R_HE_11_no_decision_for_a_big_blind_nobody_can_make_put_in_more() -> None:
    hand = holdem([15, 200, 12, 18])  # every other stack is at most the big blind
    for seat in (2, 3, 0):
        assert hand.to_act == seat
        hand.act(seat, Action.call())  # all-in calls
    assert hand.is_over and hand.to_act is None
    assert hand.result is not None and hand.result.showdown


def test_R_HE_06_betting_now_tells_check_from_call_and_bet_from_raise() -> None:
    hand = holdem([1000, 1000, 1000])
    seat = hand.to_act
    assert seat is not None
    assert hand.betting_now() == (seat, 20, 0)  # pre-flop: facing the big blind, a raise
    check_to_flop(hand)
    first = hand.to_act
    assert first is not None and hand.betting_now() == (first, 0, 0)  # nothing bet: check/bet
    hand.act(first, Action.bet(50))
    assert hand.betting_now() == (hand.to_act, 50, 0)


def test_R_HE_07_bet_bounds_are_the_bounds_of_legal_actions() -> None:
    hand = holdem([1000] * 4)
    hand.act(2, Action.raise_to(40))
    hand.act(3, Action.raise_to(100))
    legal = hand.legal_actions()
    bounds = hand.round.bet_bounds(0) if hand.round is not None else None
    assert bounds == (legal.bet_kind, legal.min_to, legal.max_to) == (ActionKind.RAISE, 160, 1000)
    with pytest.raises(IllegalAction, match=r"there is a bet: raise instead \(to 160\.\.1000\)"):
        hand.act(0, Action.bet(200))


def test_R_HE_06_check_or_call_checks_or_calls_as_the_seat_faces() -> None:
    hand = holdem([1000, 1000, 1000])  # seat 0 small blind, 1 big blind, 2 button acts first
    (call,) = hand.check_or_call(2)
    assert isinstance(call, ActionTaken)
    assert (call.action, call.amount, call.added) == ("call", 20, 20)
    hand.check_or_call(0)
    check = hand.check_or_call(1)[0]  # closes the round: the flop follows
    assert isinstance(check, ActionTaken) and (check.action, check.added) == ("check", 0)
    assert hand.street == "flop"


def test_R_HE_07_bet_or_raise_to_bets_or_raises_within_the_bounds() -> None:
    hand = holdem([1000, 1000, 1000])
    before = hand.events
    with pytest.raises(IllegalAction, match="min raise is to 40") as error:
        hand.bet_or_raise_to(2, 30)
    assert error.value.rule == "R-HE-07" and hand.events == before
    (raised,) = hand.bet_or_raise_to(2, 40)
    assert isinstance(raised, ActionTaken) and (raised.action, raised.amount) == ("raise", 40)
    check_to_flop(hand)
    first = hand.to_act
    assert first is not None
    (bet,) = hand.bet_or_raise_to(first, 20)
    assert isinstance(bet, ActionTaken) and (bet.action, bet.amount) == ("bet", 20)


def test_R_HE_05_check_or_call_and_bet_or_raise_to_refuse_out_of_turn_like_act() -> None:
    hand = holdem([1000, 1000, 1000])
    before = hand.events
    for attempt in (lambda: hand.check_or_call(0), lambda: hand.bet_or_raise_to(0, 40)):
        with pytest.raises(IllegalAction, match="it is seat 2's turn, not seat 0's"):
            attempt()
    with pytest.raises(IllegalAction, match="seat 7 is not in this hand"):
        hand.check_or_call(7)
    assert hand.events == before
    check_down(hand)
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.bet_or_raise_to(0, 40)


def test_R_HE_05_play_takes_phh_verbs_returns_nothing_and_refuses_like_act() -> None:
    """``play`` is what the wrappers call: the same actions in the log, the same refusals
    (the seat, then the amount, then the turn), nothing changed by a refusal."""
    hand = holdem([1000, 1000, 1000])
    before = hand.events
    with pytest.raises(IllegalAction, match="a seat is a whole number"):
        hand.play("2", "cc")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="the amount must be a whole number"):
        hand.play(0, "cbr", 40.5)  # type: ignore[arg-type]  # out of turn too: amount first
    with pytest.raises(IllegalAction, match="it is seat 2's turn, not seat 0's"):
        hand.play(0, "f")
    with pytest.raises(ValueError, match="unknown betting verb 'x'"):
        hand.play(2, "x")
    with pytest.raises(IllegalAction, match="min raise is to 40"):
        hand.play(2, "cbr", 30)
    assert hand.events == before
    assert hand.play(2, "cbr", 40) is None
    hand.play(0, "cc")
    hand.play(1, "f")
    new = hand.events[len(before) :]
    actions = [(e.seat, e.action, e.amount) for e in new if isinstance(e, ActionTaken)]
    assert actions == [(2, "raise", 40), (0, "call", 40), (1, "fold", 0)]
    assert hand.street == "flop"


def test_R_TM_04_forfeit_folds_where_a_check_was_possible_and_replays() -> None:
    """The absentee's fold (R-TM-04) is a forfeit: allowed at the seat's turn even with
    nothing to call, where a plain fold is refused (R-HE-06); the log replays it."""
    hand = holdem([1000, 1000, 1000])
    check_to_flop(hand)
    assert hand.to_act == 0 and hand.legal_actions().can_check
    with pytest.raises(IllegalAction, match="nothing to call"):
        hand.act(0, Action.fold())
    events = hand.forfeit(0)
    assert [(e.kind, getattr(e, "action", None)) for e in events] == [("action", "fold")]
    assert hand.to_act == 1
    check_down(hand)
    assert hand.result is not None and all(0 not in p.eligible for p in hand.result.pots)
    again = HoldemHand.from_events(hand.events)
    assert again.events == hand.events and again.result == hand.result


def test_R_TM_04_D_a_forfeit_out_of_turn_folds_at_once_and_replays() -> None:
    """R-TM-04 D: the absentee folds when the deadline passes, not at a turn that may never
    come: seat 2 bets and is withdrawn while seat 0 thinks; seat 2 leaves the hand there,
    its bet stays in the pot for the others to match or not (what nobody matches goes back,
    R-PT-03), and an all-in has nothing to forfeit."""
    hand = holdem([1000, 1000, 1000])
    check_to_flop(hand)
    hand.act(0, Action.check())
    hand.act(1, Action.check())
    hand.act(2, Action.bet(100))
    assert hand.to_act == 0
    events = hand.forfeit(2)
    assert [(e.kind, getattr(e, "seat", None)) for e in events] == [("action", 2)]
    assert hand.to_act == 0 and hand.legal_actions().call_cost == 100
    hand.act(0, Action.fold())
    assert hand.is_over and hand.result is not None and not hand.result.showdown
    assert hand.result.stacks == {0: 980, 1: 1040, 2: 980}  # 2's unmatched bet came back
    with pytest.raises(IllegalAction, match=r"hand is over|no chips"):
        hand.forfeit(1)
    assert HoldemHand.from_events(hand.events).events == hand.events

    shove = holdem([1000, 200, 1000])
    shove.act(2, Action.call())
    shove.act(0, Action.call())
    shove.act(1, Action.raise_to(200))  # the big blind all-in
    with pytest.raises(IllegalAction, match="no chips"):
        shove.forfeit(1)
