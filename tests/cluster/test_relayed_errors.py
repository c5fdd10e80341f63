"""Issue 41: a player whose socket is on a node that relays the room gets the same error
frames as on the owner, and keeps the socket. Two real ``ahiko serve --redis-url`` nodes on
one PostgreSQL and one Redis; node A owns the house rooms. Ana is on A (the owner), Bia on B
(through the relay). Each sends a frame that is not JSON, one that is not a frame, an action
with no hand in play and a buy-in-only move; each gets the same ``error`` frames (code,
message, rule, the room's run as ``epoch``), the socket stays open (a snapshot request is
still acknowledged), and node B logs no traceback."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from house_players import Frame, HousePlayer
from nodes import Node, data_folder, house_room

pytestmark = pytest.mark.cluster


async def _errors_for(player: HousePlayer) -> tuple[list[Frame], Frame]:
    """The error frames answering four bad frames, and the ack of a snapshot request after."""
    await player.ws.send("{not json")
    await player.ws.send('["a list", "not a frame"]')
    no_hand = await player.send("act", hand_no=999, action="check")
    not_seated = await player.send("sit_out")
    asked = await player.send("snapshot")
    errors: list[Frame] = []
    while True:
        frame = await player.recv(timeout=60)
        if frame["t"] == "error":
            errors.append(frame)
        elif frame["t"] == "ack" and frame.get("id") == asked:
            break
    assert [e.get("id") for e in errors][2:] == [no_hand, not_seated], errors
    return errors, frame


def _comparable(frame: Frame) -> dict[str, Any]:
    return {k: v for k, v in frame.items() if k != "id" and k != "seq"}


def test_a_relayed_player_gets_the_owners_error_frames_and_keeps_the_socket(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    a = Node("a", redis_url, postgres_url, data).start()
    b = Node("b", redis_url, postgres_url, data)
    try:
        room_id = house_room(a)
        b.start()

        async def scenario() -> None:
            ana, bia = HousePlayer(a.address, room_id), HousePlayer(b.address, room_id)
            answers = []
            for player, name in ((ana, "ana"), (bia, "bia")):
                await player.sign_up(name)
                await player.open()
                snapshot = await player.recv()
                assert snapshot["t"] == "snapshot", snapshot
                answers.append((snapshot, *await _errors_for(player)))
            (snap_a, on_owner, ack_a), (snap_b, relayed, ack_b) = answers
            assert len(on_owner) == len(relayed) == 4
            assert [_comparable(f) for f in relayed] == [_comparable(f) for f in on_owner]
            assert [f["code"] for f in relayed][:2] == ["malformed", "malformed"]
            for frame in relayed:
                assert frame["epoch"] == snap_b["epoch"] == snap_a["epoch"]  # the room's run
                assert isinstance(frame["message"], str) and frame["message"]
            assert ack_b["epoch"] == ack_a["epoch"]
            assert bia.ws.close_code is None  # still open: no 1011
            for player in (ana, bia):
                await player.close()

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        a.stop()
        b.stop()
    assert "Traceback" not in b.log(), b.log()[-3000:]
