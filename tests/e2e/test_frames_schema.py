"""Every frame the browser tests feed the client keeps the outbound schema
(``ahiko.server.protocol.SERVER_FRAME``): cards are text everywhere, history events
included, and an integer card is refused wherever a card can stand (issue 13)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError

from ahiko.server.protocol import SERVER_FRAME

from . import frames


@pytest.mark.parametrize("name", sorted(frames.FIXTURES))
def test_every_fixture_frame_keeps_the_outbound_schema(name: str) -> None:
    for frame in frames.FIXTURES[name]():
        SERVER_FRAME.validate_python(frame)


def _a_hand_frame() -> dict[str, Any]:
    hand = next(f for f in frames.holdem_showdown() if f["t"] == "hand" and f["openings"])
    assert hand["view"]["board"] and any(s.get("cards") for s in hand["view"]["seats"])
    return hand


def _street(frame: dict[str, Any]) -> dict[str, Any]:
    frame["events"] = [{"kind": "street", "name": "flop", "cards": ["Qh", "5c", "5d"]}]
    return frame["events"][0]


CARD_PLACES = {
    "a history event's cards": lambda f: _street(f)["cards"],
    "the board": lambda f: f["view"]["board"],
    "a seat's cards": lambda f: next(s for s in f["view"]["seats"] if s.get("cards"))["cards"],
}


@pytest.mark.parametrize("place", sorted(CARD_PLACES))
def test_a_frame_with_an_integer_card_is_refused(place: str) -> None:
    frame = copy.deepcopy(_a_hand_frame())
    cards = CARD_PLACES[place](frame)
    SERVER_FRAME.validate_python(frame)  # as text it is fine
    cards[0] = 50  # the engine's number for a card, leaked onto the wire
    with pytest.raises(ValidationError, match="valid string"):
        SERVER_FRAME.validate_python(frame)


def test_an_opening_with_an_integer_card_is_refused() -> None:
    frame = copy.deepcopy(_a_hand_frame())
    frame["openings"][0]["card"] = 50
    with pytest.raises(ValidationError, match="valid string"):
        SERVER_FRAME.validate_python(frame)
