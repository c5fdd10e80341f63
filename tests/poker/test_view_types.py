"""The view's named types describe the view as it is built (R-AI-01: what a bot decides on).

Every viewer's view at every step of random hands of each variant, house options included
(straddle, run it twice, a double board, bomb pots, seven-deuce), validates against
``HandView`` in pydantic's strict mode, and holds exactly the keys its ``TypedDict``s name: a
key the engine adds or drops without its type saying so fails here, as a key a bot reads
that the type lacks fails mypy."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from random import Random
from typing import Any

import pytest
from pydantic import TypeAdapter

from ahiko.poker.actions import LegalActions
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.hand import AnyHand
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view, views
from ahiko.poker.view_types import (
    HandResultDict,
    HandView,
    LastAction,
    LegalView,
    PotResultDict,
    PotView,
    SeatView,
    ViewEvent,
)

HAND_VIEW = TypeAdapter(HandView)


def _keys(kind: Any) -> tuple[frozenset[str], frozenset[str]]:
    """(required, every) key of a ``TypedDict``."""
    return frozenset(kind.__required_keys__), frozenset(kind.__annotations__)


def _assert_keys(found: dict[str, Any], kind: Any) -> None:
    required, every = _keys(kind)
    assert required <= set(found) <= every, (kind.__name__, sorted(set(found) ^ every))


def _assert_named(seen: HandView) -> None:
    HAND_VIEW.validate_python(seen, strict=True)
    _assert_keys(dict(seen), HandView)
    for seat in seen["seats"]:
        _assert_keys(dict(seat), SeatView)
        if seat["last_action"] is not None:
            _assert_keys(dict(seat["last_action"]), LastAction)
    for pot in seen["pots"]:
        _assert_keys(dict(pot), PotView)
    if seen["legal"] is not None:
        _assert_keys(dict(seen["legal"]), LegalView)
    if seen["result"] is not None:
        _assert_keys(dict(seen["result"]), HandResultDict)
        for pot in seen["result"]["pots"]:
            _assert_keys(dict(pot), PotResultDict)
    for entry in seen.get("history", []):
        _assert_keys(dict(entry), ViewEvent)


def _deck(rng: Random) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def _hands(rng: Random) -> Iterator[AnyHand]:
    for _ in range(12):
        n = rng.randint(2, 6)
        seats = sorted(rng.sample(range(9), n))
        stacks = [rng.randint(30, 400) for _ in seats]
        button = rng.choice(seats)
        yield HoldemHand.start_hand(HoldemConfig(5, 10), seats, stacks, button, _deck(rng))
        yield OmahaHand.start_hand(HoldemConfig(5, 10), seats, stacks, button, _deck(rng))
        yield DrawHand.start(DrawConfig(1, 10), seats, stacks, button, _deck(rng))[0]
        boards = rng.choice((1, 2))  # a double board is never run twice
        bomb = rng.choice((0, 10))  # a bomb pot has no blinds to straddle
        house = HoldemConfig(
            5,
            10,
            straddle=20 if n > 2 and not bomb else 0,
            run_twice=int(boards == 1),
            boards=boards,
            bomb_pot=bomb,
            seven_deuce=rng.choice((0, 5)),
        )
        yield HoldemHand.start_hand(house, seats, stacks, button, _deck(rng))


def _every_step(hand: AnyHand, rng: Random) -> Iterator[AnyHand]:
    yield hand
    while not hand.is_over:
        for seat in list(getattr(hand, "runs_pending", ())):
            hand.choose_runs(seat, rng.choice((1, 2)))  # type: ignore[union-attr]
            yield hand
        seat = hand.to_act
        if seat is not None:
            legal = hand.legal_actions()
            hand.act(seat, random_action(legal, hand.hole_cards(seat), rng))
            yield hand


@pytest.mark.parametrize("seed", [3, 44])
def test_R_AI_01_every_view_of_every_variant_is_a_HandView(seed: int) -> None:
    rng = Random(seed)
    checked = 0
    keys: set[str] = set()  # the house options' keys must have been met, not only allowed
    for hand in _hands(rng):
        for state in _every_step(hand, rng):
            for viewer in (None, *state.order):
                seen = view(state, viewer)
                _assert_named(seen)
                keys |= set(seen)
            for shared in views(state, [None, *state.order]).values():
                _assert_named(shared)
            checked += 1
    assert checked > 200
    assert {"second_board", "runs_pending", "history"} <= keys


def test_R_AI_01_the_legal_view_is_LegalActions_field_for_field() -> None:
    _, every = _keys(LegalView)
    assert every == {f.name for f in fields(LegalActions)}
