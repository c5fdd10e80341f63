"""The set-up the off-the-loop tests share (issue 17): the real app, SQLite's real write lock
held by another connection (another process would do the same), and the event loop probed
while a request waits for that lock."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ahiko.server.app import create_app
from ahiko.server.settings import Settings

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
HOLD_S = 3.0  # how long the other connection holds the write lock
# A loop that serves: far under the hold, with room for a loaded shared machine.
MAX_LAG_S = 0.5


@pytest.fixture
def make_app(sqlite_url: str, tmp_path: Path) -> Iterator[Callable[[], FastAPI]]:
    """Makes the real app on a SQLite file when called (after a test changed what the engine
    reads, the busy timeout say); its engine is disposed at the end."""
    made: list[FastAPI] = []

    def make() -> FastAPI:
        settings = Settings(data_dir=tmp_path / "data", database_url=sqlite_url)
        made.append(create_app(settings, password_hasher=FAST_HASHER))
        return made[-1]

    yield make
    for app in made:
        app.state.services.engine.dispose()


def loop_lag(client: TestClient) -> float:
    """How late the server's event loop runs a 10 ms sleep, seen from another thread: from
    the moment it is asked (a loop busy elsewhere starts it late) to its end."""

    async def probe() -> None:
        await asyncio.sleep(0.01)

    portal = client.portal
    assert portal is not None
    started = time.perf_counter()
    portal.call(probe)
    return time.perf_counter() - started - 0.01


@dataclass
class LockedRun:
    """A request made while the lock was held, and the loop meanwhile."""

    result: Any  # what the request answered
    waited: float  # seconds from the request to its answer
    lags: list[float] = field(default_factory=list)  # the loop's lag, probed meanwhile
    answers: list[float] = field(default_factory=list)  # seconds each other request took

    def assert_the_loop_served(self) -> None:
        """The request waited for the lock, and the loop served the others meanwhile: before
        issue 17 it stood still for the whole hold."""
        assert self.waited >= HOLD_S - 0.5, "answered before the lock was released"
        assert max(self.lags, default=0) < MAX_LAG_S, f"the loop stood still: {self.lags}"
        # Dozens on a quiet machine; a few when the test's own thread was starved.
        assert len(self.lags) >= 3, f"too few probes ran while the request waited: {self}"
        assert len(self.answers) == len(self.lags)
        assert sorted(self.answers)[len(self.answers) // 2] < MAX_LAG_S, self.answers


class WriteLock:
    """SQLite's write lock (BEGIN IMMEDIATE), taken by another connection of the test."""

    hold_s = HOLD_S
    max_lag_s = MAX_LAG_S
    loop_lag = staticmethod(loop_lag)

    def __init__(self, sqlite_url: str) -> None:
        self.path = sqlite_url.removeprefix("sqlite:///")

    @contextmanager
    def held(self, seconds: float = HOLD_S) -> Iterator[None]:
        """Holds it for ``seconds`` from when the block starts (or until then, if longer)."""
        taken = threading.Event()

        def hold() -> None:
            conn = sqlite3.connect(self.path, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            taken.set()
            time.sleep(seconds)
            conn.execute("ROLLBACK")
            conn.close()

        thread = threading.Thread(target=hold)
        thread.start()
        assert taken.wait(5), "the other connection could not take the write lock"
        try:
            yield
        finally:
            thread.join()

    def while_held(
        self,
        client: TestClient,
        request: Callable[[], Any],
        meanwhile: Callable[[], object] = lambda: None,
    ) -> LockedRun:
        """Makes ``request`` on another thread while the lock is held; until it is answered,
        probes the loop's lag and times ``meanwhile`` (another table, say), again and
        again."""
        with self.held(), ThreadPoolExecutor(1) as pool:
            started = time.perf_counter()
            running = pool.submit(request)
            time.sleep(0.2)  # its write now waits for the lock
            run = LockedRun(None, 0.0)
            while not running.done() and time.perf_counter() - started < 60:
                run.lags.append(loop_lag(client))
                asked = time.perf_counter()
                meanwhile()
                run.answers.append(time.perf_counter() - asked)
                time.sleep(0.05)
            run.result = running.result(timeout=60)
            run.waited = time.perf_counter() - started
        return run


@pytest.fixture
def write_lock(sqlite_url: str) -> WriteLock:
    return WriteLock(sqlite_url)
