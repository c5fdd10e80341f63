"""Routes: wallet balance, the free claim, the statement (Extrato)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request

from ahiko.competition.sitgo import queue_of
from ahiko.server.accounts import User
from ahiko.server.errors import error_responses
from ahiko.server.paging import PageNumber, page_json
from ahiko.server.services import current_user, services
from ahiko.wallet.policy import CLAIM_AMOUNT, CLAIM_BELOW
from ahiko.wallet.statement import MAX_PER_PAGE, EventNames, StatementLine, statement

router = APIRouter(prefix="/api/wallet", responses=error_responses(401))
SignedIn = Annotated[User, Depends(current_user)]


@router.get("")
def wallet(request: Request, user: SignedIn) -> dict[str, Any]:
    found = services(request)
    holdings = found.wallet.holdings(user.id)
    now = found.clock()
    next_at = holdings.next_claim_at
    claimable = holdings.total < CLAIM_BELOW and (next_at is None or now >= next_at)
    return {
        "balance": holdings.wallet,
        "in_seats": holdings.in_seats,
        "total": holdings.total,
        "claim": {
            "available": claimable,
            "amount": CLAIM_AMOUNT,
            "below": CLAIM_BELOW,
            "next_at": None if next_at is None else next_at.isoformat(),
        },
    }


@router.post(
    "/claim",
    responses=error_responses(
        409,
        notes={
            409: "No free claim now: too many coins, or the last one was less than 24 h ago "
            "(`claim_not_available`)."
        },
    ),
)
def claim(
    request: Request,
    user: SignedIn,
    idempotency_key: Annotated[str | None, Header(max_length=100)] = None,
) -> dict[str, Any]:
    """The free 1,000 coins; a client may send ``Idempotency-Key`` to retry safely."""
    key = f"claim:{user.id}:{idempotency_key or uuid.uuid4().hex}"
    found = services(request)
    receipt = found.wallet.claim(user.id, key)
    return {
        "amount": receipt.amount,
        "applied": receipt.applied,
        "balance": found.wallet.holdings(user.id).wallet,
    }


@router.get("/statement")
def wallet_statement(
    request: Request,
    user: SignedIn,
    page: PageNumber = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20,
) -> dict[str, Any]:
    found = statement(services(request).engine, user.id, page, per_page, _event_names(request))
    return page_json(found, "lines", [_line_json(line) for line in found.items])


def _event_names(request: Request) -> EventNames:
    """A sit & go's name from its queue; a multi-table tournament's from the lobby that
    holds it (one no longer held keeps its id)."""
    mtts = getattr(getattr(getattr(request.app.state, "mtt", None), "lobby", None), "all", {})

    def name_of(event_id: str) -> str | None:
        queue = queue_of(event_id)
        if queue is not None:
            return queue.name
        mtt = mtts.get(event_id) if isinstance(mtts, dict) else None
        return None if mtt is None else str(mtt.name)

    return name_of


def _line_json(line: StatementLine) -> dict[str, Any]:
    summary = line.participation
    return {
        "id": line.transaction_id,
        "kind": line.kind,
        "label": line.labels,  # the kind's name, {"pt-BR": ..., "en": ...}
        "amount": line.amount,
        "at": line.created_at.isoformat(),
        # what the line is about, in words: the tournament's name rather than its id
        "reason": line.event_name or line.reason,
        "event_id": line.reason if line.event_name else None,
        "balance": line.balance_after,
        "room_id": None if summary is None else summary.room_id,
        "room_name": None if summary is None else summary.room_name,
        "participation": None
        if summary is None
        else {
            "id": summary.participation_id,
            "room_id": summary.room_id,
            "room_name": summary.room_name,
            "seat": summary.seat,
            "status": summary.status,
            "entry": summary.entry,
            "reloads": summary.reloads,
            "reload_count": summary.reload_count,
            "exit": summary.exit,
            "net": summary.net,
        },
    }
