"""A server that drains before it stops: ``SIGTERM`` no longer cancels the hands in
progress.

On the first ``SIGTERM`` (``DrainingServer``) the server keeps serving but no room starts
another hand (``RoomRegistry.drain``); the hands in progress play on to their end, their
clocks running, for at most ``drain_s`` (``AHIKO_DRAIN_S``, 60 s: three action deadlines and
more). Then the ledger and archive writes still in flight land (``drain_all``), and:

- a node of a cluster hands each of its rooms over: its run stopped, its sockets told to
  reconnect (4409), its lease given back, so another node takes it over at once, at a hand
  boundary: nothing to cancel;
- a lone server keeps its rooms' seats in the database, as a crash would, but with no hand
  in progress: at the next start every player is back in the seat with the stack, no bet in
  escrow.

Only then does the server stop. A second ``SIGTERM`` (or ``SIGINT``) stops it at once, as
before: the hands still in progress are cancelled and their bets returned at the next start
(or by the node that takes the room over).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from types import FrameType
from typing import Any

import uvicorn

from ahiko.store.writer import drain_all

log = logging.getLogger(__name__)

DRAIN_S = 60.0
DRAIN_POLL_S = 0.1


def drain_seconds(env: Any = None) -> float:
    env = os.environ if env is None else env
    return float(env.get("AHIKO_DRAIN_S", DRAIN_S))


async def drain_app(app: Any, bound_s: float) -> list[str]:
    """Let the hands in progress end (at most ``bound_s``), then hand the rooms over (a
    cluster's node); answers the rooms whose hand was still in progress at the bound."""
    registry = getattr(app.state, "room_registry", None)
    if registry is None:
        return []
    registry.drain()
    began = time.monotonic()
    playing: list[str] = registry.hands_in_progress()
    log.info("draining: no new hand; %d hand(s) in progress", len(playing))
    while playing and time.monotonic() - began < bound_s:
        await asyncio.sleep(DRAIN_POLL_S)
        playing = registry.hands_in_progress()
    if playing:
        log.warning("draining: %d hand(s) still in progress after %.0f s", len(playing), bound_s)
    await drain_all()  # the settlements of the hands that just ended land first
    cluster = getattr(app.state, "cluster", None)
    if cluster is not None:
        await cluster.hand_over_all()
    log.info("drained in %.1f s", time.monotonic() - began)
    return playing


class DrainingServer(uvicorn.Server):
    """``uvicorn.Server`` whose first ``SIGTERM`` drains the app before the usual stop."""

    def __init__(self, config: uvicorn.Config, app: Any, bound_s: float) -> None:
        super().__init__(config)
        self.drained_app = app
        self.bound_s = bound_s
        self._draining: asyncio.Task[list[str]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        first = sig == signal.SIGTERM and self._draining is None and not self.should_exit
        if not first or self._loop is None:
            super().handle_exit(sig, frame)
            self.force_exit = self.force_exit or self._draining is not None  # at once
            return
        self._captured_signals.append(sig)  # re-raised once the server stopped, as uvicorn does
        self._loop.call_soon_threadsafe(self._begin_drain)

    def _begin_drain(self) -> None:
        if self._draining is not None:
            return
        self._draining = asyncio.get_running_loop().create_task(
            drain_app(self.drained_app, self.bound_s), name="drain"
        )
        self._draining.add_done_callback(self._drained)

    def _drained(self, task: asyncio.Task[list[str]]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("draining failed; stopping", exc_info=task.exception())
        self.should_exit = True
