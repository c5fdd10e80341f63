"""HTTP routes for rooms: the lobby listing and room creation.

Authentication is ``ahiko.server.services.http_player`` (the one reader of the session
cookie; tests override that dependency). The rooms are reached only through the registry
and the rooms' actors.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from ahiko.rooms.blinds import BlindIncrease, BlindSchedule, Stakes
from ahiko.rooms.config import RoomConfig, RoomConfigError, RoomKind, Variant
from ahiko.rooms.timing import LIVE_TIMING
from ahiko.server.errors import ApiError, error_responses
from ahiko.server.services import Player, http_player, room_registry

# Bounds that keep every amount and count far inside the 64-bit columns they end up in.
MAX_CHIPS = 10_000_000
MAX_HANDS = 100_000
MAX_MINUTES = 7 * 24 * 60


class CreateRoom(BaseModel):
    """A recreational room or a tournament (R-RM-03, R-RM-04, R-RM-18, R-TN-02/03)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # 150, not "150" nor 150.0
    name: Annotated[str, Field(min_length=1, max_length=60)]
    kind: Literal["recreational", "tournament"] = "recreational"
    variant: Literal["holdem", "draw"] = "holdem"
    seats: Annotated[int, Field(ge=2, le=9)] = 8
    starting_chips: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    small_blind: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    big_blind: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    ante: Annotated[int, Field(ge=0, le=MAX_CHIPS)] = 0
    small_bet: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    blind_increase: Literal["never", "hands", "minutes"] | None = None
    blind_every: Annotated[int, Field(ge=1, le=MAX_HANDS)] | None = None
    action_deadline_s: Annotated[float, Field(gt=0, le=600)] | None = None
    public: bool = True
    limit_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] | None = None
    limit_minutes: Annotated[float, Field(gt=0, le=MAX_MINUTES)] | None = None

    def to_config(self) -> RoomConfig:
        tournament = self.kind == "tournament"
        if self.variant == "holdem":
            default = (
                BlindSchedule.tournament_default()
                if tournament
                else BlindSchedule(Stakes(small_blind=5, big_blind=10))
            )
            small = self.small_blind or default.base.small_blind
            stakes = Stakes(
                small_blind=small,
                big_blind=self.big_blind or min(2 * small, MAX_CHIPS),
                ante=self.ante,
            )
        else:
            default = BlindSchedule(
                Stakes(ante=self.ante or 1, small_bet=10),
                BlindIncrease.HANDS if tournament else BlindIncrease.NEVER,
                10 if tournament else 0,
            )
            stakes = Stakes(ante=self.ante or 1, small_bet=self.small_bet or 10)
        increase = BlindIncrease(self.blind_increase) if self.blind_increase else default.increase
        every = self.blind_every or default.every
        return RoomConfig(
            name=self.name,
            kind=RoomKind(self.kind),
            variant=Variant(self.variant),
            seats=self.seats,
            starting_chips=self.starting_chips or 1000,
            schedule=BlindSchedule(stakes, increase, every if increase.value != "never" else 0),
            action_deadline_s=self.action_deadline_s,
            public=self.public,
            limit_hands=self.limit_hands,
            limit_minutes=self.limit_minutes,
            timing=LIVE_TIMING,  # bots pause like people before they answer
        )


router = APIRouter(prefix="/api/rooms", tags=["rooms"])


@router.get("")
def list_rooms(request: Request) -> list[dict[str, Any]]:
    """Public open rooms: id, kind, variant, tier, blinds, seats total/taken, status."""
    return room_registry(request.app).lobby()


@router.post(
    "",
    status_code=201,
    responses=error_responses(
        401,
        422,
        notes={
            422: (
                "Invalid request: a malformed body or a number out of bounds "
                "(`invalid_request`), a name other people may not be shown (`invalid_text`), "
                "or settings that make no room (`invalid_room`)."
            ),
        },
    ),
)
async def create_room(
    body: CreateRoom, request: Request, player: Annotated[Player | None, Depends(http_player)]
) -> dict[str, Any]:
    if player is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    try:
        config = body.to_config()
    except (RoomConfigError, ValueError) as exc:
        raise ApiError(422, "invalid_room", str(exc)) from None
    actor = room_registry(request.app).create(config, host_id=player.player_id)
    return {**actor.summary(), "ws": f"/ws/rooms/{actor.room_id}"}


@router.get(
    "/{room_id}",
    responses=error_responses(404, notes={404: "No room with that id (`no_room`)."}),
)
def get_room(room_id: str, request: Request) -> dict[str, Any]:
    """One room by id (private rooms too: the id is the link)."""
    actor = room_registry(request.app).get(room_id)
    if actor is None:
        raise ApiError(404, "no_room", "there is no such room")
    return actor.summary()
