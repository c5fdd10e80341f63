"""HTTP routes for the Ahiko rooms (``/api/ahiko``): tiers, the rooms of the lobby, buy-in,
reload, leaving, and the player's participations. The same commands also travel over the
table WebSocket (``docs/protocol.md``); both reach a room only through its actor.

The Ahiko lobby is opened by ``create_app``'s lifespan (``ahiko.server.app``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.config import RoomKind
from ahiko.rooms.house.reentry import reentry_for
from ahiko.rooms.house.tiers import TIERS, Tier, tier_of
from ahiko.server.cluster.house import is_house_room
from ahiko.server.errors import ApiError, error_responses
from ahiko.server.services import Player, ahiko_lobby, http_player, room_registry
from ahiko.wallet.stays import stays_of

REFUSAL_STATUS = {
    "not_seated": 404,
    "not_ahiko": 404,
    "closed": 409,
    "invalid_request": 400,
    # A coin write that could not land: nothing moved, try again.
    "storage_busy": 503,
    "storage_error": 503,
    "moved": 503,
}


router = APIRouter(prefix="/api/ahiko", tags=["ahiko"])
SignedIn = Annotated[Player | None, Depends(http_player)]
UNAVAILABLE = error_responses(503, notes={503: "The Ahiko rooms are not open (`unavailable`)."})
# A command to a room: REFUSAL_STATUS and _ask say which refusal is which status.
ROOM_COMMAND = error_responses(
    400,
    401,
    404,
    409,
    503,
    notes={
        503: (
            "The coin write could not land and no coin moved: the database is busy "
            "(`storage_busy`), failed (`storage_error`), or the table moved to another "
            "server (`moved`); try again."
        ),
        400: "An idempotency key with control characters (`invalid_request`).",
        404: "No Ahiko room with that id (`no_room`), or you have no seat there (`not_seated`).",
        409: (
            "The room refused the command and nothing changed: the code is the room's or the "
            "wallet's (`closed`, `seat`, `amount_out_of_range`, `reentry_minimum`, `in_hand`, "
            "`leaving`, `insufficient_funds`, `already_seated`, `idempotency_conflict` (the key "
            "was used for a different request), ...; "
            "docs/protocol.md)."
        ),
    },
)


class BuyInBody(BaseModel):
    """The amount the player saw and confirmed (R-RM-12); ``key`` makes a retry harmless."""

    model_config = ConfigDict(extra="forbid", strict=True)  # 150, not "150" nor 150.0
    seat: Annotated[int, Field(ge=0, le=8)]
    amount: Annotated[int, Field(ge=1)]
    key: Annotated[str, Field(min_length=1, max_length=64)]


class ReloadBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # 150, not "150" nor 150.0
    amount: Annotated[int, Field(ge=1)]
    key: Annotated[str, Field(min_length=1, max_length=64)]


class LeaveBody(BaseModel):
    """``after_hand``: "Sair após esta mão" (R-RM-14); otherwise stand up now (R-RM-17)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # 150, not "150" nor 150.0
    after_hand: bool = False


def _signed_in(player: Player | None) -> Player:
    if player is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    return player


async def _actor(request: Request, room_id: str) -> RoomActor:
    actor: Any = room_registry(request.app).get(room_id)
    cluster = getattr(request.app.state, "cluster", None)
    if actor is None and cluster is not None and is_house_room(room_id):
        actor = await cluster.find(room_id)  # owned by another node: through the relay
        if actor is not None:
            return cast(RoomActor, actor)
    if actor is None or actor.config.kind is not RoomKind.AHIKO:
        raise ApiError(404, "no_room", "there is no such Ahiko room")
    return cast(RoomActor, actor)


def _tier_of(actor: Any) -> Tier:
    """A room's tier: from its config here, from its id (``TIER-RUN-N``) when remote."""
    config = getattr(actor, "config", None)
    if config is not None:
        return tier_of(config.tier)
    return tier_of(str(actor.room_id).partition("-")[0])


async def _ask(actor: RoomActor, command: c.Command) -> dict[str, Any]:
    reply = await actor.ask(command)
    if not reply.ok:
        status = REFUSAL_STATUS.get(reply.code, 409)
        raise ApiError(status, reply.code, reply.message)  # the code says which; no rule id
    return reply.data


@router.get("/tiers")
def tiers() -> list[dict[str, object]]:
    return [tier.as_dict() for tier in TIERS]


@router.get("/rooms", responses=UNAVAILABLE)
async def ahiko_rooms(request: Request) -> list[dict[str, Any]]:
    house = getattr(request.app.state, "house", None)
    if house is not None:  # a node of a cluster: every node's house rooms
        return cast(list[dict[str, Any]], await house.entries())
    return ahiko_lobby(request.app).entries()


@router.get("/rooms/{room_id}/buy_in", responses=error_responses(401, 404))
async def buy_in_range(room_id: str, request: Request, player: SignedIn) -> dict[str, Any]:
    """What this player may bring to this table now: the tier's range, raised by fair
    re-entry when they left a table of this tier less than 30 minutes ago (``reentry``:
    ``left_with``, ``minimum``, ``until_ms``; null otherwise)."""
    who = _signed_in(player)
    tier = _tier_of(await _actor(request, room_id))
    lobby = ahiko_lobby(request.app)
    rule = (
        await asyncio.to_thread(
            reentry_for, lobby.engine, tier, int(who.player_id), lobby.wallet.now()
        )
        if who.player_id.isdigit()
        else None
    )
    return {
        "min": tier.buy_in_min if rule is None else rule.minimum,
        "max": tier.buy_in_max,
        "reentry": None if rule is None else rule.as_dict(),
    }


@router.post("/rooms/{room_id}/buy_in", responses=ROOM_COMMAND)
async def buy_in(
    room_id: str, body: BuyInBody, request: Request, player: SignedIn
) -> dict[str, Any]:
    who = _signed_in(player)
    command = c.BuyIn(who.player_id, who.name, body.seat, body.amount, body.key)
    return await _ask(await _actor(request, room_id), command)


@router.post("/rooms/{room_id}/reload", responses=ROOM_COMMAND)
async def reload(
    room_id: str, body: ReloadBody, request: Request, player: SignedIn
) -> dict[str, Any]:
    who = _signed_in(player)
    return await _ask(
        await _actor(request, room_id), c.Reload(who.player_id, body.amount, body.key)
    )


@router.post("/rooms/{room_id}/leave", responses=ROOM_COMMAND)
async def leave(
    room_id: str, body: LeaveBody, request: Request, player: SignedIn
) -> dict[str, Any]:
    who = _signed_in(player)
    actor = await _actor(request, room_id)
    if body.after_hand:
        return await _ask(actor, c.LeaveAfterHand(who.player_id))
    return await _ask(actor, c.Leave(who.player_id))


@router.get("/participations", responses=error_responses(401))
def participations(request: Request, player: SignedIn) -> list[dict[str, Any]]:
    """The player's stays at Ahiko tables, newest first (R-RM-15)."""
    who = _signed_in(player)
    engine = request.app.state.services.engine
    return [stay.as_dict() for stay in stays_of(engine, int(who.player_id))]
