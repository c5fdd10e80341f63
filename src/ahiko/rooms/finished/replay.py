"""An archived hand as one player saw it, as JSON for the browser's step-by-step replayer.

The events are the engine's ``seat_history(hand, seat)``, the one answer to what a seat saw
(public events, with R-DR-07's blindness of a folded draw player already applied, plus the
viewer's own private cards: their ``hole_dealt`` cards and, in draw, their own thrown and new
cards). An opponent's hole cards, draw, folded or mucked hand never appear; shown hands do,
through ``cards_shown``. Cards are written as text ("Ah").
"""

from __future__ import annotations

from typing import Any

from ahiko.poker.games import game
from ahiko.poker.view import seat_history
from ahiko.rooms.finished.downloads import rebuild_hand
from ahiko.store.hand_archive import ArchivedHand


def replay_document(archived: ArchivedHand, seat: int) -> dict[str, Any]:
    """``{id, hand_no, room_id, room_name, room_kind, variant, game, seat_count, viewer, players,
    events, started_at, ended_at}`` for the player at ``seat``."""
    return {
        **hand_header(archived, viewer=seat),
        "events": seat_history(rebuild_hand(archived), seat),
    }


def hand_header(archived: ArchivedHand, viewer: int | None) -> dict[str, Any]:
    """What a finished hand's documents (the replay, a shared hand) say about it besides its
    events: which hand, where, who sat, when; ``viewer`` is the seat whose cards it shows."""
    return {
        "id": archived.id,
        "hand_no": archived.hand_no,
        "room_id": archived.room_id,
        "room_name": archived.room_name,
        "room_kind": archived.room_kind,
        "variant": archived.variant,
        "game": game(archived.variant).to_json(),  # what the replayer asks of the game
        "seat_count": archived.max_seats,
        "viewer": viewer,
        "players": [
            {"seat": p.seat, "name": p.name, "bot": p.occupant != "person"}
            for p in archived.players
        ],
        "started_at": archived.started_at.isoformat(),
        "ended_at": archived.ended_at.isoformat(),
    }
