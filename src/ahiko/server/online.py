"""How many people are on the site now: signed-in accounts seen in the last
``ONLINE_WINDOW_S`` (a request, or a table socket still open), for the lobby's "N online".

One process counts in memory (``OnlineCount``). The nodes of a cluster count in one
Redis sorted set (``SharedOnlineCount``: member the account, score when it was last seen), so
every node shows the cluster's figure, not its own. Accounts at a table keep no HTTP poll
going, so the sockets' accounts are marked seen again every ``REFRESH_S``
(``keep_sockets_seen``). A node writes an account at most once every ``REFRESH_S``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from ahiko.server.cluster.lease import PREFIX

ONLINE_WINDOW_S = 120.0  # seen this recently: online (the lobby polls every few seconds)
REFRESH_S = 30.0
ONLINE_KEY = f"{PREFIX}online"
WRITE_BATCH = 500  # accounts a ZADD

Clock = Callable[[], float]


class Online(Protocol):
    def seen(self, account: str) -> None: ...

    async def count(self) -> int: ...


class OnlineCount:
    """The embedded default: accounts and when this process last saw each (``seen`` may be
    called on a worker thread: one dict assignment)."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._seen: dict[str, float] = {}

    def seen(self, account: str) -> None:
        self._seen[account] = self._clock()

    async def count(self) -> int:
        horizon = self._clock() - ONLINE_WINDOW_S
        for account in [a for a, at in list(self._seen.items()) if at < horizon]:
            del self._seen[account]
        return len(self._seen)


class SharedOnlineCount:
    """The cluster's count in Redis. Scores are the nodes' wall clocks in milliseconds (NTP
    keeps them within far less than the window apart). The accounts seen are written in
    batches, one ``ZADD`` for up to ``WRITE_BATCH`` of them: a write per account, every
    ``REFRESH_S`` for every open socket, was thousands of tasks on the loop at once."""

    def __init__(self, redis: Any, clock: Clock = time.time) -> None:
        self._redis = redis
        self._clock = clock
        self._loop = asyncio.get_running_loop()  # made in the lifespan, on the server's loop
        self._written: dict[str, float] = {}  # account -> when this node last wrote it
        self._pending: dict[str, int] = {}  # account -> score, to write with the next batch
        self._lock = threading.Lock()  # ``seen`` may run on worker threads
        self._flushing: asyncio.Task[None] | None = None
        self._flush_asked = False

    def seen(self, account: str) -> None:
        """May be called on a worker thread (a session looked up off the loop)."""
        now = self._clock()
        with self._lock:
            if now - self._written.get(account, float("-inf")) < REFRESH_S:
                return
            self._written[account] = now
            self._pending[account] = round(now * 1000)
            if self._flush_asked:
                return
            self._flush_asked = True
        self._loop.call_soon_threadsafe(self._start_flush)

    def _start_flush(self) -> None:
        if self._flushing is None or self._flushing.done():
            self._flushing = self._loop.create_task(self._flush())

    async def _flush(self) -> None:
        while True:
            with self._lock:
                pending, self._pending = self._pending, {}
                if not pending:
                    self._flush_asked = False
                    return
            batch = list(pending.items())
            for first in range(0, len(batch), WRITE_BATCH):
                with contextlib.suppress(Exception):  # a count is not worth failing over
                    await self._redis.zadd(ONLINE_KEY, dict(batch[first : first + WRITE_BATCH]))

    async def settled(self) -> None:
        """Until the writes asked for so far have reached Redis (a node stopping, a test)."""
        await asyncio.sleep(0)  # the writes asked for from worker threads are scheduled
        if self._flushing is not None:
            await asyncio.gather(self._flushing, return_exceptions=True)

    async def count(self) -> int:
        now = self._clock()
        horizon_ms = round((now - ONLINE_WINDOW_S) * 1000)
        with self._lock:
            for account in [a for a, at in self._written.items() if at < now - ONLINE_WINDOW_S]:
                del self._written[account]
        pipe = self._redis.pipeline(transaction=False)
        pipe.zremrangebyscore(ONLINE_KEY, "-inf", horizon_ms - 1)
        pipe.zcard(ONLINE_KEY)
        _removed, count = await pipe.execute()
        return int(count)


async def keep_sockets_seen(online: Online, accounts: Callable[[], Iterable[str]]) -> None:
    """Mark every account with a table socket open as seen, every ``REFRESH_S``."""
    while True:
        for n, account in enumerate(list(accounts()), start=1):
            online.seen(account)
            if n % WRITE_BATCH == 0:
                await asyncio.sleep(0)  # thousands of sockets: the loop served between
        await asyncio.sleep(REFRESH_S)


def online_of(app: Any) -> Online:
    found: Online | None = getattr(app.state, "online", None)
    if found is None:
        found = app.state.online = OnlineCount()
    return found
