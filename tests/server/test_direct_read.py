"""The table socket's direct read (issue 21): once a socket is connected, the server hands its
text frames to the gateway as they are parsed (``ahiko.server.ws_protocol.RAW_READ``), not
through ASGI's ``receive`` chain, and the gateway still sends them to the room one at a time,
in the order they came, each answered once; frames waiting behind a command never reach the
room once the socket is done, and a room that fails on a command closes the socket (1011), as
on the ASGI path."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from websockets.sync.client import connect

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Reply
from ahiko.server.errors import WS_INTERNAL_ERROR
from ahiko.server.gateway import SocketConnection, _DirectReader
from ahiko.server.services import CSRF_HEADER, Player
from ahiko.server.settings import Settings
from ahiko.server.ws_protocol import AhikoWebSocketProtocol
from live_server import fast_app, serving


class CountingProtocol(AhikoWebSocketProtocol):
    """``ahiko serve``'s protocol, counting the text frames each way reaches the app."""

    direct: ClassVar[int] = 0
    through_receive: ClassVar[int] = 0

    def read_text(self, reader: Callable[[str], None]) -> None:
        def counted(text: str) -> None:
            CountingProtocol.direct += 1
            reader(text)

        super().read_text(counted)

    def send_receive_event_to_app(self) -> None:
        if self._text_reader is None and self.curr_msg_data_type == "text":
            CountingProtocol.through_receive += 1
        super().send_receive_event_to_app()


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[str]:
    app = fast_app(Settings(data_dir=tmp_path / "data", database_url=sqlite_url))
    try:
        with serving(app, ws=CountingProtocol) as port:
            yield f"127.0.0.1:{port}"
    finally:
        app.state.services.engine.dispose()


def _answers(ws: Any, ids: set[str]) -> list[dict[str, Any]]:
    """The acks and errors that answer ``ids``, in the order they arrive."""
    found: list[dict[str, Any]] = []
    while len(found) < len(ids):
        frame = json.loads(ws.recv(timeout=10))
        if frame["t"] in ("ack", "error") and frame.get("id") in ids:
            found.append(frame)
    return found


def test_frames_sent_back_to_back_are_read_directly_and_answered_once_each_in_order(
    server: str,
) -> None:
    http = httpx.Client(base_url=f"http://{server}", headers={CSRF_HEADER: "1"})
    made = http.post("/api/accounts", json={"username": "ana", "password": "correct horse"})
    assert made.status_code == 201, made.text
    room = http.post("/api/rooms", json={"name": "Mesa"})
    assert room.status_code == 201, room.text
    cookie = f"ahiko_session={http.cookies['ahiko_session']}"
    url = f"ws://{server}/ws/rooms/{room.json()['id']}"
    with connect(url, additional_headers={"Cookie": cookie}) as ws:
        assert json.loads(ws.recv(timeout=10))["t"] == "snapshot"
        ws.send(json.dumps({"t": "snapshot", "id": "first"}))
        assert _answers(ws, {"first"})[0]["t"] == "ack"
        direct, through_receive = CountingProtocol.direct, CountingProtocol.through_receive
        sent: list[tuple[str, str]] = []  # (id, what the answer must be)
        for n in range(24):
            frame_id = f"f{n}"
            if n % 4 == 0:
                frame, expected = {"t": "snapshot", "id": frame_id}, "ack"
            elif n % 4 == 1:  # the gateway answers it; the room never sees it
                frame, expected = {"t": "no-such-frame", "id": frame_id}, "error:malformed"
            elif n == 2:
                frame, expected = {"t": "sit", "id": frame_id, "seat": 1}, "ack"
            elif n % 4 == 2:  # the room refuses it: the player sits already
                frame, expected = {"t": "sit", "id": frame_id, "seat": 2}, "error"
            else:
                frame, expected = {"t": "sit_out", "id": frame_id, "on": n % 8 == 3}, "ack"
            ws.send(json.dumps(frame))
            sent.append((frame_id, expected))
        answers = _answers(ws, {frame_id for frame_id, _ in sent})
    assert [a["id"] for a in answers] == [frame_id for frame_id, _ in sent]
    for answer, (frame_id, expected) in zip(answers, sent, strict=True):
        kind, _, code = expected.partition(":")
        assert answer["t"] == kind, (frame_id, answer)
        assert not code or answer["code"] == code, (frame_id, answer)
    assert CountingProtocol.direct - direct == len(sent)
    assert CountingProtocol.through_receive == through_receive


# --- the reader itself, against a room that answers when the test says -----------------------


class HeldRoom:
    """A room door whose answers the test releases one by one (``submit`` as RoomActor's)."""

    epoch = "e1"

    def __init__(self) -> None:
        self.submitted: list[tuple[c.Command, Callable[[Reply | Exception], None]]] = []

    def submit(self, command: c.Command, then: Callable[[Reply | Exception], None]) -> None:
        self.submitted.append((command, then))


def stamped(reply: Reply) -> Reply:
    """As RoomActor stamps a reply: the room's last frame and its run."""
    return dataclasses.replace(reply, seq=1, epoch=HeldRoom.epoch)


class ClosedSocket:
    def __init__(self) -> None:
        self.closed: list[tuple[int, str]] = []

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed.append((code, reason))


def _reader() -> tuple[_DirectReader, HeldRoom, ClosedSocket, SocketConnection]:
    room, socket = HeldRoom(), ClosedSocket()
    connection = SocketConnection(Player("p1", "ana"), asyncio.Queue())
    return (
        _DirectReader(socket, room, connection.account, connection, None),
        room,
        socket,
        connection,
    )  # type: ignore[arg-type]


def _sent(connection: SocketConnection) -> list[dict[str, Any]]:
    found = []
    while not connection.queue.empty():
        frame = connection.queue.get_nowait()
        assert frame is not None and not isinstance(frame, str)
        found.append(json.loads(frame.text()))
    return found


def test_one_command_at_a_time_and_nothing_reaches_the_room_after_the_socket_is_done() -> None:
    async def scenario() -> None:
        reader, room, _, connection = _reader()
        for seat in (1, 2, 3):
            reader.on_text(json.dumps({"t": "sit", "id": f"s{seat}", "seat": seat}))
        assert [command.seat for command, _ in room.submitted] == [1]  # type: ignore[attr-defined]
        room.submitted[0][1](stamped(Reply.accepted()))
        assert [command.seat for command, _ in room.submitted] == [1, 2]  # type: ignore[attr-defined]
        reader.stop()
        room.submitted[1][1](stamped(Reply.refused("seated", "you sit already")))
        assert len(room.submitted) == 2  # s3 waited, and the socket is done
        reader.on_text(json.dumps({"t": "sit", "id": "late", "seat": 4}))
        assert len(room.submitted) == 2
        answers = [(f["t"], f["id"]) for f in _sent(connection)]
        assert answers == [("ack", "s1"), ("error", "s2")]

    asyncio.run(scenario())


def test_a_room_that_fails_on_a_command_closes_the_socket_with_1011() -> None:
    async def scenario() -> None:
        reader, room, socket, connection = _reader()
        reader.on_text(json.dumps({"t": "sit", "id": "a", "seat": 1}))
        reader.on_text(json.dumps({"t": "sit", "id": "b", "seat": 2}))
        room.submitted[0][1](RuntimeError("a bug"))
        await asyncio.sleep(0)
        assert socket.closed == [(WS_INTERNAL_ERROR, "internal")]
        assert len(room.submitted) == 1 and _sent(connection) == []

    asyncio.run(scenario())
