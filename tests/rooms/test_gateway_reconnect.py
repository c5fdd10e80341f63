"""The table socket names every frame by the room's run and number (docs/protocol.md): the
gateway's answers carry the room's ``epoch``, and a socket that comes back with
``?since=N&epoch=E`` gets the frames it missed replayed (a snapshot when ``E`` is another
run of the room)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from test_room_kinds import answer, sign_up


def _until_seq(socket: Any, seq: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while not frames or frames[-1]["seq"] < seq:
        frames.append(socket.receive_json())
    return frames


def test_answers_carry_the_epoch_and_a_reconnect_with_since_replays_the_gap(
    client: TestClient,
) -> None:
    sign_up(client, "ana")
    room = client.post("/api/rooms", json={"name": "Volta"}).json()
    url = f"/ws/rooms/{room['id']}"
    with client.websocket_connect(url) as socket:
        snapshot = socket.receive_json()
        assert snapshot["t"] == "snapshot"
        epoch, seen = snapshot["epoch"], snapshot["seq"]
        assert epoch
    with client.websocket_connect(url) as other:  # the room moves on while the first is away
        assert other.receive_json()["t"] == "snapshot"
        other.send_json({"t": "sit", "id": "s1", "seat": 2})
        sat = answer(other, "s1")
        assert sat["t"] == "ack" and sat["epoch"] == epoch and sat["seq"] > seen
        other.send_json({"t": "sit", "id": "s2", "seat": 3})
        again = answer(other, "s2")
        assert again["t"] == "error" and again["epoch"] == epoch  # refusals name the run too
    with client.websocket_connect(f"{url}?since={seen}&epoch={epoch}") as back:
        replayed = _until_seq(back, sat["seq"])
        assert [f["seq"] for f in replayed] == list(range(seen + 1, sat["seq"] + 1))
        assert all(f["t"] != "snapshot" and f["epoch"] == epoch for f in replayed)
    with client.websocket_connect(f"{url}?since={seen}&epoch=another-run") as stale:
        first = stale.receive_json()
        assert first["t"] == "snapshot" and first["epoch"] == epoch  # not this run's numbers
