"""Property tests (hypothesis): random hands with random legal actions, both variants.

Invariants checked after every action: chips are conserved, no stack goes negative, pots
plus current bets add up to what was put in; every legal action is accepted, random illegal
ones are rejected with the hand unchanged; the hand always ends; replaying the log gives the
same hand (R-PT-01..03, R-HE-06..09, R-DR-04/05/08).
"""

from __future__ import annotations

from random import Random

from hypothesis import given
from hypothesis import strategies as st

from ahiko.poker.actions import Action, ActionKind, IllegalAction, LegalActions
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.hand import BaseHand
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view

MAX_STEPS = 400


def stacks_strategy(low: int, high: int) -> st.SearchStrategy[list[int]]:
    short = st.integers(1, 60)  # many short all-ins
    deep = st.integers(61, 5000)
    return st.lists(st.one_of(short, deep), min_size=low, max_size=high)


def illegal_attempts(hand: BaseHand, legal: LegalActions, rng: Random) -> list[tuple[int, Action]]:
    seat = legal.seat
    others = [s for s in hand.dealt_seats if s != seat]
    tries: list[tuple[int, Action]] = [(rng.choice(others), Action.call()), (99, Action.check())]
    if legal.is_draw_phase:
        tries += [(seat, Action.check()), (seat, Action.discard((99,)))]
        return tries
    if legal.call_cost > 0:
        tries.append((seat, Action.check()))
    else:
        tries += [(seat, Action.fold()), (seat, Action.call())]
    tries.append((seat, Action.discard(())))
    if legal.bet_kind is None:
        tries.append((seat, Action.raise_to(legal.committed + legal.stack)))
        tries.append((seat, Action.bet(legal.committed + legal.stack)))
    else:
        wrong = ActionKind.RAISE if legal.bet_kind is ActionKind.BET else ActionKind.BET
        tries.append((seat, Action(wrong, legal.min_to)))
        tries.append((seat, Action(legal.bet_kind, legal.max_to + rng.randint(1, 1000))))
        if legal.min_to > 0:
            tries.append((seat, Action(legal.bet_kind, rng.randint(0, legal.min_to - 1))))
    return tries


def check_invariants(hand: BaseHand, start_total: int) -> None:
    assert all(c >= 0 for c in hand.chips)
    assert sum(hand.chips) + sum(hand.total) == start_total or hand.is_over
    if hand.is_over:
        assert sum(hand.chips) == start_total
        assert hand.result is not None and sum(hand.result.net.values()) == 0
        assert sum(p.amount for p in hand.result.pots) == sum(hand.total)
        return
    v = view(hand, None)
    assert sum(p["amount"] for p in v["pots"]) + sum(s["bet"] for s in v["seats"]) == sum(
        hand.total
    )


def play_and_check(hand: BaseHand, rng: Random) -> None:
    start_total = sum(hand.starting)
    for _ in range(MAX_STEPS):
        check_invariants(hand, start_total)
        if hand.is_over:
            break
        legal = hand.legal_actions()
        before = (hand.events, view(hand, None), view(hand, legal.seat))
        for seat, action in illegal_attempts(hand, legal, rng):
            try:
                hand.act(seat, action)
            except IllegalAction as err:
                assert err.rule.startswith("R-")
            else:
                raise AssertionError(f"accepted illegal {action} by seat {seat}")
            assert (hand.events, view(hand, None), view(hand, legal.seat)) == before
        hand.act(legal.seat, random_action(legal, hand.hole_cards(legal.seat), rng))
    assert hand.is_over, "the hand did not end"
    again = type(hand).from_events(hand.events)
    assert again.events == hand.events and again.result == hand.result
    for viewer in (None, *hand.dealt_seats):
        assert view(again, viewer) == view(hand, viewer)


@given(
    stacks=stacks_strategy(2, 9),
    ante=st.sampled_from([0, 0, 1, 5]),
    button=st.integers(0, 8),
    rng=st.randoms(use_true_random=False),
)
def test_R_PT_01_holdem_random_hands_keep_every_invariant(
    stacks: list[int], ante: int, button: int, rng: Random
) -> None:
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = HoldemHand.start(
        HoldemConfig(5, 10, ante), list(range(len(stacks))), stacks, button, deck
    )
    play_and_check(hand, rng)


@given(
    stacks=stacks_strategy(2, 6),
    ante=st.sampled_from([0, 1, 2]),
    cap=st.sampled_from([1, 4]),
    rng=st.randoms(use_true_random=False),
)
def test_R_DR_08_draw_random_hands_keep_every_invariant(
    stacks: list[int], ante: int, cap: int, rng: Random
) -> None:
    deck = list(range(52))
    rng.shuffle(deck)
    stacks = [max(1, s // 20) for s in stacks]  # fixed-limit stacks of a few bets
    hand, _ = DrawHand.start(
        DrawConfig(ante, 2, raise_cap=cap), list(range(len(stacks))), stacks, 0, deck
    )
    play_and_check(hand, rng)
