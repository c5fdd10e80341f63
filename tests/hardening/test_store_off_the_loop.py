"""Issue 17: slow storage cannot freeze unrelated rooms.

A real SQLite write lock, held by another connection (another process would do the same),
stalls every ledger write of the server. The writes run on worker threads
(``ahiko.store.writer``): the event loop keeps serving while one waits, and a write that
fails rolls its reservation back, with a clear error to the player and no coin moved."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from ahiko.server.app import create_app
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.store import engine as store_engine
from ahiko.store.writer import Outcome, ThreadWriter
from ahiko.wallet.check import check_ledger

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse"
HOLD_S = 3.0  # how long the other connection holds the write lock
# A loop that serves: far under the hold, with room for a loaded shared machine.
MAX_LAG_S = 0.5


def _app(sqlite_url: str, tmp_path: Path) -> FastAPI:
    settings = Settings(data_dir=tmp_path / "data", database_url=sqlite_url)
    return create_app(settings, password_hasher=FAST_HASHER)


@contextmanager
def write_lock_held(sqlite_url: str, seconds: float) -> Iterator[threading.Event]:
    """Another connection takes SQLite's write lock (BEGIN IMMEDIATE) for ``seconds``; the
    event is set once it holds it."""
    path = sqlite_url.removeprefix("sqlite:///")
    held = threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
        conn.close()

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(5)
    try:
        yield held
    finally:
        thread.join()


def _loop_lag(client: TestClient) -> float:
    """How late the server's event loop runs a 10 ms sleep, seen from another thread."""

    async def probe() -> float:
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        return time.perf_counter() - started - 0.01

    portal = client.portal
    assert portal is not None
    return float(portal.call(probe))


def _sign_up_and_pick(client: TestClient) -> tuple[str, str]:
    response = client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
    assert response.status_code == 201, response.text
    rooms = [r for r in client.get("/api/ahiko/rooms").json() if r["tier"] == "classica"]
    return rooms[0]["id"], rooms[1]["id"]


