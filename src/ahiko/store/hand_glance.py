"""What a player's line in "Minhas mãos" shows of a hand at a glance: their own cards as they
ended the hand (in draw, after their own draw) and the board, as the archive stores cards
(numbers; the API writes them as text). Only the player's own private cards are read; an
opponent's never leave the archive this way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class HandGlance:
    cards: tuple[int, ...]
    board: tuple[int, ...]


def glance(events: Iterable[Mapping[str, Any]], seat: int) -> HandGlance:
    """``seat``'s final hole cards and the board, from the hand's stored event dicts."""
    cards: list[int] = []
    board: list[int] = []
    for event in events:
        kind = event.get("kind")
        if kind == "hole_dealt" and event.get("seat") == seat:
            cards = [int(c) for c in event.get("cards") or ()]
        elif kind == "discarded" and event.get("seat") == seat:
            thrown = {int(c) for c in event.get("cards") or ()}
            cards = [c for c in cards if c not in thrown]
            cards += [int(c) for c in event.get("new_cards") or ()]
        elif kind == "street":
            board += [int(c) for c in event.get("cards") or ()]
    return HandGlance(tuple(cards), tuple(board))
