"""How often an account may read players' figures: a profile and the table's player
line are one read each now (``ahiko.competition.player_figures``), but the tournament places
on a profile still read archived seat lines, so a loop over them is bounded per account, in
this process (each node of a cluster counts its own)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from typing import Any

from ahiko.server.errors import ApiError
from ahiko.server.security import RateLimit, SlidingWindow

FIGURE_READS = RateLimit(30, 10.0)  # per account: a person opening pages reads a few a second


class FigureReads:
    def __init__(self, limit: RateLimit = FIGURE_READS) -> None:
        self._window = SlidingWindow(limit, time.monotonic)
        self._lock = threading.Lock()  # the routes run on worker threads

    def take(self, user_id: int) -> None:
        """Counts one read by ``user_id``, or raises the 429 naming the wait."""
        key = str(user_id)
        with self._lock:
            if self._window.allow(key):
                return
            wait = self._window.retry_after(key)
        limit = self._window.limit
        raise ApiError(
            429,
            "too_many_requests",
            f"at most {limit.count} player pages every {limit.seconds:g} s; try again in {wait} s",
            {"Retry-After": str(wait)},
        )


def figure_read_limit(env: Mapping[str, str] | None = None) -> RateLimit:
    """``AHIKO_FIGURE_READS`` ("count/seconds", per account), else ``FIGURE_READS``."""
    text = (os.environ if env is None else env).get("AHIKO_FIGURE_READS")
    return RateLimit.parse(text) if text else FIGURE_READS


def figure_reads(app: Any) -> FigureReads:
    """The app's counter (made on first use; a test may set ``app.state.figure_reads``)."""
    found: FigureReads | None = getattr(app.state, "figure_reads", None)
    if found is None:
        found = app.state.figure_reads = FigureReads(figure_read_limit())
    return found
