"""The room's ledger of a home game over HTTP: ``GET /api/rooms/{id}/ledger`` (JSON,
with the settle-up) and ``GET /api/rooms/{id}/ledger.csv`` (one row a player, then the
totals), for the room's members only: its host and everyone who sat at it. A closed room's
ledger is its final one, kept while the room is kept."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from ahiko.rooms.house.room_ledger import ledger_csv
from ahiko.server.errors import ApiError, error_responses
from ahiko.server.services import Player, http_player, room_registry

router = APIRouter(prefix="/api/rooms", tags=["rooms"])

_ERRORS = error_responses(
    401,
    404,
    notes={
        404: (
            "No room with that id on this server (`no_room`), or the ledger of a room one "
            "never sat at nor hosts (`not_a_member`)."
        ),
    },
)


def _report(room_id: str, request: Request, player: Player | None) -> dict[str, Any]:
    if player is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    actor = room_registry(request.app).get(room_id)
    if actor is None:
        raise ApiError(404, "no_room", "there is no such room")
    report = actor.ledger_for(player.player_id)
    if report is None:
        raise ApiError(404, "not_a_member", "only the room's host and players read its ledger")
    return report


@router.get("/{room_id}/ledger", responses=_ERRORS)
async def room_ledger(
    room_id: str, request: Request, player: Annotated[Player | None, Depends(http_player)]
) -> dict[str, Any]:
    """Every player's buy-ins, rebuys, chips added and removed by the host, chips taken away,
    current (or final) stack and net; the settle-up (who pays whom, fewest transfers); the
    journal of those moves, by hand."""
    return _report(room_id, request, player)


@router.get("/{room_id}/ledger.csv", responses=_ERRORS)
async def room_ledger_csv(
    room_id: str, request: Request, player: Annotated[Player | None, Depends(http_player)]
) -> Response:
    report = _report(room_id, request, player)
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", report["name"]).strip("-") or "room"
    return Response(
        ledger_csv(report),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="ledger-{name}.csv"'},
    )
