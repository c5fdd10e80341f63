"""Issue 17: slow storage cannot freeze unrelated rooms.

A real SQLite write lock, held by another connection (another process would do the same),
stalls every ledger write of the server. The writes run on worker threads
(``ahiko.store.writer``): the event loop keeps serving while one waits, and a write that
fails rolls its reservation back, with a clear error to the player and no coin moved."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from ahiko.server.services import CSRF_HEADER
from ahiko.store import engine as store_engine
from ahiko.store.writer import Outcome, ThreadWriter
from ahiko.wallet.check import check_ledger

PASSWORD = "correct horse"
MakeApp = Callable[[], FastAPI]
WriteLock = Any  # tests/hardening/conftest.py's ``write_lock`` fixture


def _sign_up_and_pick(client: TestClient) -> tuple[str, str]:
    response = client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
    assert response.status_code == 201, response.text
    rooms = [r for r in client.get("/api/ahiko/rooms").json() if r["tier"] == "classica"]
    return rooms[0]["id"], rooms[1]["id"]


def test_a_held_write_lock_does_not_stall_the_loop_and_the_buy_in_lands_after(
    make_app: MakeApp, write_lock: WriteLock
) -> None:
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        mine, other = _sign_up_and_pick(client)
        body = {"seat": 2, "amount": 600, "key": "slow-1"}
        run = write_lock.while_held(
            client,
            lambda: client.post(f"/api/ahiko/rooms/{mine}/buy_in", json=body),
            lambda: client.get(f"/api/rooms/{other}").raise_for_status(),  # another table
        )
        response = run.result
        assert response.status_code == 200, response.text
        assert response.json()["applied"] is True and response.json()["seat"] == 2
        run.assert_the_loop_served()
        assert client.get("/api/wallet").json()["balance"] == 5_000 - 600
    assert check_ledger(app.state.services.engine) == []


def test_a_failed_buy_in_write_rolls_back_with_a_clear_error_and_moves_no_coin(
    make_app: MakeApp, write_lock: WriteLock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short busy timeout: the write gives up while the other connection holds the lock.
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        mine, _other = _sign_up_and_pick(client)
        url = f"/api/ahiko/rooms/{mine}/buy_in"
        body = {"seat": 2, "amount": 600, "key": "k-1"}
        with write_lock.held():
            refused = client.post(url, json=body)
            lag = write_lock.loop_lag(client)
        assert refused.status_code == 503, refused.text
        answer = refused.json()
        assert answer["error"] == "storage_busy"
        assert "could not be written" in answer["message"] and "no coin moved" in answer["message"]
        assert lag < write_lock.max_lag_s
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
    make_app: MakeApp, write_lock: WriteLock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short busy timeout: the cash-out's write fails while the lock is held and is retried.
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        mine, other = _sign_up_and_pick(client)
        body = {"seat": 2, "amount": 600, "key": "k-1"}
        assert client.post(f"/api/ahiko/rooms/{mine}/buy_in", json=body).status_code == 200
        assert client.get("/api/wallet").json()["balance"] == 5_000 - 600
        run = write_lock.while_held(
            client,
            lambda: client.post(f"/api/ahiko/rooms/{mine}/leave", json={}),
            lambda: client.get(f"/api/rooms/{other}").raise_for_status(),
        )
        assert run.result.status_code == 200, run.result.text
        run.assert_the_loop_served()  # answered once the coins were written back
        assert client.get("/api/wallet").json()["balance"] == 5_000
        entry = next(r for r in client.get("/api/ahiko/rooms").json() if r["id"] == mine)
        assert 2 in entry["free_seats"]
    assert check_ledger(app.state.services.engine) == []
