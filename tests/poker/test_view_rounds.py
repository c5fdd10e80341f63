"""A closed betting round's bets are gathered into the pot in the view (R-DR-03, R-HE-06):
five-card draw's draw shows no pre-draw bet, hold'em's next street none of the last one."""

from __future__ import annotations

from poker_testkit import draw, holdem

from ahiko.poker.actions import Action
from ahiko.poker.view import view


def test_R_DR_03_the_draw_shows_the_pre_draw_bets_in_the_pot() -> None:
    hand = draw([100] * 3, ante=1, small_bet=2)
    hand.act(hand.to_act, Action.bet(2))  # type: ignore[arg-type]
    while hand.street == "predraw":
        hand.act(hand.to_act, Action.call())  # type: ignore[arg-type]
    assert hand.street == "draw"
    for viewer in (None, 0, 1, 2):
        v = view(hand, viewer)
        assert [s["bet"] for s in v["seats"]] == [0, 0, 0]
        assert [s["last_action"] for s in v["seats"]] == [None, None, None]
        assert sum(p["amount"] for p in v["pots"]) == 3 * 1 + 3 * 2 == 9
    first = hand.to_act
    hand.act(first, Action.discard(tuple(hand.holes[hand.index[first]][:2])))  # type: ignore[arg-type,index]
    v = view(hand, None)
    drawn = {s["seat"]: s["last_action"] for s in v["seats"]}
    assert drawn[first] == {"kind": "discard", "amount": 2}
    assert sum(p["amount"] for p in v["pots"]) == 9


def test_R_HE_06_the_next_street_shows_the_last_rounds_bets_in_the_pot() -> None:
    hand = holdem([100] * 3)
    while hand.street == "preflop":
        legal = hand.legal_actions()
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())
    v = view(hand, None)
    assert v["street"] == "flop"
    assert [s["bet"] for s in v["seats"]] == [0, 0, 0]
    assert sum(p["amount"] for p in v["pots"]) == sum(s["total_bet"] for s in v["seats"])
