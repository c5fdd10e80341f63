"""Issue 17: a log-in refused by the failed-log-in throttle, by address or by account, is
decided in memory before any database read or password hash: the real engine executes no SQL
statement for it, and no hash runs. The owner still signs in from a clean address, and a
window that frees lets the next attempt through."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from account_sql import account_statements
from ahiko.server.app import create_app
from ahiko.server.login_throttle import (
    MAX_FAILURES_PER_ACCOUNT,
    MAX_FAILURES_PER_ADDRESS,
    Attempt,
    LocalLoginThrottle,
)
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from live_server import FAST_HASHER

PASSWORD = "correct horse"


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path) -> Iterator[FastAPI]:
    found = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url), password_hasher=FAST_HASHER
    )
    # The attempts come through a trusted proxy, so each may name its address; the
    # middleware's per-address window is not what this attacks.
    found.state.security = replace(
        found.state.security,
        sign_up=RateLimit(1_000_000, 1.0),
        log_in=RateLimit(1_000_000, 1.0),
        trusted_proxies=("127.0.0.1",),
    )
    yield found
    found.state.services.engine.dispose()


def _log_in(client: TestClient, address: str, password: str, username: str = "ana") -> int:
    response = client.post(
        "/api/session",
        json={"username": username, "password": password},
        headers={"X-Forwarded-For": address},
    )
    if response.status_code == 429:
        assert response.json()["error"] == "too_many_attempts", response.text
        assert int(response.headers["retry-after"]) >= 1
    client.cookies.clear()
    return response.status_code


def _client(app: FastAPI) -> TestClient:
    return TestClient(app, headers={CSRF_HEADER: "1"}, client=("127.0.0.1", 50_000))


def test_a_throttled_log_in_reads_no_database_and_hashes_no_password(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = app.state.services.accounts
    checked: list[str] = []
    real_check = accounts._password_matches

    def counted(stored: str | None, password: str) -> bool:
        checked.append(password)
        return bool(real_check(stored, password))

    monkeypatch.setattr(accounts, "_password_matches", counted)
    engine = app.state.services.engine
    with _client(app) as client:
        signed = client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
        assert signed.status_code == 201
        client.cookies.clear()
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200  # the owner's usual address
        checked.clear()
        # By account: five wrong guesses from one address.
        for n in range(MAX_FAILURES_PER_ACCOUNT):
            assert _log_in(client, "10.6.6.6", f"guess-{n}") == 401
        checked.clear()
        with account_statements(engine) as seen:
            refused = [_log_in(client, "10.6.6.6", PASSWORD) for _ in range(20)]
            refused += [_log_in(client, "10.6.6.6", f"guess-{n}", "ANA") for n in range(5)]
        assert refused == [429] * 25  # the right password too, from the failing address
        assert seen == [] and checked == []
        # By address: the address's failures up to its limit, over other names.
        for n in range(MAX_FAILURES_PER_ADDRESS - MAX_FAILURES_PER_ACCOUNT):
            assert _log_in(client, "10.6.6.6", "guess", f"nobody{n}") == 401
        checked.clear()
        with account_statements(engine) as seen:
            refused = [_log_in(client, "10.6.6.6", "guess", f"someone{n}") for n in range(20)]
        assert refused == [429] * 20 and seen == [] and checked == []
        # The owner, from their usual address: the lookup, one hash, a session.
        with account_statements(engine) as seen:
            assert _log_in(client, "10.0.0.1", PASSWORD) == 200
        assert any("users" in sql for sql in seen) and checked == [PASSWORD]


def test_the_window_frees_and_a_right_password_takes_its_failure_back() -> None:
    now = [1_000.0]
    throttle = LocalLoginThrottle(lambda: now[0])
    owner = throttle.begin_now("ana", "10.0.0.1")  # the owner signs in from their address
    assert isinstance(owner, Attempt)
    throttle.succeeded_now(owner)
    attempts = [throttle.begin_now("ana", "10.6.6.6") for _ in range(MAX_FAILURES_PER_ACCOUNT)]
    assert throttle.failures("ana", "10.6.6.6") == (5, 5)
    refused = throttle.begin_now("Ana", "10.6.6.6")  # the same account, whatever its case
    assert getattr(refused, "retry_after", None) == 300
    assert getattr(throttle.begin_now("ana", "10.5.5.5"), "retry_after", None) == 300
    clean = throttle.begin_now("ana", "10.0.0.1")  # the owner's known address is let through
    assert getattr(clean, "id", None) is not None
    throttle.succeeded_now(clean)  # ... and its right password takes its failure back
    assert throttle.failures("ana", "10.0.0.1") == (0, 5)
    throttle.succeeded_now(attempts[0])  # one of the five was the owner after all
    assert hasattr(throttle.begin_now("ana", "10.6.6.6"), "id")  # now the owner's address
    now[0] += 200
    assert getattr(throttle.begin_now("ana", "10.5.5.5"), "retry_after", None) == 100
    now[0] += 101  # the first failures left the window
    assert hasattr(throttle.begin_now("ana", "10.5.5.5"), "id")


def test_a_failing_address_is_refused_before_routing_and_body_parsing(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 17's attack bench: a burst of 40 guesses held the event loop for a whole route
    each (1.9 ms of CPU). Once the address is over its limit the middleware answers: the
    route never runs (a body its validation would refuse with 422 gets the same 429), and the address's
    neighbours and the account's owner are untouched."""
    accounts = app.state.services.accounts
    routed: list[str] = []
    real_log_in = accounts.log_in_async

    async def counted(username: str, password: str, ip: str) -> object:
        routed.append(ip)
        return await real_log_in(username, password, ip)

    monkeypatch.setattr(accounts, "log_in_async", counted)
    with _client(app) as client:
        assert client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
        client.cookies.clear()
        for n in range(MAX_FAILURES_PER_ADDRESS):
            assert _log_in(client, "10.6.6.6", "guess", f"nobody{n}") == 401
        assert len(routed) == MAX_FAILURES_PER_ADDRESS
        routed.clear()
        assert [_log_in(client, "10.6.6.6", PASSWORD) for _ in range(10)] == [429] * 10
        malformed = client.post(  # no password: the route's validation would answer 422
            "/api/session", json={"username": "ana"}, headers={"X-Forwarded-For": "10.6.6.6"}
        )
        assert malformed.status_code == 429 and malformed.json()["error"] == "too_many_attempts"
        assert routed == []
        # Another address is routed as usual, and the owner signs in.
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200
        assert routed == ["10.0.0.1"]


def test_an_account_over_its_limit_is_still_decided_by_the_route() -> None:
    """Only the address's own limit is known before routing: an account's limit needs the
    username, in the body, so the route decides it (and lets a clean address through)."""
    throttle = LocalLoginThrottle(lambda: 1_000.0)
    for _ in range(MAX_FAILURES_PER_ACCOUNT):
        throttle.begin_now("ana", "10.6.6.6")
    assert throttle.known_address_refusal("10.6.6.6") is None  # 5 of 20 from it
    assert throttle.known_address_refusal("10.9.9.9") is None  # never seen: no key made
    assert throttle.failures("ana", "10.9.9.9") == (0, 5)
    for n in range(MAX_FAILURES_PER_ADDRESS - MAX_FAILURES_PER_ACCOUNT):
        throttle.begin_now(f"nobody{n}", "10.6.6.6")
    refused = throttle.known_address_refusal("10.6.6.6")
    assert refused is not None and refused.retry_after == 300
