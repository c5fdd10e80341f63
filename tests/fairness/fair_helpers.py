"""Shared by the fairness tests and the vector generator: fixed deals and tamperings."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.keys import public_key_bytes
from ahiko.fairness.proof import ClientObservation, proof_document
from ahiko.fairness.release import (
    DealState,
    Viewer,
    board_slots,
    draw_slots,
    hole_slots,
    release_openings,
)
from ahiko.poker.games import BY_LAYOUT
from ahiko.poker.layout import DRAW_LAYOUT, HOLDEM_LAYOUT

TEST_KEY_SEED = bytes(range(32))
TEST_KEY = Ed25519PrivateKey.from_private_bytes(TEST_KEY_SEED)
TEST_PUBLIC_KEY = public_key_bytes(TEST_KEY)
TABLE_ID = "t-42"
DEALT_SEATS = (4, 6, 1, 2)
BUTTON = 2
COMMITTED_AT = 1_700_000_000_000
DRAWS = ((4, 3), (6, 0), (1, 2), (2, 1))
OBSERVATION = ClientObservation(True, COMMITTED_AT + 100, COMMITTED_AT + 2100)

Doc = dict[str, Any]


def fixed_deck(hand_no: int) -> list[int]:
    """A permutation of the 52 cards that differs per hand (7 and 11 are prime to 52)."""
    step = 7 if hand_no % 2 else 11
    return [(p * step + hand_no) % 52 for p in range(52)]


def fixed_salts(hand_no: int) -> list[bytes]:
    return [hashlib.sha256(b"ahiko test salt %d %d" % (hand_no, p)).digest() for p in range(52)]


def fixed_deal(
    hand_no: int,
    layout: str = HOLDEM_LAYOUT,
    prev: bytes | None = None,
    deck: list[int] | None = None,
) -> DealCommitter:
    return DealCommitter(
        table_id=TABLE_ID,
        hand_no=hand_no,
        layout=layout,
        button_seat=BUTTON,
        dealt_seats=DEALT_SEATS,
        deck=deck if deck is not None else fixed_deck(hand_no),
        committed_at_ms=COMMITTED_AT + hand_no,
        prev=prev if prev is not None else bytes(32),
        signing_key=TEST_KEY,
        salts=fixed_salts(hand_no),
    )


def showdown_state(deal: DealCommitter) -> DealState:
    """Every card dealt and every hand shown (draw: each seat's DRAWS, first cards kept)."""
    state = DealState()
    for seat in deal.dealt_seats:
        state = state.with_dealt(hole_slots(deal, seat))
    played = BY_LAYOUT[deal.layout]
    if played.has_board:
        return _show_all(state.with_dealt(board_slots(deal, range(played.board_cards))))
    for seat, count in DRAWS:
        deal.record_draw(seat, count)
        state = state.with_dealt(draw_slots(deal, seat))
    return _show_all(state)


def _show_all(state: DealState) -> DealState:
    return state.with_shown(slot.position for slot in state.dealt if slot.seat is not None)


def document_for(deal: DealCommitter, state: DealState, seat: int | None) -> Doc:
    return proof_document(
        deal.commitment,
        release_openings(deal, Viewer(seat), state),
        observation=OBSERVATION,
        draws=deal.draws,
    )


def _first(doc: Doc, role: str, seat: int | None = None) -> dict[str, Any]:
    return next(
        c for c in doc["cards"] if c["role"] == role and (seat is None or c.get("seat") == seat)
    )


def _flip_hex(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


def _other_card(doc: Doc, card: dict[str, Any]) -> None:
    card["card"] = "2c" if card["card"] != "2c" else "3c"


def _swap_hands(doc: Doc) -> None:
    seats = doc["commitment"]["dealt_seats"]
    for card in doc["cards"]:
        if card.get("seat") in (seats[0], seats[1]):
            card["seat"] = seats[1] if card["seat"] == seats[0] else seats[0]


def _other_layout(doc: Doc) -> None:
    c = doc["commitment"]
    c["layout"] = DRAW_LAYOUT if c["layout"] == HOLDEM_LAYOUT else HOLDEM_LAYOUT


def tamperings(other_hand: Doc) -> dict[str, Callable[[Doc], None]]:
    """Each must turn a consistent file (verified with the test key) into an inconsistent one.
    ``other_hand`` is a file of another hand at the same table."""

    def owned(doc: Doc) -> dict[str, Any]:
        return next(c for c in doc["cards"] if c.get("seat") is not None)

    return {
        "card": lambda d: _other_card(d, owned(d)),
        "salt": lambda d: owned(d).update(salt=_flip_hex(owned(d)["salt"])),
        "position": lambda d: owned(d).update(position=owned(d)["position"] + 1),
        "seat": lambda d: owned(d).update(
            seat=next(s for s in d["commitment"]["dealt_seats"] if s != owned(d)["seat"])
        ),
        "path_truncated": lambda d: owned(d).update(path=owned(d)["path"][:-1]),
        "path_extended": lambda d: owned(d).update(path=[*owned(d)["path"], owned(d)["path"][0]]),
        "node_as_salt": lambda d: owned(d).update(salt=owned(d)["path"][1]),
        "digest": lambda d: d["commitment"].update(digest=_flip_hex(d["commitment"]["digest"])),
        "signature": lambda d: d["commitment"].update(sig=_flip_hex(d["commitment"]["sig"])),
        "layout": _other_layout,
        "swapped_hands": _swap_hands,
        "other_hand_openings": lambda d: d.update(
            commitment=copy.deepcopy(other_hand["commitment"])
        ),
    }


def tampered(doc: Doc, change: Callable[[Doc], None]) -> Doc:
    copy_ = copy.deepcopy(doc)
    change(copy_)
    return copy_


def dumps(doc: Doc) -> str:
    return json.dumps(doc, indent=1)
