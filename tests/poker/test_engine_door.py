"""The engine's door: chip amounts are whole numbers and actions are typed (R-HE-06/07,
R-DR-04/05). A plug-in bot loaded by import path calls the engine directly, so the engine
itself refuses a float, a bool, a string or a negative amount, an unknown action kind, a
seat that is not an int and an action out of turn, with an error that names what was wrong,
leaving the hand exactly as it was."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from poker_testkit import draw, holdem

from ahiko.poker.actions import Action, ActionKind, IllegalAction
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.hand import AnyHand
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view

DECK = list(range(52))

not_an_amount = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=5),
    st.integers(max_value=-1),
    st.none(),
    st.decimals(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(), max_size=2),
)
not_a_kind = st.one_of(
    st.sampled_from([k.value for k in ActionKind]),  # the right word, but a str
    st.text(max_size=8),
    st.integers(),
    st.none(),
)
not_a_seat = st.one_of(st.booleans(), st.floats(), st.text(max_size=3), st.none())


def snapshot(hand: AnyHand) -> tuple[Any, ...]:
    return (hand.events, view(hand, None), *(view(hand, s) for s in hand.dealt_seats))


def played_hand(kind: str, rng: Random) -> AnyHand:
    """A hand part-way through, someone to act."""
    hand = holdem([1000, 800, 30, 1200]) if kind == "holdem" else draw([200, 150, 9])
    for _ in range(rng.randint(0, 6)):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.act(legal.seat, random_action(legal, hand.hole_cards(legal.seat), rng))
    if hand.is_over:
        hand = holdem([1000, 800, 30, 1200]) if kind == "holdem" else draw([200, 150, 9])
    return hand


def refused(hand: AnyHand, seat: object, action: object) -> IllegalAction:
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as err:
        hand.act(seat, action)  # type: ignore[arg-type]
    assert err.value.rule.startswith("R-") and err.value.message
    assert snapshot(hand) == before, f"{action!r} by {seat!r} changed the hand"
    return err.value


@settings(max_examples=300)
@given(
    variant=st.sampled_from(["holdem", "draw"]),
    rng=st.randoms(use_true_random=False),
    amount=not_an_amount,
    kind=not_a_kind,
    seat=not_a_seat,
    which=st.integers(0, 5),
)
def test_R_HE_06_R_HE_07_fuzz_the_engine_door_refuses_untyped_actions_and_changes_nothing(
    variant: str, rng: Random, amount: object, kind: object, seat: object, which: int
) -> None:
    hand = played_hand(variant, rng)
    legal = hand.legal_actions()
    me = legal.seat
    other = next(s for s in hand.dealt_seats if s != me)
    betting = ActionKind.BET if legal.bet_kind is None else legal.bet_kind
    attempts: list[tuple[object, object, str]] = [
        (me, Action(betting, amount), "amount"),  # type: ignore[arg-type]
        (me, Action(kind, 0), "kind"),  # type: ignore[arg-type]
        (seat, Action.call() if legal.can_call else Action.check(), "seat"),
        (me, str(kind), "an Action"),
        (other, Action.fold(), "turn"),
        (me, Action(ActionKind.DISCARD, 0, (amount,)), "cards"),  # type: ignore[arg-type]
    ]
    who, action, what = attempts[which]
    err = refused(hand, who, action)
    if what == "turn":
        assert f"seat {me}'s turn" in err.message
    elif what == "amount" and type(amount) is not int:
        assert "whole number of chips" in err.message and type(amount).__name__ in err.message
    elif what == "amount":
        assert "negative" in err.message or "min" in err.message or "exactly" in err.message
    elif what == "kind":
        assert "unknown action kind" in err.message and repr(kind) in err.message
    elif what == "seat":
        assert "seat is a whole number" in err.message
    elif what == "an Action":
        assert "must be an Action" in err.message


def test_R_HE_07_the_issues_examples_are_refused_with_the_hand_unchanged() -> None:
    """`raise_to(40.5)` made a stack of 959.5; `Action("call")` crashed with AttributeError."""
    hand = holdem([1000, 1000, 1000])  # the button, seat 2, is first to act
    assert hand.to_act == 2
    err = refused(hand, 2, Action.raise_to(40.5))  # type: ignore[arg-type]
    assert err.message == "the amount must be a whole number of chips, got float 40.5"
    err = refused(hand, 2, Action("call"))  # type: ignore[arg-type]
    assert err.message.startswith("unknown action kind 'call'")
    refused(hand, 2, Action.raise_to(True))  # type: ignore[arg-type]
    refused(hand, 2, Action.raise_to(-40))
    refused(hand, True, Action.call())
    with pytest.raises(IllegalAction, match="whole number of chips"):
        hand.bet_or_raise_to(2, 40.5)  # type: ignore[arg-type]
    assert hand.stacks == {0: 990, 1: 980, 2: 1000}
    hand.act(2, Action.raise_to(40))
    assert hand.stacks[2] == 960


def test_R_HE_06_a_fold_check_or_call_built_by_hand_still_passes_the_door() -> None:
    """Action.fold(), .check() and .call() are shared objects the door knows by identity; an
    equal action built otherwise is checked and taken alike, and an ill-typed one that looks
    like a call is still refused."""
    assert Action.fold() is Action.fold() and Action.call() is Action.call()
    assert Action(ActionKind.CALL) == Action.call() and Action(ActionKind.CALL) is not Action.call()
    hand = holdem([1000, 1000, 1000])
    refused(hand, 2, Action(ActionKind.CALL, 0, [1]))  # type: ignore[arg-type]  # a list of cards
    hand.act(2, Action(ActionKind.CALL))
    hand.act(0, Action(ActionKind.CALL, 0, ()))
    hand.act(1, Action(ActionKind.CHECK))
    assert hand.street == "flop" and hand.stacks == {0: 980, 1: 980, 2: 980}


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: HoldemConfig(10.5, 20), "small_blind must be a whole number of chips"),  # type: ignore[arg-type]
        (lambda: HoldemConfig(True, 2), "small_blind must be a whole number of chips, got bool"),  # type: ignore[arg-type]
        (lambda: HoldemConfig(1, "2"), "big_blind must be a whole number"),  # type: ignore[arg-type]
        (lambda: DrawConfig(1, 2.0), "small_bet must be a whole number"),  # type: ignore[arg-type]
        (lambda: DrawConfig(1, 2, raise_cap=True), "raise_cap must be a whole number"),  # type: ignore[arg-type]
        (
            lambda: HoldemHand.start(HoldemConfig(1, 2), [0, 1], [100, True], 0, DECK),
            "positive whole number of chips, got True",
        ),
        (
            lambda: HoldemHand.start(HoldemConfig(1, 2), [0, 1], [100, 99.5], 0, DECK),
            "positive whole number of chips, got 99.5",
        ),
        (
            lambda: HoldemHand.start(HoldemConfig(1, 2), [0, True], [100, 100], 0, DECK),
            "seats and the button are whole numbers",
        ),
        (
            lambda: HoldemHand.start(HoldemConfig(1, 2), [0, 1], [100, 100], 0, [True, *DECK[1:]]),
            "each of the 52 cards",
        ),
    ],
)
def test_R_HE_07_stakes_stacks_and_seats_are_whole_numbers(make: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make()
