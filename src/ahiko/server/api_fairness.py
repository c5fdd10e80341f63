"""Routes: the fair deal's public figures, ``GET /api/fairness/figures``.

Under pokerfair/2 a withheld secret never cancels a hand: once the reveals close and the
cards are out, only a crash of the node playing the hand can stop it (the hand is then
cancelled at the next start, every stack back to where it began). How often that happened
is published here and in ``/metrics`` (``ahiko_hands_cancelled_after_deal``), counted over
every node that shares the database."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from ahiko.server.services import services
from ahiko.store.fair_counts import crash_cancellations

router = APIRouter(prefix="/api/fairness", tags=["fairness"])

EXPLAINED = {
    "pt-BR": "Mãos canceladas depois que as cartas saíram: só a queda de um servidor no meio"
    " da mão causa isso, e as fichas voltam ao início da mão.",
    "en": "Hands cancelled after their cards were dealt: only a server crashing mid-hand"
    " causes it, and the chips go back to where the hand began.",
}


@router.get("/figures")
async def figures(request: Request) -> dict[str, Any]:
    engine = services(request).engine
    cancelled = await run_in_threadpool(crash_cancellations, engine)
    return {"hands_cancelled_after_deal": cancelled, "explained": EXPLAINED}