def test_a_held_write_lock_does_not_stall_the_loop_and_the_buy_in_lands_after(
    sqlite_url: str, tmp_path: Path
) -> None:
    app = _app(sqlite_url, tmp_path)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        mine, other = _sign_up_and_pick(client)
        with write_lock_held(sqlite_url, HOLD_S), ThreadPoolExecutor(1) as pool:
            started = time.perf_counter()
            body = {"seat": 2, "amount": 600, "key": "slow-1"}
            buying = pool.submit(client.post, f"/api/ahiko/rooms/{mine}/buy_in", json=body)
            time.sleep(0.2)  # the buy-in's write is now waiting for the lock
            lags, answers = [], []
            while not buying.done() and time.perf_counter() - started < HOLD_S - 0.3:
                lags.append(_loop_lag(client))
                asked = time.perf_counter()
                room = client.get(f"/api/rooms/{other}")  # another table, answered meanwhile
                answers.append(time.perf_counter() - asked)
                assert room.status_code == 200
                time.sleep(0.05)
            assert not buying.done(), "the buy-in did not wait for the lock"
            response = buying.result(timeout=60)
            waited = time.perf_counter() - started
        assert response.status_code == 200, response.text
        assert response.json()["applied"] is True and response.json()["seat"] == 2
        assert waited >= HOLD_S - 0.3  # it really waited for the other connection
        # Answered while the buy-in still waited: before issue 17 the loop stood still for
        # the whole hold, so nothing could be answered until the lock was released.
        assert len(lags) >= 5 and len(answers) == len(lags)
        assert max(lags) < MAX_LAG_S, lags
        assert sorted(answers)[len(answers) // 2] < MAX_LAG_S, answers
        assert client.get("/api/wallet").json()["balance"] == 5_000 - 600
    assert check_ledger(app.state.services.engine) == []
    app.state.services.engine.dispose()


def test_a_failed_buy_in_write_rolls_back_with_a_clear_error_and_moves_no_coin(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short busy timeout: the write gives up while the other connection holds the lock.
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    app = _app(sqlite_url, tmp_path)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        mine, _other = _sign_up_and_pick(client)
        url = f"/api/ahiko/rooms/{mine}/buy_in"
        body = {"seat": 2, "amount": 600, "key": "k-1"}
        with write_lock_held(sqlite_url, HOLD_S):
            refused = client.post(url, json=body)
            lag = _loop_lag(client)
        assert refused.status_code == 503, refused.text
        answer = refused.json()
        assert answer["error"] == "storage_busy"
        assert "could not be written" in answer["message"] and "no coin moved" in answer["message"]
        assert lag < MAX_LAG_S
        # Nothing moved: the wallet is whole, the seat is free, nobody sits in the room.
        assert client.get("/api/wallet").json()["balance"] == 5_000
        entry = next(r for r in client.get("/api/ahiko/rooms").json() if r["id"] == mine)
        assert 2 in entry["free_seats"] and entry["people"] == 0
        assert check_ledger(app.state.services.engine) == []
        # The reservation is gone and the refusal is not replayed: the same key now lands.
        again = client.post(url, json=body)
        assert again.status_code == 200, again.text
        assert again.json()["applied"] is True
        assert client.get("/api/wallet").json()["balance"] == 5_000 - 600
    assert check_ledger(app.state.services.engine) == []
    app.state.services.engine.dispose()


def test_the_writer_keeps_each_lane_in_order_and_retries_a_busy_database() -> None:
    async def scenario() -> tuple[list[str], list[Outcome[Any]]]:
        writer = ThreadWriter(threads=3)
        ran: list[str] = []
        outcomes: list[Outcome[Any]] = []
        tries = {"n": 0}

        def busy_twice() -> str:
            tries["n"] += 1
            if tries["n"] < 3:
                raise OperationalError("INSERT", {}, Exception("database is locked"))
            ran.append("a2")
            return "landed"

        def slow(name: str) -> None:
            time.sleep(0.02)
            ran.append(name)

        writer.submit("a", lambda: slow("a1"))
        writer.submit("a", busy_twice, outcomes.append, retry=True)
        writer.submit("a", lambda: ran.append("a3"))
        writer.submit("b", lambda: ran.append("b1"))
        writer.submit("c", lambda: 1 // 0, outcomes.append)  # not retried, reported
        assert await writer.drain(10)
        writer.close()
        return ran, outcomes

    ran, outcomes = asyncio.run(scenario())
    assert [n for n in ran if n.startswith("a")] == ["a1", "a2", "a3"]
    assert "b1" in ran
    by_value = {o.value for o in outcomes if o.ok}
    assert by_value == {"landed"}
    assert any(isinstance(o.error, ZeroDivisionError) for o in outcomes)


def test_a_cash_out_waiting_for_the_lock_lands_after_it_and_the_leave_is_answered_then(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short busy timeout: the cash-out's write fails while the lock is held and is retried.
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    app = _app(sqlite_url, tmp_path)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        mine, _other = _sign_up_and_pick(client)
        body = {"seat": 2, "amount": 600, "key": "k-1"}
        assert client.post(f"/api/ahiko/rooms/{mine}/buy_in", json=body).status_code == 200
        assert client.get("/api/wallet").json()["balance"] == 5_000 - 600
        with write_lock_held(sqlite_url, HOLD_S), ThreadPoolExecutor(1) as pool:
            started = time.perf_counter()
            leaving = pool.submit(client.post, f"/api/ahiko/rooms/{mine}/leave", json={})
            time.sleep(0.3)
            lags = []
            while not leaving.done() and time.perf_counter() - started < HOLD_S - 0.5:
                lags.append(_loop_lag(client))
                time.sleep(0.1)
            response = leaving.result(timeout=60)
            waited = time.perf_counter() - started
        assert response.status_code == 200, response.text
        assert waited >= HOLD_S - 0.5  # answered once the coins were written back
        assert lags and max(lags) < MAX_LAG_S, lags
        assert client.get("/api/wallet").json()["balance"] == 5_000
        entry = next(r for r in client.get("/api/ahiko/rooms").json() if r["id"] == mine)
        assert 2 in entry["free_seats"]
    assert check_ledger(app.state.services.engine) == []
    app.state.services.engine.dispose()
