"""Durable writes off the event loop.

One event loop serves every table; a ledger or archive write that waits for SQLite's write
lock (another process holding it, a slow fsync) must not stall the others. A room hands each
write to a ``StoreWriter`` under a *lane* (its room id, or the archive's one lane): the writes
of one lane run one after the other, in the order they were submitted, on a worker thread;
different lanes run side by side. ``done`` is called back on the loop's thread with the
``Outcome``, where the room confirms or rolls back what it reserved (``rooms.house.table``).

``InlineWriter`` runs each write at once on the caller's thread: a test's manual clock, and the
lobby's start-up (before anything is served). A job without ``done`` that fails is logged
(``ThreadWriter``) or raised (``InlineWriter``, as before this module).

``retry=True`` is for writes that must land and are safe to repeat (their idempotency key, or
an upsert): a SQLite "database is locked" or another ``OperationalError`` is tried again with
a growing pause, up to ``RETRY_FOR_S``; every later write of the lane waits behind it, so the
order holds. A fenced-out write (``FencedOut``) or a refusal is never retried.

A job runs in the context it was submitted from (``contextvars``), and its ``done`` too: the
run of a room that submitted a write is who the write is about, and the database checks that
run's fencing token, not whatever token the node holds when the thread gets to it
(``ahiko.store.fences``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy.exc import OperationalError

from ahiko.store.write_timing import STORE_WRITE_SECONDS

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_FOR_S = 120.0  # a write that must land is tried again for this long
RETRY_PAUSES_S = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)  # then 2 s between attempts
LEDGER_THREADS = 4  # SQLite has one writer at a time: a few threads are plenty


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """What a write returned, or the exception it raised."""

    value: T | None = None
    error: Exception | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class StoreWriter(Protocol):
    def submit(
        self,
        lane: str,
        job: Callable[[], T],
        done: Callable[[Outcome[T]], None] | None = None,
        *,
        retry: bool = False,
    ) -> None:
        """Run ``job`` after the lane's earlier jobs; then ``done`` on the loop's thread."""
        ...


class InlineWriter:
    """Every write at once, on the caller's thread."""

    def submit(
        self,
        lane: str,
        job: Callable[[], T],
        done: Callable[[Outcome[T]], None] | None = None,
        *,
        retry: bool = False,
    ) -> None:
        if done is None:
            job()
            return
        try:
            value = job()
        except Exception as error:
            done(Outcome(error=error))
            return
        done(Outcome(value))


@dataclass(slots=True)
class _Job:
    run: Callable[[], Any]
    done: Callable[[Outcome[Any]], None] | None
    retry: bool
    context: contextvars.Context


_live: weakref.WeakSet[ThreadWriter] = weakref.WeakSet()


class ThreadWriter:
    """Lanes of writes on a small pool of worker threads; ``done`` back on the loop that
    submitted the first job."""

    def __init__(self, threads: int = LEDGER_THREADS, name: str = "ahiko-store") -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self._lanes: dict[str, deque[_Job]] = {}  # a lane's head is the job running now
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self.failed = 0  # writes that failed for good (monitoring and tests)
        _live.add(self)

    def submit(
        self,
        lane: str,
        job: Callable[[], T],
        done: Callable[[Outcome[T]], None] | None = None,
        *,
        retry: bool = False,
    ) -> None:
        if self._loop is None:  # where ``done`` is called back (and which server drains it)
            if done is not None:
                self._loop = asyncio.get_running_loop()
            else:
                with contextlib.suppress(RuntimeError):
                    self._loop = asyncio.get_running_loop()
        item = _Job(job, done, retry, contextvars.copy_context())
        with self._lock:
            queue = self._lanes.get(lane)
            if queue is not None:
                queue.append(item)
                return
            self._lanes[lane] = deque([item])
        self._pool.submit(self._run_head, lane)

    @property
    def queued(self) -> int:
        """Writes submitted and not finished (the running ones included)."""
        with self._lock:
            return sum(len(queue) for queue in self._lanes.values())

    @property
    def busy(self) -> bool:
        with self._lock:
            return bool(self._lanes)

    def _run_head(self, lane: str) -> None:
        with self._lock:
            item = self._lanes[lane][0]
        started = time.perf_counter()
        outcome = self._attempt(item)
        STORE_WRITE_SECONDS.observe(time.perf_counter() - started)
        if item.done is not None:
            self._call_back(item.done, outcome, item.context)
        elif outcome.error is not None:
            self.failed += 1
            log.error("a store write of %s failed", lane, exc_info=outcome.error)
        with self._lock:
            queue = self._lanes[lane]
            queue.popleft()
            if not queue:
                del self._lanes[lane]
                return
        self._pool.submit(self._run_head, lane)

    def _attempt(self, item: _Job) -> Outcome[Any]:
        started = time.monotonic()
        attempt = 0
        while True:
            try:
                return Outcome(item.context.run(item.run))
            except OperationalError as error:
                waited = time.monotonic() - started
                if not item.retry or self._closing or waited >= RETRY_FOR_S:
                    return Outcome(error=error)
                pause = RETRY_PAUSES_S[min(attempt, len(RETRY_PAUSES_S) - 1)]
                attempt += 1
                log.warning("a store write waits for the database (%s); again in %ss", error, pause)
                time.sleep(pause)
            except Exception as error:
                return Outcome(error=error)

    def _call_back(
        self,
        done: Callable[[Outcome[Any]], None],
        outcome: Outcome[Any],
        context: contextvars.Context,
    ) -> None:
        loop = self._loop
        try:
            assert loop is not None
            loop.call_soon_threadsafe(_guarded_call, done, outcome, context=context)
        except RuntimeError:  # the loop is closed: the server is stopping
            log.warning("a store write finished after the loop closed: %s", outcome)

    async def drain(self, timeout: float = 10.0) -> bool:
        """Wait until every submitted write finished (True), or ``timeout`` (False)."""
        deadline = time.monotonic() + timeout
        while self.busy:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.01)
        await asyncio.sleep(0)  # let the last ``done`` callbacks run
        return True

    def close(self) -> None:
        self._closing = True
        self._pool.shutdown(wait=False)


def _guarded_call(done: Callable[[Outcome[Any]], None], outcome: Outcome[Any]) -> None:
    try:
        done(outcome)
    except Exception:  # a bug in a callback must not take the loop down
        log.exception("a store write's callback failed")


async def drain_all(timeout: float = 10.0) -> bool:
    """Wait for the writes of every ``ThreadWriter`` serving this event loop (the server's
    stop; another app's writers in the same process are not waited for)."""
    loop = asyncio.get_running_loop()
    results = [await w.drain(timeout) for w in list(_live) if w._loop is loop]
    return all(results)


def queued_writes() -> int:
    """The writes waiting or running in every ``ThreadWriter`` of this process (the
    operator's queue depth: a database that cannot keep up shows here first)."""
    return sum(writer.queued for writer in list(_live))


def writer_for(
    threaded: bool, threads: int = LEDGER_THREADS, name: str = "ahiko-store"
) -> StoreWriter:
    """A ``ThreadWriter`` on the real clock, an ``InlineWriter`` on a test's manual one."""
    return ThreadWriter(threads, name) if threaded else InlineWriter()
