"""Every way to make an account is rate-limited per address (issue 40): a sign-up path other
than ``POST /api/accounts`` (an invitation link's, which the home-game issue adds) shares the
per-address sign-up window once declared with ``sign_up_path``, an undeclared route cannot
make an account at all, and logged-out watchers of a table count against their address's
socket limit like any socket."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import APIRouter, FastAPI, Request
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect

from ahiko.server.app import create_app
from ahiko.server.limits import LimitsPolicy, SiteLimits
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER, services
from ahiko.server.settings import Settings
from ahiko.server.sign_up_paths import (
    UncountedSignUp,
    is_sign_up,
    mark_request,
    require_counted_sign_up,
    sign_up_path,
)
from ahiko.store.schema import users
from live_server import FAST_HASHER

PASSWORD = "correct horse"
INVITE_PATH = sign_up_path("/api/invites/{code}/accounts")


class Joining(BaseModel):
    username: str
    password: str


def _routes() -> APIRouter:
    """A sign-up through an invitation, declared, and one that was not declared."""
    router = APIRouter()

    @router.post(INVITE_PATH, status_code=201)
    def join_by_invite(code: str, body: Joining, request: Request) -> dict[str, Any]:
        user = services(request).accounts.sign_up(body.username, body.password)
        return {"id": user.id, "invite": code}

    @router.post("/api/undeclared/{code}/join", status_code=201)
    def undeclared(code: str, body: Joining, request: Request) -> dict[str, Any]:
        user = services(request).accounts.sign_up(body.username, body.password)
        return {"id": user.id}

    return router


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path) -> Iterator[FastAPI]:
    found = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url),
        password_hasher=FAST_HASHER,
        routers=[_routes()],
    )
    found.state.security = replace(
        found.state.security, sign_up=RateLimit(2, 3600.0), trusted_proxies=("127.0.0.1",)
    )
    yield found
    found.state.services.engine.dispose()


def _client(app: FastAPI, **options: Any) -> TestClient:
    return TestClient(app, headers={CSRF_HEADER: "1"}, client=("127.0.0.1", 50_000), **options)


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _sign_up(client: TestClient, path: str, username: str, address: str) -> Any:
    return client.post(
        path, json={"username": username, "password": PASSWORD}, headers=_from(address)
    )


def _accounts(app: FastAPI) -> int:
    with app.state.services.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(users)).scalar_one())


def test_a_declared_sign_up_path_shares_the_per_address_sign_up_window(app: FastAPI) -> None:
    assert is_sign_up("POST", "/api/invites/k3y/accounts")
    assert not is_sign_up("GET", "/api/invites/k3y/accounts")
    with _client(app) as client:
        first = _sign_up(client, "/api/accounts", "ana", "10.1.1.1")
        invited = _sign_up(client, "/api/invites/k3y/accounts", "bia", "10.1.1.1")
        assert (first.status_code, invited.status_code) == (201, 201), invited.text
        client.cookies.clear()
        refused = _sign_up(client, "/api/invites/k3y/accounts", "caio", "10.1.1.1")
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert "too many attempts from this address" in refused.json()["message"]
        assert int(refused.headers["retry-after"]) >= 1
        assert _accounts(app) == 2  # nothing made
        elsewhere = _sign_up(client, "/api/invites/k3y/accounts", "caio", "10.2.2.2")
        assert elsewhere.status_code == 201
    operation = app.openapi()["paths"][INVITE_PATH]["post"]
    assert "429" in operation["responses"]  # documented as every sign-up path


def test_an_undeclared_route_cannot_make_an_account(app: FastAPI) -> None:
    with _client(app, raise_server_exceptions=False) as client:
        refused = _sign_up(client, "/api/undeclared/k3y/join", "dora", "10.3.3.3")
    assert refused.status_code == 500, refused.text
    assert _accounts(app) == 0


def test_the_guard_asks_only_inside_a_request_the_wall_saw() -> None:
    def in_request(counted: bool | None) -> None:
        if counted is not None:
            mark_request(counted)
        require_counted_sign_up()

    contextvars.copy_context().run(in_request, None)  # a script, a test: nothing asked
    contextvars.copy_context().run(in_request, True)  # a counted sign-up
    with pytest.raises(UncountedSignUp, match="sign_up_path"):  # what its developer reads
        contextvars.copy_context().run(in_request, False)


def test_logged_out_watchers_of_a_table_are_bounded_per_address(app: FastAPI) -> None:
    app.state.limits = SiteLimits(LimitsPolicy(sockets_per_account=16, sockets_per_address=3))
    with _client(app) as client:
        room_id = client.get("/api/ahiko/rooms").json()[0]["id"]
        url = f"/ws/rooms/{room_id}"
        watching = [client.websocket_connect(url, headers=_from("10.4.4.4")) for _ in range(3)]
        for socket in watching:
            socket.__enter__()
            assert socket.receive_json()["t"] != "error"
        with client.websocket_connect(url, headers=_from("10.4.4.4")) as extra:
            refused = extra.receive_json()
            assert refused["code"] == "too_many_sockets" and "per address" in refused["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == 4429
        # an account signed up from that address is refused there too; elsewhere it is not
        signed = _sign_up(client, "/api/accounts", "eva", "10.5.5.5")
        assert signed.status_code == 201
        with client.websocket_connect(url, headers=_from("10.4.4.4")) as extra:
            assert extra.receive_json()["code"] == "too_many_sockets"
        with client.websocket_connect(url, headers=_from("10.5.5.5")) as other:
            assert other.receive_json()["t"] != "error"
        for socket in watching:
            socket.__exit__(None, None, None)
        with client.websocket_connect(url, headers=_from("10.4.4.4")) as again:
            assert again.receive_json()["t"] != "error"  # closed sockets free their places
