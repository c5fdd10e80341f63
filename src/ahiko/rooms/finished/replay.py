"""An archived hand as one player saw it, as JSON for the browser's step-by-step replayer.

The events are the engine's ``view(hand, seat)["history"]`` (public events, with R-DR-07's
blindness of a folded draw player already applied) plus the viewer's own private cards: their
``hole_dealt`` cards and, in draw, their own thrown and new cards. An opponent's hole cards,
draw, folded or mucked hand never appear; shown hands do, through ``cards_shown``. Cards are
written as text ("Ah").
"""

from __future__ import annotations

from typing import Any

from ahiko.poker.cards import format_card
from ahiko.poker.events import Discarded, Event, HoleDealt, event_to_dict
from ahiko.poker.view import view
from ahiko.rooms.finished.downloads import rebuild_hand
from ahiko.store.hand_archive import ArchivedHand

_CARD_FIELDS = ("cards", "new_cards")


def replay_document(archived: ArchivedHand, seat: int) -> dict[str, Any]:
    """``{id, hand_no, room_id, room_name, room_kind, variant, seat_count, viewer, players,
    events, started_at, ended_at}`` for the player at ``seat``."""
    hand = rebuild_hand(archived)
    public_history: list[dict[str, Any]] = view(hand, seat)["history"]
    events = [
        _with_cards_as_text(_as_seen_by(seat, event, public))
        for event, public in zip(hand.events, public_history, strict=True)
    ]
    return {
        "id": archived.id,
        "hand_no": archived.hand_no,
        "room_id": archived.room_id,
        "room_name": archived.room_name,
        "room_kind": archived.room_kind,
        "variant": archived.variant,
        "seat_count": archived.max_seats,
        "viewer": seat,
        "players": [
            {"seat": p.seat, "name": p.name, "bot": p.occupant != "person"}
            for p in archived.players
        ],
        "events": events,
        "started_at": archived.started_at.isoformat(),
        "ended_at": archived.ended_at.isoformat(),
    }


def _as_seen_by(seat: int, event: Event, public: dict[str, Any]) -> dict[str, Any]:
    if isinstance(event, HoleDealt | Discarded) and event.seat == seat:
        return event_to_dict(event)
    return public


def _with_cards_as_text(event: dict[str, Any]) -> dict[str, Any]:
    out = dict(event)
    for name in _CARD_FIELDS:
        cards = out.get(name)
        if isinstance(cards, list):
            out[name] = [format_card(int(card)) for card in cards]
    return out
