"""Where bots think: off the event loop, so a Hard bot's Monte Carlo never stalls other tables.

A room asks a ``Thinker`` to run a bot's ``decide`` and to hand the answer back; the room then
checks that the turn it asked about is still the turn to play before applying it (a pause, a
reconnection or a closed room may have moved on meanwhile), cancels a request whose turn has
passed before a thread takes it up, and answers for a bot by the timeout rule if it thinks
longer than ``BOT_THINKING_LIMIT_S``. On the real clock bots think on a small pool of worker
threads shared by every room of the process; with a test's manual clock a room has no thinker
and its bots answer inline, so a test stays deterministic.

Threads share the interpreter lock, so thinking is not faster on a thread: the gain is that the
loop gets the lock back every few milliseconds (and while numpy works on large arrays), so a
20 ms decision delays other tables' frames by a switch interval, not by 20 ms.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Protocol

from ahiko.poker.actions import Action

from .clock import AsyncioClock, Clock

log = logging.getLogger(__name__)

Decide = Callable[[], Action]
Deliver = Callable[[Action | None], None]  # None: the bot failed; the room answers for it

BOT_THREADS = 2  # the machines have two cores; bots hold the interpreter lock most of the time
# A bot still thinking after this long (room seconds) is answered for by the timeout rule; the
# Hard bot's p99 is under 30 ms (docs/BENCHMARKS.md), so only a hung bot gets there.
BOT_THINKING_LIMIT_S = 10.0


class Request(Protocol):
    def cancel(self) -> bool: ...


class Thinker(Protocol):
    def __call__(self, decide: Decide, deliver: Deliver) -> Request:
        """Run ``decide`` somewhere, then call ``deliver`` with its action on the loop; the
        request can be cancelled until a thread takes it up."""
        ...


@cache
def _bot_threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="ahiko-bot")


def think_on_threads(decide: Decide, deliver: Deliver) -> Request:
    future = asyncio.get_running_loop().run_in_executor(_bot_threads(), decide)

    def done(finished: asyncio.Future[Action]) -> None:  # runs on the loop
        if finished.cancelled():
            return
        error = finished.exception()
        if error is not None:
            log.error("a bot failed to decide; the timeout rule answers", exc_info=error)
            deliver(None)
            return
        deliver(finished.result())

    future.add_done_callback(done)
    return future


def thinker_for(clock: Clock) -> Thinker | None:
    """Worker threads on the real clock; inline (None) on a test's manual clock."""
    return think_on_threads if isinstance(clock, AsyncioClock) else None
