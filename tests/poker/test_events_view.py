"""The event log (replay, JSON) and view(): R-HE-12 privacy, R-HE-06 table display, R-DR-07."""

from __future__ import annotations

import json
from collections.abc import Sequence
from random import Random
from typing import TypeVar

import pytest
from poker_testkit import draw, holdem

from ahiko.poker.actions import Action
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import ActionTaken, event_from_dict, event_to_dict
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.random_play import random_play
from ahiko.poker.view import view

T = TypeVar("T")


def played_holdem(seed: int) -> HoldemHand:
    hand = holdem([1000, 400, 1500, 60], ante=2, holes=["Ah Ad", "Kh Kd", "Qh Qd", "Jh Jd"])
    random_play(hand, Random(seed))
    return hand


def test_R_HE_12_event_json_round_trip_every_kind() -> None:
    kinds = set()
    for seed in range(30):
        hand = played_holdem(seed)
        for event in hand.events:
            data = json.loads(json.dumps(event_to_dict(event)))
            assert event_from_dict(data) == event
            kinds.add(event.kind)
    assert {
        "hand_started",
        "ante_posted",
        "blind_posted",
        "hole_dealt",
        "action",
        "street",
    } <= kinds
    with pytest.raises(ValueError, match="unknown event kind"):
        event_from_dict({"kind": "nonsense"})


@pytest.mark.parametrize("seed", range(20))
def test_R_HE_12_replay_from_events_gives_the_same_hand(seed: int) -> None:
    hand = played_holdem(seed)
    for deck in (hand.deck, None):
        again = HoldemHand.from_events(hand.events, deck)
        assert again.events == hand.events and again.result == hand.result
        for viewer in (None, 0, 1, 2, 3):
            assert view(again, viewer) == view(hand, viewer)


def test_R_DR_05_replay_a_draw_hand_in_progress_and_continue() -> None:
    hand = draw([100, 100, 100])
    hand.act(0, Action.bet(10))
    hand.act(1, Action.call())
    hand.act(2, Action.call())
    hand.act(0, Action.discard(hand.hole_cards(0)[:2]))
    again = DrawHand.from_events(hand.events, hand.deck)
    assert view(again, 1) == view(hand, 1)
    for h in (hand, again):
        h.act(1, Action.discard(()))
    assert again.events == hand.events


def test_R_HE_12_tampered_log_is_refused() -> None:
    hand = holdem([1000] * 3)
    hand.act(2, Action.raise_to(100))
    events = list(hand.events)
    events[-1] = ActionTaken(2, "raise", 100, 90, False)
    with pytest.raises(ValueError, match="does not give back"):
        HoldemHand.from_events(events, hand.deck)


def test_R_HE_12_view_hides_hole_cards_from_spectators_and_opponents() -> None:
    hand = holdem([1000] * 3, holes=["Ah Ad", "Kh Kd", "Qh Qd"])
    spectator, seat0 = view(hand, None), view(hand, 0)
    assert [s["cards"] for s in spectator["seats"]] == [None, None, None]
    assert [s["cards"] for s in seat0["seats"]] == [["Ah", "Ad"], None, None]
    assert all(s["card_count"] == 2 for s in spectator["seats"])
    text = json.dumps(spectator)
    assert "cards" not in [k for e in spectator["history"] if e["kind"] == "hole_dealt" for k in e]
    assert json.loads(text) == spectator


def test_R_HE_06_legal_only_for_the_viewer_to_act_with_exact_bounds() -> None:
    hand = holdem([1000] * 3)
    assert view(hand, 0)["legal"] is None and view(hand, None)["legal"] is None
    legal = view(hand, 2)["legal"]
    assert legal["seat"] == 2 and legal["bet_kind"] == "raise"
    assert (legal["min_to"], legal["max_to"], legal["call_cost"]) == (40, 1000, 20)
    v = view(hand, 2)
    assert v["to_act"] == 2 and v["street"] == "preflop" and v["stakes"]["big_blind"] == 20
    assert [s["bet"] for s in v["seats"]] == [10, 20, 0]


def test_R_PT_01_view_pots_gather_finished_rounds() -> None:
    hand = holdem([1000, 1000, 1000])
    hand.act(2, Action.call())
    hand.act(0, Action.call())
    hand.act(1, Action.check())
    hand.act(0, Action.bet(50))
    v = view(hand, None)
    assert v["pots"] == [{"amount": 60, "eligible": [0, 1, 2]}]
    assert v["seats"][0]["bet"] == 50 and v["seats"][0]["total_bet"] == 70


class CountingRng:
    """Not a ``random.Random``: random play needs only randint, choice and sample."""

    def __init__(self) -> None:
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return a + self.calls % (b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:
        self.calls += 1
        return seq[self.calls % len(seq)]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        self.calls += 1
        return list(population[:k])


def test_R_HE_12_random_play_takes_any_rng_with_the_three_methods() -> None:
    hand = holdem([1000, 400, 1500, 60], holes=["Ah Ad", "Kh Kd", "Qh Qd", "Jh Jd"])
    rng = CountingRng()
    random_play(hand, rng)
    assert hand.is_over and rng.calls > 0
    drawn = draw([50, 50, 50])
    random_play(drawn, CountingRng())
    assert drawn.is_over
