"""Every frame the browser tests feed the client keeps the outbound schema
(``ahiko.server.protocol.SERVER_FRAME``): cards are text everywhere, history events
included, and an integer card is refused wherever a card can stand.

The fixture frames are written by hand and older than some fields every server frame has
now (the room's game, levels, chat and wait list; a seat's time bank; a hand frame's names):
``as_sent`` adds those, as a plain room sends them, so what is checked here is that nothing
the fixtures do say is wrong, while the fixture pages stay as they are."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError

from ahiko.rooms.config import Variant
from ahiko.server.protocol import SERVER_FRAME

from . import frames

_SEAT_SINCE = {"sitting_out": False, "awaits_big_blind": False, "time_bank": None}
_DEADLINE_SINCE = {"time_bank_running": None, "time_bank": None}
_HAND_SINCE = {"names": {}, "auto_action": None}


def _room_as_sent(room: dict[str, Any]) -> None:
    room.setdefault("game", Variant(room["variant"]).game.to_json())
    room.setdefault("levels", {"level": 1, "increase": "never", "every": 0})
    for key, value in {
        "avg_pot": None,
        "chat": "seated",
        "time_bank": {},
        "countdowns": {},
    }.items():
        room.setdefault(key, value)
    room.setdefault("wait_list", {"waiting": [], "offers": []})
    for seat in room.get("seats", []):
        for key, value in _SEAT_SINCE.items():
            seat.setdefault(key, value)


def _deadline_as_sent(deadline: dict[str, Any] | None) -> None:
    for key, value in _DEADLINE_SINCE.items():
        if deadline is not None:
            deadline.setdefault(key, value)


def as_sent(fixture: dict[str, Any]) -> dict[str, Any]:
    """A fixture frame with the fields it predates, as a plain room sends them."""
    frame = copy.deepcopy(fixture)
    if frame["t"] in ("snapshot", "room"):
        _room_as_sent(frame["room"])
    if frame["t"] == "snapshot":
        frame.setdefault("chat", {"mode": "seated", "muted": [], "messages": []})
        for state in (frame["hand"], frame["last_hand"]):
            if state is not None:
                state.setdefault("names", {})
                state.setdefault("cards_in_s", None)
                state.setdefault("deadline", None)
                _deadline_as_sent(state["deadline"])
    if frame["t"] == "hand":
        for key, value in _HAND_SINCE.items():
            frame.setdefault(key, value)
        _deadline_as_sent(frame["deadline"])
    return frame


@pytest.mark.parametrize("name", sorted(frames.FIXTURES))
def test_every_fixture_frame_keeps_the_outbound_schema(name: str) -> None:
    for frame in frames.FIXTURES[name]():
        SERVER_FRAME.validate_python(as_sent(frame))


def _a_hand_frame() -> dict[str, Any]:
    hand = next(f for f in frames.holdem_showdown() if f["t"] == "hand" and f["openings"])
    hand = as_sent(hand)
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


def test_a_card_that_is_no_card_is_refused() -> None:
    frame = copy.deepcopy(_a_hand_frame())
    frame["view"]["board"][0] = "Xx"
    with pytest.raises(ValidationError, match="is_card_text"):
        SERVER_FRAME.validate_python(frame)


def test_an_opening_with_an_integer_card_is_refused() -> None:
    frame = copy.deepcopy(_a_hand_frame())
    frame["openings"][0]["card"] = 50
    with pytest.raises(ValidationError, match="valid string"):
        SERVER_FRAME.validate_python(frame)
