"""Issue 17: refused requests are refused before routing, body parsing and the session's
database lookup, with a clear error naming what was wrong, and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ahiko.server.app import create_app, session_token
from ahiko.server.limits import LimitsPolicy, SiteLimits
from ahiko.server.security import RateLimit, json_problem
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path) -> Iterator[FastAPI]:
    found = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url), password_hasher=FAST_HASHER
    )
    yield found
    found.state.services.engine.dispose()


def _counting_lookups(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every session lookup in the database, recorded."""
    accounts = app.state.services.accounts
    looked_up: list[str] = []
    real = accounts.user_for_token

    def counted(token: str) -> Any:
        looked_up.append(token)
        return real(token)

    monkeypatch.setattr(accounts, "user_for_token", counted)
    return looked_up


def test_a_session_refused_a_room_is_refused_again_before_the_route_until_the_window_frees(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    app.state.limits = SiteLimits(
        LimitsPolicy(rooms_open_per_account=10, rooms_created=RateLimit(2, 60.0)), clock
    )
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        signed = client.post("/api/accounts", json={"username": "mallory", "password": "x" * 12})
        assert signed.status_code == 201
        for n in range(2):
            assert client.post("/api/rooms", json={"name": f"Mesa {n}"}).status_code == 201
        rooms_before = len(app.state.room_registry.actors())
        looked_up = _counting_lookups(app, monkeypatch)
        first = client.post("/api/rooms", json={"name": "Mesa 3"})
        assert first.status_code == 429 and first.json()["error"] == "too_many_rooms"
        assert len(looked_up) == 1  # the route ran: the session was looked up
        for n in range(20):  # the flood: answered by the middleware
            again = client.post("/api/rooms", json={"name": f"Flood {n}"})
            assert again.status_code == 429, again.text
            assert again.json()["error"] == "too_many_rooms"
            assert "new rooms per 60 s" in again.json()["message"]
            assert int(again.headers["retry-after"]) >= 1
            assert "content-security-policy" in again.headers  # the wall's headers too
        assert len(looked_up) == 1  # no lookup, no routing for the 20
        assert len(app.state.room_registry.actors()) == rooms_before  # nothing changed
        # Another account is not touched by mallory's refusals.
        other = TestClient(app, headers={CSRF_HEADER: "1"})
        other.post("/api/accounts", json={"username": "bia", "password": "y" * 12})
        assert other.post("/api/rooms", json={"name": "Mesa da Bia"}).status_code == 201
        # The window frees: the next attempt goes through at once.
        clock.now += 61
        assert client.post("/api/rooms", json={"name": "Mesa 4"}).status_code == 201


def test_a_body_that_is_not_json_is_refused_before_the_session_lookup(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        client.post("/api/accounts", json={"username": "ana", "password": "x" * 12})
        rooms_before = len(app.state.room_registry.actors())
        looked_up = _counting_lookups(app, monkeypatch)
        for body in (b'{"name": ', b"{'name': 'x'}", b"\xff\xfe{", b"[1, 2,]"):
            refused = client.post(
                "/api/rooms", content=body, headers={"content-type": "application/json"}
            )
            assert refused.status_code == 422, refused.text
            answer = refused.json()
            assert answer["error"] == "invalid_request"
            assert answer["message"].startswith("the request body is not valid JSON: ")
        assert looked_up == []
        assert len(app.state.room_registry.actors()) == rooms_before
        # Valid JSON still reaches the route (and its own checks).
        made = client.post("/api/rooms", json={"name": "Mesa"})
        assert made.status_code == 201 and len(looked_up) == 1
        # A form is not JSON to the routes either: not the wall's business.
        form = client.post("/api/rooms", content=b"name=x", headers={"content-type": "text/plain"})
        assert form.status_code == 422 and "not valid JSON" not in form.json()["message"]


def test_the_raw_cookie_reader_and_the_json_check() -> None:
    assert session_token([(b"cookie", b"a=1; ahiko_session=tok-en_1; b=2")]) == "tok-en_1"
    assert session_token([(b"cookie", b'ahiko_session="quoted"')]) == "quoted"
    assert session_token([(b"cookie", b"ahiko_session=")]) is None
    assert session_token([(b"cookie", b"other=1"), (b"x", b"ahiko_session=no")]) is None
    assert json_problem(b"") is None and json_problem(b'{"a": [1]}') is None
    assert json_problem(b'{"a": ') == "Expecting value at character 6"


def test_a_socket_over_its_account_bound_is_refused_before_the_session_lookup(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.state.limits = SiteLimits(LimitsPolicy(sockets_per_account=2, sockets_per_address=50))
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        client.post("/api/accounts", json={"username": "mallory", "password": "x" * 12})
        room_id = client.get("/api/ahiko/rooms").json()[0]["id"]
        url = f"/ws/rooms/{room_id}"
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            assert first.receive_json()["t"] == "snapshot"
            assert second.receive_json()["t"] == "snapshot"
            looked_up = _counting_lookups(app, monkeypatch)
            for _ in range(5):  # the flood: answered before the route
                with client.websocket_connect(url) as extra:
                    refused = extra.receive_json()
                    assert refused["t"] == "error" and refused["code"] == "too_many_sockets"
                    assert "per account" in refused["message"]
                    with pytest.raises(WebSocketDisconnect) as closed:
                        extra.receive_json()
                    assert closed.value.code == 4429
            assert looked_up == []
        # Both closed: the account may open one again (through the route).
        with client.websocket_connect(url) as again:
            assert again.receive_json()["t"] == "snapshot"
        assert len(looked_up) == 1
