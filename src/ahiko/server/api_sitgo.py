"""Routes of the sit & go lobby (``ahiko.competition.live_sitgo``):

- ``GET /api/sitgo``: the open queues (one per kind), the sit & go's being played, and the
  requester's own registration (``mine``, null when none or not signed in).
- ``POST /api/sitgo/queues/{queue}/register`` ``{key}``: the buy-in from the wallet into the
  pool; the same ``key`` again answers the first registration (``applied`` false). When the
  registration fills the table, the answer already carries the tournament's ``room_id``.
  Answered once the buy-in's write came back (off the event loop): 503 ``storage_busy`` when
  it did not land, nothing changed, and the same ``key`` may be sent again.
- ``POST /api/sitgo/{sitgo_id}/unregister``: before the start; the buy-in goes back.

The service is opened by ``create_app``'s lifespan (``app.state.sitgo``); on a cluster it runs
on the leader, and another node forwards these routes to it (``competition_calls``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ahiko.competition.live_sitgo import SitGoRooms
from ahiko.server.competition_calls import answer, operation
from ahiko.server.errors import error_responses
from ahiko.server.services import Player, http_player
from ahiko.server.tournament_routes import (
    RegisterBody,
    answering_refusals,
    maybe_user,
    open_service,
    signed_in_user,
)

router = APIRouter(prefix="/api/sitgo", tags=["sitgo"])
MaybePlayer = Annotated[Player | None, Depends(http_player)]
REFUSED = error_responses(
    401,
    404,
    409,
    503,
    notes={
        404: "No such queue (`no_queue`) or sit & go (`no_sitgo`).",
        409: (
            "Refused, nothing changed: `already_registered` (one sit & go at a time), "
            "`insufficient_funds`, `not_registered`, `already_started` (leaving a started "
            "sit & go is a bust, at the table)."
        ),
        503: (
            "The write did not land, nothing changed and no coin moved: `storage_busy` (the "
            "database is busy; send the same request again) or `storage_error`."
        ),
    },
)


def sitgo_service(app: Any) -> SitGoRooms:
    return open_service(app, "sitgo", SitGoRooms, "the sit & go's are not open")


@router.get("", responses=error_responses(503))
async def sitgo_lobby(request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "sitgo.listing", player)


@operation("sitgo.listing")
async def _listing(app: Any, player: Player | None) -> dict[str, Any]:
    return sitgo_service(app).listing(maybe_user(player))


@router.post("/queues/{queue}/register", status_code=201, responses=REFUSED)
async def register(
    queue: str, body: RegisterBody, request: Request, player: MaybePlayer
) -> dict[str, Any]:
    return await answer(request, "sitgo.register", player, queue=queue, key=body.key)


@operation("sitgo.register")
async def _register(app: Any, player: Player | None, queue: str, key: str) -> dict[str, Any]:
    user = signed_in_user(player)
    assert player is not None
    service = sitgo_service(app)
    with answering_refusals():
        found = await service.register(queue, user, player.name, key)
    return {"sitgo": service.entry(found.sitgo), "applied": found.applied}


@router.post("/{sitgo_id}/unregister", responses=REFUSED)
async def unregister(sitgo_id: str, request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "sitgo.unregister", player, sitgo_id=sitgo_id)


@operation("sitgo.unregister")
async def _unregister(app: Any, player: Player | None, sitgo_id: str) -> dict[str, Any]:
    user = signed_in_user(player)
    service = sitgo_service(app)
    with answering_refusals():
        sng = await service.withdraw(sitgo_id, user)
    return {"sitgo": service.entry(sng)}
