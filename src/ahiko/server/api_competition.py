"""Routes of players' pages, leaderboards, shared hands and rabbit hunts.

- ``GET /api/players/{name}/profile``: a player's numbers (``ahiko.competition.profiles``).
- ``GET /api/players/by-id/{user_id}/line``: the small line shown at the table (hands,
  VPIP, PFR).
- ``GET /api/leaderboards?board=ahiko|tournament&period=week|month``: the board, with the
  requester's own row as ``me`` (null when they are not on it).
- ``POST /api/hands/{id}/share`` ``{show_own, rabbit}``: a public link to a hand of the
  requester's; ``GET /api/hands/{id}/rabbit``: the rabbit hunt of a hand they played.
- ``GET /api/shared/{token}`` (no sign-in): the shared hand for the public replayer, with its
  proof; ``GET /api/shared/{token}/download?format=pokerstars|phh|proof``: its files.

A hand the requester did not play answers like an unknown one (404 ``no_hand``); a link that
is malformed, forged or of a hand no longer there answers 404 ``no_shared_hand``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel

from ahiko.competition.leaderboard import Board, Period, leaderboard
from ahiko.competition.profiles import profile, table_line
from ahiko.competition.sharing import (
    NotShareable,
    ShareGrant,
    rabbit_document,
    read_token,
    require_rabbit,
    share_key,
    share_token,
    shared_document,
    shared_download,
)
from ahiko.fairness.keys import load_or_create_archive_key
from ahiko.rooms.finished.archive import ArchiveCorrupt
from ahiko.server.accounts import User
from ahiko.server.api_hands import MAX_ID, NO_HAND, attachment, find_my_hand
from ahiko.server.errors import ApiError, error_responses
from ahiko.server.figure_reads import figure_reads
from ahiko.server.services import current_user, services
from ahiko.store.accounts import find_user, find_user_by_name
from ahiko.store.archive_reads import user_at_seat
from ahiko.store.hand_archive import ArchivedHand, archived_hand_for

SignedIn = Annotated[User, Depends(current_user)]
NO_RABBIT = "Nothing to hunt: a draw hand, or the river was dealt (`no_rabbit`)."
NO_SHARED = "No shared hand behind that link (`no_shared_hand`)."
CORRUPT = "The archived hand fails its own check (`archive_corrupt`)."

players = APIRouter(prefix="/api/players", tags=["competition"], responses=error_responses(401))
boards = APIRouter(prefix="/api/leaderboards", tags=["competition"], responses=error_responses(401))
hands = APIRouter(prefix="/api/hands", tags=["hands"], responses=error_responses(401))
shared = APIRouter(prefix="/api/shared", tags=["shared"])
routers = (players, boards, hands, shared)


class ShareRequest(BaseModel):
    show_own: bool = False  # the sharer's own cards are shown
    rabbit: bool = False  # the rabbit hunt's cards are in the link


FIGURE_ERRORS = error_responses(
    404, 429, notes={404: "`no_player`", 429: "Too many player pages (`too_many_requests`)."}
)


@players.get("/{name}/profile", responses=FIGURE_ERRORS)
def player_profile(name: str, request: Request, user: SignedIn) -> dict[str, Any]:
    figure_reads(request.app).take(user.id)
    engine = services(request).engine
    found = find_user_by_name(engine, name) if len(name) <= 64 else None
    if found is None:
        raise ApiError(404, "no_player", f"no player named {name!r}")
    return profile(engine, found.id, found.username)


@players.get("/by-id/{user_id}/line", responses=FIGURE_ERRORS)
def player_line(user_id: int, request: Request, user: SignedIn) -> dict[str, Any]:
    figure_reads(request.app).take(user.id)
    engine = services(request).engine
    found = find_user(engine, user_id) if 1 <= user_id <= MAX_ID else None
    if found is None:
        raise ApiError(404, "no_player", f"no player {user_id}")
    return table_line(engine, found.id, found.username)


@boards.get("")
def leaderboards(
    request: Request,
    user: SignedIn,
    board: Annotated[Board, Query()] = "ahiko",
    period: Annotated[Period, Query()] = "week",
) -> dict[str, Any]:
    found = services(request)
    answer = leaderboard(found.engine, board, period, found.clock())
    rows: list[dict[str, Any]] = answer["rows"]  # type: ignore[assignment]
    answer["me"] = next((r for r in rows if r["user_id"] == user.id), None)
    return answer


def _key(request: Request) -> bytes:
    key: bytes | None = getattr(request.app.state, "share_key", None)
    if key is None:
        key = share_key(load_or_create_archive_key(services(request).settings.data_dir))
        request.app.state.share_key = key
    return key


@hands.post(
    "/{hand_id}/share",
    status_code=201,
    responses=error_responses(404, 409, 500, notes={404: NO_HAND, 409: NO_RABBIT, 500: CORRUPT}),
)
def share_hand(
    hand_id: int, body: ShareRequest, request: Request, user: SignedIn
) -> dict[str, Any]:
    archived, seat = find_my_hand(request, user, hand_id)
    grant = ShareGrant(hand_id, seat, body.show_own, body.rabbit)
    try:
        if body.rabbit:
            require_rabbit(archived)
    except NotShareable as exc:
        raise ApiError(409, "no_rabbit", str(exc)) from None
    except ArchiveCorrupt as exc:
        raise ApiError(500, "archive_corrupt", str(exc)) from None
    token = share_token(_key(request), grant)
    return {"token": token, "url": f"/#/shared/{token}", **body.model_dump()}


@hands.get(
    "/{hand_id}/rabbit",
    responses=error_responses(404, 409, 500, notes={404: NO_HAND, 409: NO_RABBIT, 500: CORRUPT}),
)
def rabbit_hunt(hand_id: int, request: Request, user: SignedIn) -> dict[str, Any]:
    archived, _seat = find_my_hand(request, user, hand_id)
    try:
        return rabbit_document(archived)
    except NotShareable as exc:
        raise ApiError(409, "no_rabbit", str(exc)) from None
    except ArchiveCorrupt as exc:
        raise ApiError(500, "archive_corrupt", str(exc)) from None


def _shared(request: Request, token: str) -> tuple[ArchivedHand, ShareGrant]:
    grant = read_token(_key(request), token) if len(token) <= 80 else None
    engine = services(request).engine
    archived = None
    if grant is not None and 1 <= grant.hand_id <= MAX_ID:
        sharer = user_at_seat(engine, grant.hand_id, grant.seat)
        archived = None if sharer is None else archived_hand_for(engine, grant.hand_id, sharer)
    if archived is None or grant is None:
        raise ApiError(404, "no_shared_hand", "no shared hand behind that link")
    return archived, grant


@shared.get("/{token}", responses=error_responses(404, 500, notes={404: NO_SHARED, 500: CORRUPT}))
def shared_hand(token: str, request: Request) -> dict[str, Any]:
    archived, grant = _shared(request, token)
    try:
        return shared_document(archived, grant)
    except ArchiveCorrupt as exc:
        raise ApiError(500, "archive_corrupt", str(exc)) from None


@shared.get(
    "/{token}/download", responses=error_responses(404, 500, notes={404: NO_SHARED, 500: CORRUPT})
)
def shared_file(
    token: str,
    request: Request,
    fmt: Annotated[Literal["pokerstars", "phh", "proof"], Query(alias="format")] = "pokerstars",
) -> Response:
    archived, grant = _shared(request, token)
    try:
        return attachment(shared_download(archived, grant, fmt))
    except ArchiveCorrupt as exc:
        raise ApiError(500, "archive_corrupt", str(exc)) from None
