"""Issue 17: no account can flood the site. The red team's account created 2,000 rooms in 3 s,
its rooms nobody joined never closed (an 865 KB lobby), 600 of its sockets were accepted, and
a signed-out session's socket kept playing. Each attacked here the same way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from security_app import FAST_HASHER, PASSWORD
from starlette.websockets import WebSocketDisconnect

from ahiko.server.app import create_app
from ahiko.server.limits import LimitsPolicy, SiteLimits
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings


class Ticking:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def ticking() -> Ticking:
    return Ticking()


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path, ticking: Ticking) -> Iterator[FastAPI]:
    found = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url),
        password_hasher=FAST_HASHER,
    )
    found.state.limits = SiteLimits(LimitsPolicy(), clock=ticking)
    found.state.security = replace(
        found.state.security, sign_up=RateLimit(1_000, 1.0), ws_frames=RateLimit(1_000, 1.0)
    )
    yield found
    found.state.services.engine.dispose()


def _signed_in(app: FastAPI, username: str = "ana") -> TestClient:
    client = TestClient(app, headers={CSRF_HEADER: "1"})
    client.__enter__()
    response = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client


def _create(client: TestClient, n: int) -> Any:
    return client.post("/api/rooms", json={"name": f"Mesa {n}"})


def test_the_2001st_room_is_refused_and_so_is_every_room_past_the_bounds(
    app: FastAPI, ticking: Ticking
) -> None:
    client = _signed_in(app)
    policy: LimitsPolicy = app.state.limits.policy
    house_rooms = int(client.get("/api/rooms").headers["x-total-count"])
    statuses = [_create(client, n).status_code for n in range(2_001)]
    assert statuses[: policy.rooms_open_per_account] == [201] * policy.rooms_open_per_account
    assert set(statuses[policy.rooms_open_per_account :]) == {429}
    refused = _create(client, 2_001)
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_rooms"
    lobby = client.get("/api/rooms")
    assert int(lobby.headers["x-total-count"]) == house_rooms + policy.rooms_open_per_account
    # Another account is not held back by the flooder.
    other = _signed_in(app, "bia")
    assert _create(other, 0).status_code == 201
    client.__exit__(None, None, None)
    other.__exit__(None, None, None)


def test_rooms_per_time_window_are_bounded_even_when_closed_again(
    sqlite_url: str, tmp_path: Path, ticking: Ticking
) -> None:
    app = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url),
        password_hasher=FAST_HASHER,
    )
    window = RateLimit(5, 3600.0)
    app.state.limits = SiteLimits(LimitsPolicy(rooms_created=window), clock=ticking)
    client = _signed_in(app)
    made = []
    for n in range(5):
        response = _create(client, n)
        assert response.status_code == 201
        made.append(response.json()["id"])
    for room_id in made:  # close them all: the open bound no longer applies
        with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
            socket.receive_json()
            socket.send_json({"t": "close", "id": "c"})
            _until(socket, "ack")
    refused = _create(client, 6)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    ticking.now += 3_601
    assert _create(client, 7).status_code == 201
    client.__exit__(None, None, None)
    app.state.services.engine.dispose()


def test_rooms_nobody_joined_close_after_a_few_minutes(app: FastAPI, ticking: Ticking) -> None:
    client = _signed_in(app)
    ids = [_create(client, n).json()["id"] for n in range(3)]
    with client.websocket_connect(f"/ws/rooms/{ids[0]}") as socket:  # a person joins one
        socket.receive_json()
    registry = app.state.room_registry
    limits: SiteLimits = app.state.limits

    async def sweep() -> list[str]:
        return await limits.sweep(registry)

    portal = client.portal
    assert portal is not None
    ticking.now += 60
    assert portal.call(sweep) == []  # a minute is not "a few minutes"
    ticking.now += limits.policy.unjoined_room_seconds
    assert sorted(portal.call(sweep)) == sorted(ids[1:])
    listed = {room["id"] for room in client.get("/api/rooms").json()}
    assert ids[0] in listed and not listed & set(ids[1:])
    assert registry.get(ids[1]) is None and registry.get(ids[0]) is not None
    assert _create(client, 9).status_code == 201  # the closed ones no longer count
    client.__exit__(None, None, None)


def test_the_lobby_is_paged(app: FastAPI) -> None:
    app.state.limits = SiteLimits(
        LimitsPolicy(rooms_open_per_account=200, rooms_created=RateLimit(200, 3600.0))
    )
    client = _signed_in(app)
    for n in range(120):
        assert _create(client, n).status_code == 201
    first = client.get("/api/rooms")
    total = int(first.headers["x-total-count"])
    assert total >= 120 and len(first.json()) == 50
    assert int(first.headers["x-pages"]) == -(-total // 50)
    pages = [client.get("/api/rooms", params={"page": n}).json() for n in (1, 2, 3)]
    ids = [room["id"] for page in pages for room in page]
    assert len(ids) == len(set(ids)) == total
    assert client.get("/api/rooms", params={"per_page": 101}).status_code == 422
    client.__exit__(None, None, None)


def _until(socket: Any, kind: str) -> dict[str, Any]:
    for _ in range(100):
        frame: dict[str, Any] = socket.receive_json()
        if frame.get("t") == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def test_sockets_per_account_and_per_address_are_bounded(app: FastAPI) -> None:
    app.state.limits = SiteLimits(LimitsPolicy(sockets_per_account=3, sockets_per_address=5))
    client = _signed_in(app)
    room_id = client.get("/api/ahiko/rooms").json()[0]["id"]
    url = f"/ws/rooms/{room_id}"
    opened = [client.websocket_connect(url) for _ in range(3)]
    for socket in opened:
        socket.__enter__()
        socket.receive_json()
    with client.websocket_connect(url) as extra:
        refused = extra.receive_json()
        assert refused["code"] == "too_many_sockets" and "per account" in refused["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            extra.receive_json()
        assert closed.value.code == 4429
    # Another account from the same address: two more, then the address is full.
    client.post("/api/accounts", json={"username": "bia", "password": PASSWORD})
    watching = [client.websocket_connect(url) for _ in range(2)]
    for socket in watching:
        socket.__enter__()
        socket.receive_json()
    with client.websocket_connect(url) as extra:
        assert "per address" in extra.receive_json()["message"]
    for socket in opened + watching:
        socket.__exit__(None, None, None)
    with client.websocket_connect(url) as again:  # closed sockets free their places
        assert again.receive_json()["t"] != "error"
    assert app.state.limits.sockets_open("1") <= 1
    client.__exit__(None, None, None)


def test_signing_out_closes_the_players_sockets_and_a_revoked_socket_cannot_play(
    app: FastAPI,
) -> None:
    client = _signed_in(app)
    response = client.post("/api/rooms", json={"name": "Mesa"})
    room_id = response.json()["id"]
    with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        socket.receive_json()
        assert client.delete("/api/session").status_code == 204
        with pytest.raises(WebSocketDisconnect) as closed:
            _until(socket, "never")
        assert closed.value.code == 4401
    room = client.get(f"/api/rooms/{room_id}").json()
    assert all(seat is None or seat.get("player_id") is None for seat in room.get("seats", []))
    client.__exit__(None, None, None)


def test_a_revoked_connection_is_refused_sit_act_and_bots() -> None:
    from ahiko.server.gateway import SIGNED_OUT, SocketConnection, _handle
    from ahiko.server.services import Player

    class Actor:
        room_epoch = "run-1"  # the room's run, named in the gateway's answers

        def __init__(self) -> None:
            self.asked: list[Any] = []

        async def ask(self, command: Any) -> Any:
            self.asked.append(command)
            raise AssertionError("a revoked socket reached the room")

    queue: asyncio.Queue[Any] = asyncio.Queue()  # the socket's frames (and the sign-out)
    connection = SocketConnection(Player("1", "ana"), queue)
    connection.revoke()
    actor = Actor()
    frames = [
        '{"t": "sit", "seat": 0, "id": "a"}',
        '{"t": "act", "hand_no": 1, "action": "fold", "id": "b"}',
        '{"t": "add_bot", "level": "easy", "seat": 1, "id": "c"}',
    ]
    for text in frames:
        asyncio.run(_handle(text, actor, Player("1", "ana"), connection))  # type: ignore[arg-type]
    queued = [queue.get_nowait() for _ in range(queue.qsize())]
    sent = [json.loads(item.text()) for item in queued if item and item is not SIGNED_OUT]
    errors = [frame for frame in sent if frame.get("t") == "error"]
    assert [frame["code"] for frame in errors] == ["not_signed_in"] * 3
    assert {frame["epoch"] for frame in errors} == {"run-1"}
    assert actor.asked == []
