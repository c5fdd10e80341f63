"""HTTP routes for rooms: the lobby listing and room creation.

Authentication is ``ahiko.server.services.http_player`` (the one reader of the session
cookie; tests override that dependency). The rooms are reached only through the registry
and the rooms' actors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ahiko.poker.config import DRAW_DEFAULT_RAISE_CAP
from ahiko.poker.games import GAMES, HOLDEM, ForcedBet, Game
from ahiko.rooms.blinds import BlindIncrease, BlindSchedule, Stakes
from ahiko.rooms.config import (
    DEFAULT_SEATS,
    DRAW_DEFAULT_HANDS,
    RoomConfig,
    RoomConfigError,
    RoomKind,
    RoomNameError,
    Variant,
)
from ahiko.rooms.hand_options import HandOptionError, HandOptions, hand_options_from
from ahiko.rooms.timebank import TIME_BANK_MAX_S, TimeBankPolicy
from ahiko.rooms.timing import LIVE_TIMING
from ahiko.server.accounts import token_hash
from ahiko.server.errors import ApiError, error_responses
from ahiko.server.limits import site_limits
from ahiko.server.paging import PageNumber
from ahiko.server.services import SESSION_COOKIE, Player, http_player, room_registry

# Bounds that keep every amount and count far inside the 64-bit columns they end up in.
MAX_CHIPS = 10_000_000
MAX_HANDS = 100_000
MAX_MINUTES = 7 * 24 * 60
MAX_RAISE_CAP = 100


class CreateRoom(BaseModel):
    """A recreational room or a tournament (R-RM-03, R-RM-04, R-RM-18, R-TN-02/03/06).

    Five-card draw is configured by its host (R-DR-04 D, R-DR-09 D): ``small_bet``,
    ``big_bet`` (default twice the small bet), ``raise_cap`` (bets and raises per round,
    default a bet and 3 raises) and ``limit_hands`` (default 100, or ``"no_limit"``).
    ``variant`` is a game's name (``ahiko.poker.games``: ``holdem``, ``draw``, ``plo``);
    Pot-Limit Omaha takes blinds as hold'em does. ``seats`` defaults to the variant's table
    (8, or the game's most if fewer: 6 for draw). A tournament's
    ``action_deadline_s`` defaults to 20 s and cannot be removed (R-TN-06 D)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # 150, not "150" nor 150.0
    name: Annotated[str, Field(min_length=1)]  # the room refuses what may not be shown
    kind: Literal["recreational", "tournament"] = "recreational"
    variant: str = HOLDEM.name
    seats: Annotated[int, Field(ge=2, le=9)] | None = None
    starting_chips: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    small_blind: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    big_blind: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    ante: Annotated[int, Field(ge=0, le=MAX_CHIPS)] = 0
    small_bet: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    big_bet: Annotated[int, Field(ge=1, le=MAX_CHIPS)] | None = None
    raise_cap: Annotated[int, Field(ge=1, le=MAX_RAISE_CAP)] | None = None
    blind_increase: Literal["never", "hands", "minutes"] | None = None
    blind_every: Annotated[int, Field(ge=1, le=MAX_HANDS)] | None = None
    action_deadline_s: Annotated[float, Field(gt=0, le=600)] | None = None
    public: bool = True
    limit_hands: Annotated[int, Field(ge=1, le=MAX_HANDS)] | Literal["no_limit"] | None = None
    limit_minutes: Annotated[float, Field(gt=0, le=MAX_MINUTES)] | None = None
    # The time bank, recreational rooms only: seconds at the start, the refill
    # every ``time_bank_every`` hands, the cap. Tournaments use the fixed defaults.
    time_bank_s: Annotated[float, Field(ge=0, le=TIME_BANK_MAX_S)] | None = None
    time_bank_refill_s: Annotated[float, Field(ge=0, le=TIME_BANK_MAX_S)] | None = None
    time_bank_every: Annotated[int, Field(ge=1, le=1000)] | None = None
    time_bank_cap_s: Annotated[float, Field(ge=0, le=TIME_BANK_MAX_S)] | None = None
    # A home game: seat requests wait for the host; the most rebuys a player takes.
    approve_players: bool = False
    max_rebuys: Annotated[int, Field(ge=0, le=1000)] | None = None
    # The hand options (``ahiko.rooms.hand_options``): straddle, run_twice, bomb_pot_ante,
    # bomb_pot_every, bomb_pot_double_board, seven_deuce; missing ones are off.
    options: dict[str, Any] | None = None

    @field_validator("variant")
    @classmethod
    def _a_game(cls, name: str) -> str:
        if name not in GAMES:
            raise ValueError(f"unknown game {name!r}: one of {', '.join(GAMES)}")
        return name

    @property
    def game(self) -> Game:
        return Variant(self.variant).game

    def time_bank(self) -> TimeBankPolicy:
        fields = (
            self.time_bank_s,
            self.time_bank_refill_s,
            self.time_bank_every,
            self.time_bank_cap_s,
        )
        if all(f is None for f in fields):
            return TimeBankPolicy()
        if self.kind == "tournament":
            raise ValueError(
                "tournaments use the fixed time bank (30 s, +5 s every 10 hands, 60 s at most)"
            )
        default = TimeBankPolicy()
        initial = default.initial_s if self.time_bank_s is None else self.time_bank_s
        cap = max(initial, default.cap_s) if self.time_bank_cap_s is None else self.time_bank_cap_s
        refill = self.time_bank_refill_s
        return TimeBankPolicy(
            initial_s=initial,
            refill_s=min(default.refill_s, cap) if refill is None else refill,
            refill_every_hands=self.time_bank_every or default.refill_every_hands,
            cap_s=cap,
        )

    def to_config(self) -> RoomConfig:
        tournament = self.kind == "tournament"
        played = self.game
        if ForcedBet.BLINDS in played.forced_bets:
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
            small = self.small_bet or 10
            stakes = Stakes(
                ante=self.ante or 1,
                small_bet=small,
                big_bet=self.big_bet or min(2 * small, MAX_CHIPS),  # R-DR-03
                raise_cap=self.raise_cap or DRAW_DEFAULT_RAISE_CAP,  # R-DR-04
            )
        increase = BlindIncrease(self.blind_increase) if self.blind_increase else default.increase
        every = self.blind_every or default.every
        return RoomConfig(
            name=self.name,
            kind=RoomKind(self.kind),
            variant=Variant(self.variant),
            seats=self.seats or min(DEFAULT_SEATS, played.max_players),
            starting_chips=self.starting_chips or 1000,
            schedule=BlindSchedule(stakes, increase, every if increase.value != "never" else 0),
            action_deadline_s=self.action_deadline_s,
            public=self.public,
            limit_hands=self._hands(),
            limit_minutes=self.limit_minutes,
            timing=LIVE_TIMING,  # bots pause like people before they answer
            time_bank=self.time_bank(),
            approve_players=self.approve_players,
            max_rebuys=self.max_rebuys,
            hand_options=HandOptions()
            if self.options is None
            else hand_options_from(self.options, played),
        )

    def _hands(self) -> int | None:
        """The hand limit: as given, none for ``"no_limit"``; unset, 100 for draw
        (R-DR-09 D) and none for the board games."""
        if self.limit_hands == "no_limit":
            return None
        if self.limit_hands is None:
            return DRAW_DEFAULT_HANDS if self.game.has_draw else None
        return self.limit_hands


def _language(request: Request) -> str:
    return request.headers.get("accept-language", "en")


router = APIRouter(prefix="/api/rooms", tags=["rooms"])


LOBBY_PER_PAGE = 50
LOBBY_MAX_PER_PAGE = 100


@router.get("")
async def list_rooms(
    request: Request,
    response: Response,
    page: PageNumber = 1,
    per_page: Annotated[int, Query(ge=1, le=LOBBY_MAX_PER_PAGE)] = LOBBY_PER_PAGE,
) -> list[dict[str, Any]]:
    """Public open rooms: id, kind, variant, tier, blinds, seats total/taken, status; a page
    of at most ``per_page`` (the ``X-Total-Count`` and ``X-Pages`` headers tell the rest).
    On a node of a cluster: every node's rooms (``ahiko.server.cluster.node``)."""
    cluster = getattr(request.app.state, "cluster", None)
    registry = room_registry(request.app)
    # room summaries (``ahiko.rooms.frame_types.RoomSummary``); a cluster's come as JSON
    rooms: list[Any] = await (registry.lobby_listing() if cluster is None else cluster.lobby())
    response.headers["X-Total-Count"] = str(len(rooms))
    response.headers["X-Pages"] = str(max(1, -(-len(rooms) // per_page)))
    start = (page - 1) * per_page
    return rooms[start : start + per_page]


@router.post(
    "",
    status_code=201,
    responses=error_responses(
        401,
        422,
        429,
        notes={
            429: (
                "Too many rooms: this account has the most open rooms it may have, or "
                "created the most it may in the window (`too_many_rooms`)."
            ),
            422: (
                "Invalid request: a malformed body or a number out of bounds "
                "(`invalid_request`), a name other people may not be shown (`invalid_text`), "
                "settings that make no room (`invalid_room`), or a hand option out of range "
                "(`invalid_option`, in the Accept-Language's pt-BR or English)."
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
    except RoomNameError as exc:
        raise ApiError(422, "invalid_text", str(exc)) from None
    except HandOptionError as exc:  # the field named, in the player's language
        raise ApiError(422, "invalid_option", exc.message(_language(request))) from None
    except (RoomConfigError, ValueError) as exc:
        raise ApiError(422, "invalid_room", str(exc)) from None
    registry = room_registry(request.app)
    limits = site_limits(request.app)
    token = request.cookies.get(SESSION_COOKIE)
    limits.admit_room(registry, player.player_id, None if token is None else token_hash(token))
    actor = registry.create(config, host_id=player.player_id)
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None:  # this node owns the room it opens: its lease, before any write
        await cluster.claim(actor.room_id)
    limits.room_created(actor.room_id, player.player_id)
    return {**actor.summary(), "ws": f"/ws/rooms/{actor.room_id}"}


@router.get(
    "/{room_id}",
    responses=error_responses(404, notes={404: "No room with that id (`no_room`)."}),
)
async def get_room(room_id: str, request: Request) -> dict[str, Any]:
    """One room by id (private rooms too: the id is the link). On a node of a cluster, a room
    another node owns is described by its owner."""
    cluster = getattr(request.app.state, "cluster", None)
    summary: Mapping[str, Any] | None
    if cluster is not None:
        summary = await cluster.describe(room_id)
    else:
        actor = room_registry(request.app).get(room_id)
        summary = None if actor is None else actor.summary()
    if summary is None:
        raise ApiError(404, "no_room", "there is no such room")
    return dict(summary)
