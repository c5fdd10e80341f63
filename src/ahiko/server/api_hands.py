"""Routes: "my hands" — a player's finished hands, their histories and proof files.

``GET /api/hands`` lists the hands the signed-in user was dealt into; ``GET
/api/hands/{id}?format=pokerstars|phh`` is one hand's history as that user saw it (a file),
``?format=json`` the same for the browser's replayer; ``GET /api/hands/{id}/proof`` its
pokerfair-proof/1 file. A hand the user did not play answers
exactly like an unknown one (404), so ids reveal nothing.

Every room keeps its finished hands in the archive (``ahiko.rooms.finished.archive``) that
``create_app``'s lifespan gives the registry (``ahiko.server.app.archiving_registry``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response

from ahiko.poker.cards import format_card
from ahiko.rooms.finished.archive import ArchiveCorrupt
from ahiko.rooms.finished.downloads import Download, history_download, proof_download
from ahiko.rooms.finished.replay import replay_document
from ahiko.server.accounts import User
from ahiko.server.errors import ApiError, error_responses
from ahiko.server.paging import PageNumber, page_json
from ahiko.server.services import current_user, services
from ahiko.store.chat import messages_of
from ahiko.store.hand_archive import (
    MAX_PER_PAGE,
    ArchivedHand,
    HandSummary,
    archived_hand_for,
    hands_of_user,
)

HandFormat = Literal["pokerstars", "phh", "json"]
MAX_ID = 2**63 - 1  # ids are 64-bit (ahiko.store.schema.BigId)

router = APIRouter(
    prefix="/api/hands",
    tags=["hands"],
    responses=error_responses(401),
)
NO_HAND = "No hand with that id among yours (`no_hand`): unknown and not yours look alike."
SignedIn = Annotated[User, Depends(current_user)]


@router.get("")
def my_hands(
    request: Request,
    user: SignedIn,
    page: PageNumber = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20,
) -> dict[str, Any]:
    found = hands_of_user(services(request).engine, user.id, page, per_page)
    return page_json(found, "hands", [_summary_json(hand) for hand in found.items])


CORRUPT = (
    "The archived hand fails its own check, or is stored in a format this server does not "
    "read, and nothing can be made of it (`archive_corrupt`)."
)


@router.get("/{hand_id}", responses=error_responses(404, 500, notes={404: NO_HAND, 500: CORRUPT}))
def hand_history(
    hand_id: int,
    request: Request,
    user: SignedIn,
    fmt: Annotated[HandFormat, Query(alias="format")] = "pokerstars",
) -> Any:
    archived, seat = find_my_hand(request, user, hand_id)
    try:
        if fmt == "json":
            document = replay_document(archived, seat)
            document["my_chat"] = _my_chat(request, archived, user)
            return document
        return attachment(history_download(archived, seat, fmt))
    except ArchiveCorrupt as exc:
        raise ApiError(500, "archive_corrupt", str(exc)) from None


@router.get(
    "/{hand_id}/proof",
    responses=error_responses(
        404,
        500,
        notes={
            404: NO_HAND,
            500: CORRUPT,
        },
    ),
)
def hand_proof(hand_id: int, request: Request, user: SignedIn) -> Response:
    archived, seat = find_my_hand(request, user, hand_id)
    try:
        download = proof_download(archived, seat)
    except ArchiveCorrupt as exc:
        raise ApiError(500, "archive_corrupt", str(exc)) from None
    return attachment(download)


def _my_chat(request: Request, archived: ArchivedHand, user: User) -> list[dict[str, Any]]:
    """The player's own table-chat lines while this hand ran: never others'."""
    lines = messages_of(
        services(request).engine,
        archived.room_id,
        str(user.id),
        archived.started_at,
        archived.ended_at,
    )
    return [{"at": m.at.isoformat(), "kind": m.kind, "text": m.text, "no": m.msg_no} for m in lines]


def find_my_hand(request: Request, user: User, hand_id: int) -> tuple[ArchivedHand, int]:
    """A hand the signed-in player sat in, and their seat; 404 for any other id (the shared
    links and rabbit hunts of ``api_competition`` start from it too)."""
    # An id no database row can have is unknown too (the database would fail on it).
    storable = 1 <= hand_id <= MAX_ID
    archived = archived_hand_for(services(request).engine, hand_id, user.id) if storable else None
    seat = None if archived is None else archived.seat_of_user(user.id)
    if archived is None or seat is None:
        raise ApiError(404, "no_hand", f"no hand {hand_id} among your hands")
    return archived, seat


def attachment(download: Download) -> Response:
    """A download as a file the browser saves under its name."""
    return Response(
        download.text,
        media_type=f"{download.media_type}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{download.filename}"'},
    )


def _summary_json(hand: HandSummary) -> dict[str, Any]:
    return {
        "id": hand.id,
        "room_id": hand.room_id,
        "room_name": hand.room_name,
        "room_kind": hand.room_kind,
        "variant": hand.variant,
        "hand_no": hand.hand_no,
        "seat": hand.seat,
        "net": hand.net,
        "cards": [format_card(c) for c in hand.cards],
        "board": [format_card(c) for c in hand.board],
        "started_at": hand.started_at.isoformat(),
        "ended_at": hand.ended_at.isoformat(),
    }
