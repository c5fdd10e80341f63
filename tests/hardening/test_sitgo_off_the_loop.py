"""Issue 17 for the sit & go's of issue 20: a registration's buy-in is written off the event
loop, in the sit & go's lane of the app's ``StoreWriter``. A real SQLite write lock held by
another connection delays the registration, never the loop; a registration whose write fails
is refused (503, no coin moved, still unregistered) and the same key then registers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ahiko.server.services import CSRF_HEADER
from ahiko.store import engine as store_engine
from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT

PASSWORD = "correct horse"
MakeApp = Callable[[], FastAPI]
WriteLock = Any  # tests/hardening/conftest.py's ``write_lock`` fixture
REGISTER = "/api/sitgo/queues/hu-100/register"


def _sign_up(client: TestClient) -> None:
    response = client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
    assert response.status_code == 201, response.text


def _balance(client: TestClient) -> int:
    return int(client.get("/api/wallet").json()["balance"])


def _queue(client: TestClient) -> dict[str, object]:
    lobby = client.get("/api/sitgo").json()
    return dict(next(q for q in lobby["queues"] if q["queue"] == "hu-100"))


def test_a_held_write_lock_delays_the_registration_not_the_loop(
    make_app: MakeApp, write_lock: WriteLock
) -> None:
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        _sign_up(client)
        run = write_lock.while_held(
            client,
            lambda: client.post(REGISTER, json={"key": "slow-1"}),
            lambda: client.get("/api/sitgo").raise_for_status(),  # the lobby, served meanwhile
        )
        response = run.result
        assert response.status_code == 201, response.text
        assert response.json()["applied"] is True
        run.assert_the_loop_served()  # answered only once its write came back
        assert _balance(client) == SIGNUP_GRANT - 100
        assert _queue(client)["registered"] == 1
        sng = response.json()["sitgo"]["id"]
        assert app.state.sitgo.bank.pool_balance(sng) == 100
    assert check_ledger(app.state.services.engine) == []


def test_a_failed_registration_write_is_refused_moves_no_coin_and_the_key_retries(
    make_app: MakeApp, write_lock: WriteLock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short busy timeout: the write gives up while the other connection holds the lock.
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        _sign_up(client)
        with write_lock.held():
            refused = client.post(REGISTER, json={"key": "k-1"})
            lag = write_lock.loop_lag(client)
        assert refused.status_code == 503, refused.text
        answer = refused.json()
        assert answer["error"] == "storage_busy"
        assert "could not be written" in answer["message"] and "no coin moved" in answer["message"]
        assert lag < write_lock.max_lag_s
        # Nothing moved and nobody registered.
        assert _balance(client) == SIGNUP_GRANT
        assert _queue(client)["registered"] == 0
        assert client.get("/api/sitgo").json()["mine"] is None
        assert check_ledger(app.state.services.engine) == []
        # The refusal is not replayed: the same key now registers, once.
        again = client.post(REGISTER, json={"key": "k-1"})
        assert again.status_code == 201, again.text
        assert again.json()["applied"] is True
        replay = client.post(REGISTER, json={"key": "k-1"})
        assert replay.status_code == 201 and replay.json()["applied"] is False
        assert _balance(client) == SIGNUP_GRANT - 100
        assert _queue(client)["registered"] == 1
    assert check_ledger(app.state.services.engine) == []
