"""Routes of the multi-table tournaments (``ahiko.competition.live_mtt_lobby``):

- ``GET /api/mtt``: the MTTs registering or running (soonest first), then the last ended:
  start time, buy-in, registered count, prizes, status; for the requester
  ``registered_me`` and, once it runs, ``room_id`` (the table they sit at now).
- ``GET /api/mtt/{mtt_id}``: one MTT's page: its entry as listed, the entrants' names, each
  table with its players (and their chips after their table's last hand), and the places
  with their prizes as players go out, then the final ones.
- ``POST /api/mtt`` ``{name, buy_in, starts_in_minutes, level_hands, variant}``: a signed-in
  player opens an MTT and is its host; ``variant`` is ``holdem`` (the default) or ``plo``;
  ``level_hands`` (1-100, optional) sets blind levels by hands
  (the blinds double every that many hands at each table) instead of by time.
- ``POST /api/mtt/{mtt_id}/register`` ``{key}``: the buy-in from the wallet into the pool,
  until the start, or late during the first blind levels (seated at once at the table
  with the fewest players); the same ``key`` again answers the first registration
  (``applied`` false). Answered once the buy-in's write came back (off the event loop).
- ``POST /api/mtt/{mtt_id}/unregister``: until the start; the buy-in goes back.
- ``POST /api/mtt/{mtt_id}/start``: the host starts it before its time (two registered).
- ``POST /api/mtt/{mtt_id}/cancel``: the host cancels it before the start: every registered
  player's buy-in back to their wallet, no registration after. A started MTT is not cancelled
  (409 ``already_started``: it plays on to the payout), nor the site's scheduled ones (403).

The service is opened by ``create_app``'s lifespan (``app.state.mtt``); on a cluster it runs on
the leader, and another node forwards these routes to it (``competition_calls``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from ahiko.competition.live_mtt_lobby import MttService
from ahiko.competition.mtt_lobby import MAX_BUY_IN, MAX_LEVEL_HANDS
from ahiko.poker.games import HOLDEM
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

router = APIRouter(prefix="/api/mtt", tags=["mtt"])
MaybePlayer = Annotated[Player | None, Depends(http_player)]
REFUSED = error_responses(
    401,
    403,
    404,
    409,
    503,
    notes={
        403: (
            "Only the tournament's host may start or cancel it (`not_host`); the site's "
            "scheduled tournaments are not cancelled."
        ),
        404: "No such tournament (`no_mtt`).",
        409: (
            "Refused, nothing changed: `already_registered`, `not_registered`, "
            "`registration_closed` (started and past late registration, or over), "
            "`already_started` (unregistering: leaving a started MTT is a bust, at the "
            "table; cancelling: a started MTT plays on), `insufficient_funds`, `not_ready` "
            "(starting with fewer than two), `cancelled` (registering in, leaving or starting "
            "a cancelled MTT), `already_cancelled` (cancelling it again: every buy-in is back)."
        ),
        503: (
            "The write did not land, nothing changed and no coin moved: `storage_busy` "
            "(send the same request again) or `storage_error`. A cancel is made and some "
            "refund did not land: the same request again refunds the rest."
        ),
    },
)


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, Field(min_length=1, max_length=40)]
    buy_in: Annotated[int, Field(ge=0, le=MAX_BUY_IN)] = 0
    starts_in_minutes: Annotated[int, Field(ge=1, le=24 * 60)] = 10
    level_hands: Annotated[int, Field(ge=1, le=MAX_LEVEL_HANDS)] | None = None
    variant: str = HOLDEM.name  # hold'em or Pot-Limit Omaha (the lobby refuses others)


def mtt_service(app: Any) -> MttService:
    return open_service(app, "mtt", MttService, "the tournaments are not open")


@router.get("", responses=error_responses(503))
async def mtt_lobby(request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "mtt.listing", player)


@operation("mtt.listing")
async def _listing(app: Any, player: Player | None) -> dict[str, Any]:
    return mtt_service(app).listing(maybe_user(player))


@router.get("/{mtt_id}", responses=error_responses(404, 503))
async def mtt_page(mtt_id: str, request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "mtt.detail", player, mtt_id=mtt_id)


@operation("mtt.detail")
async def _detail(app: Any, player: Player | None, mtt_id: str) -> dict[str, Any]:
    with answering_refusals():
        return mtt_service(app).detail(mtt_id, maybe_user(player))


@router.post("", status_code=201, responses=REFUSED)
async def create(body: CreateBody, request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "mtt.create", player, **body.model_dump())


@operation("mtt.create")
async def _create(
    app: Any,
    player: Player | None,
    name: str,
    buy_in: int,
    starts_in_minutes: int,
    level_hands: int | None = None,
    variant: str = HOLDEM.name,
) -> dict[str, Any]:
    user = signed_in_user(player)
    service = mtt_service(app)
    with answering_refusals():
        mtt = service.create(user, name, buy_in, starts_in_minutes, level_hands, variant)
    return {"mtt": service.entry(mtt, user)}


@router.post("/{mtt_id}/register", status_code=201, responses=REFUSED)
async def register(
    mtt_id: str, body: RegisterBody, request: Request, player: MaybePlayer
) -> dict[str, Any]:
    return await answer(request, "mtt.register", player, mtt_id=mtt_id, key=body.key)


@operation("mtt.register")
async def _register(app: Any, player: Player | None, mtt_id: str, key: str) -> dict[str, Any]:
    user = signed_in_user(player)
    assert player is not None
    service = mtt_service(app)
    with answering_refusals():
        found = await service.register(mtt_id, user, player.name, key)
    return {"mtt": service.entry(found.mtt, user), "applied": found.applied}


@router.post("/{mtt_id}/unregister", responses=REFUSED)
async def unregister(mtt_id: str, request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "mtt.unregister", player, mtt_id=mtt_id)


@operation("mtt.unregister")
async def _unregister(app: Any, player: Player | None, mtt_id: str) -> dict[str, Any]:
    user = signed_in_user(player)
    service = mtt_service(app)
    with answering_refusals():
        mtt = await service.withdraw(mtt_id, user)
    return {"mtt": service.entry(mtt, user)}


@router.post("/{mtt_id}/start", responses=REFUSED)
async def start(mtt_id: str, request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "mtt.start", player, mtt_id=mtt_id)


@operation("mtt.start")
async def _start(app: Any, player: Player | None, mtt_id: str) -> dict[str, Any]:
    user = signed_in_user(player)
    service = mtt_service(app)
    with answering_refusals():
        mtt = await service.start_now(mtt_id, user)
    return {"mtt": service.entry(mtt, user)}


@router.post("/{mtt_id}/cancel", responses=REFUSED)
async def cancel(mtt_id: str, request: Request, player: MaybePlayer) -> dict[str, Any]:
    return await answer(request, "mtt.cancel", player, mtt_id=mtt_id)


@operation("mtt.cancel")
async def _cancel(app: Any, player: Player | None, mtt_id: str) -> dict[str, Any]:
    user = signed_in_user(player)
    service = mtt_service(app)
    with answering_refusals():
        done = await service.cancel(mtt_id, user)
    return {
        "mtt": service.entry(done.mtt, user),
        "applied": done.applied,
        "refunded": len(done.refunded),
    }


@operation("mtt.moved_from")
async def _moved_from(app: Any, player: Player | None, room_id: str) -> dict[str, Any]:
    """Not a route: the table socket's gateway asks it for a room that is gone (a broken
    table's), on any node of a cluster (answered by the leader, where the MTTs run)."""
    service: MttService | None = getattr(app.state, "mtt", None)
    if player is None or service is None:
        return {"moved": None}
    return {"moved": service.moved_from(room_id, player.player_id)}
