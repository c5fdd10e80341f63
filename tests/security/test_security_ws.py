"""The table socket's wall (issue 9), against a real server process: foreign origins are
refused, floods and oversized or binary frames close the socket, spectators cannot play."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from live_table import (
    ServerProcess,
    create_room,
    open_socket,
    receive,
    running_server,
    sign_up,
    until,
)
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ahiko.server.security import WS_MAX_FRAME_CHARS

pytestmark = pytest.mark.xdist_group("security_live")


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with running_server() as running:
        yield running


@pytest.fixture(scope="module")
def table(server: ServerProcess) -> dict[str, Any]:
    cookie = sign_up(server, "wshost")
    return {"cookie": cookie, "room_id": create_room(server, cookie)}


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "http://127.0.0.1.evil.example", "null", "file://"]
)
def test_websocket_from_a_foreign_origin_is_refused(
    server: ServerProcess, table: dict[str, Any], origin: str
) -> None:
    with pytest.raises(InvalidStatus) as refused:
        open_socket(server, table["room_id"], table["cookie"], origin=origin)
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize("same_origin", [True, False], ids=["same-origin", "no-origin"])
def test_websocket_from_our_origin_or_a_tool_is_served(
    server: ServerProcess, table: dict[str, Any], same_origin: bool
) -> None:
    origin = f"http://127.0.0.1:{server.port}" if same_origin else None
    with open_socket(server, table["room_id"], table["cookie"], origin=origin) as ws:
        snapshot = receive(ws)
    assert snapshot["t"] == "snapshot" and snapshot["you"]["host"] is True


def test_R_RM_01_a_spectator_socket_cannot_sit_or_act(
    server: ServerProcess, table: dict[str, Any]
) -> None:
    with open_socket(server, table["room_id"]) as ws:
        assert receive(ws)["you"]["player_id"] is None
        for frame in (
            {"t": "sit", "id": "s", "seat": 3},
            {"t": "act", "id": "a", "hand_no": 1, "action": "fold"},
            {"t": "close", "id": "c"},
        ):
            ws.send(json.dumps(frame))
            answer = until(ws, lambda f: f["t"] in ("ack", "error"))
            assert answer["code"] == "not_signed_in" and answer["id"] == frame["id"]
    with open_socket(server, table["room_id"]) as ws:
        room = receive(ws)["room"]
    assert room["seats_taken"] == 0 and room["status"] == "waiting"


def _closed_code(ws: Any) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(1000):
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    return int(closed.value.rcvd.code)


def test_a_frame_flood_closes_the_socket(server: ServerProcess, table: dict[str, Any]) -> None:
    with open_socket(server, table["room_id"], table["cookie"]) as ws:
        receive(ws)
        with contextlib.suppress(ConnectionClosed):  # the close may overtake our sending
            for n in range(500):
                ws.send(json.dumps({"t": "snapshot", "id": f"f{n}"}))
        assert _closed_code(ws) == 1008


def test_binary_frames_close_the_socket(server: ServerProcess, table: dict[str, Any]) -> None:
    with open_socket(server, table["room_id"], table["cookie"]) as ws:
        receive(ws)
        ws.send(b"\x00\x01binary")
        assert _closed_code(ws) == 1003


@pytest.mark.parametrize("size", [WS_MAX_FRAME_CHARS + 1, 5_000, 20_000, 70_000, 1_000_000])
def test_every_frame_above_the_limit_is_refused_the_same_way_1009(
    server: ServerProcess, table: dict[str, Any], size: int
) -> None:
    """The red team's 5 KB frame got an error without its id (so, to its client, no answer)
    while 70 KB and 1 MB frames closed the socket: one limit now, one refusal."""
    with open_socket(server, table["room_id"], table["cookie"]) as ws:
        receive(ws)
        frame = json.dumps({"t": "snapshot", "id": "big"})
        ws.send(frame[:-1] + " " * (size - len(frame)) + "}")
        assert _closed_code(ws) == 1009


@pytest.mark.parametrize("size", [100, 1_000, 4_000, WS_MAX_FRAME_CHARS])
def test_every_frame_below_the_limit_is_answered_with_its_id(
    server: ServerProcess, table: dict[str, Any], size: int
) -> None:
    with open_socket(server, table["room_id"], table["cookie"]) as ws:
        receive(ws)
        frame = json.dumps({"t": "snapshot", "id": "fits"})
        ws.send(frame[:-1] + " " * (size - len(frame)) + "}")
        assert until(ws, lambda f: f.get("id") == "fits")["t"] == "ack"
        chat = json.dumps({"t": "chat", "id": "words", "text": "y" * 3_000})
        assert len(chat) <= WS_MAX_FRAME_CHARS
        ws.send(chat)  # too long a line: an error naming its id
        error = until(ws, lambda f: f.get("id") == "words")
        assert error["t"] == "error" and error["code"] == "malformed"
