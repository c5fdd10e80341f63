"""Every frame the gateway sends keeps its type: a whole hand of each game (hold'em,
Pot-Limit Omaha, five-card draw) over real WebSockets, with the gateway's check on
(``AHIKO_VALIDATE_FRAMES``, as the whole suite runs), every frame checked on its way out and
again as the client reads it; and a frame its type does not describe is not sent."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from fastapi import FastAPI
from rooms_live import live_server
from test_rooms_live_games import conserved, create, seat_people

from ahiko.rooms.outbox import Frame
from ahiko.server import gateway
from ahiko.server import protocol as p


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    with live_server() as running:
        yield running


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The frame types the gateway checked before sending them (and any it refused)."""
    seen: Counter[str] = Counter()
    check = p.check_outbound

    def counting(frame: Mapping[str, Any] | bytes) -> None:
        try:
            check(frame)
        except p.OutboundFrameError:
            seen["refused"] += 1
            raise
        seen[Frame.from_json(frame).t if isinstance(frame, bytes) else str(frame["t"])] += 1

    assert p.frames_checked(), "the suite runs with AHIKO_VALIDATE_FRAMES=1 (tests/conftest.py)"
    monkeypatch.setattr(p, "check_outbound", counting)
    gateway._checked_frames.clear()
    return seen


@pytest.mark.parametrize("variant", ["holdem", "plo", "draw"])
def test_a_whole_hand_of_each_game_keeps_the_frame_types(
    server: tuple[str, FastAPI], checked: Counter[str], variant: str
) -> None:
    address, app = server
    room_id = create(address, "ana", name=f"tipos {variant}", variant=variant, limit_hands=1)

    async def game() -> list[dict[str, Any]]:
        ana, bia = await seat_people(address, room_id, ["ana", "bia"])
        await ana.send("add_bot", level="random")
        started = await ana.send("start")
        await ana.until(lambda f: f.get("id") == started)
        await asyncio.gather(ana.play(), bia.play())
        for client in (ana, bia):
            await client.close()
        return ana.frames + bia.frames

    received = asyncio.run(game())
    assert received[-1]["t"] == "closed"
    assert app.state.room_registry.get(room_id).room.dealer.hands_dealt == 1
    conserved(app, room_id)
    for frame in received:  # and as the client read them
        p.SERVER_FRAME.validate_python(frame)
    assert checked["refused"] == 0
    for kind in ("snapshot", "room", "commitment", "hand", "closed", "ack"):
        assert checked[kind] > 0, (kind, checked)


def test_a_frame_its_type_does_not_describe_is_not_sent() -> None:
    queue: asyncio.Queue[Frame | str | None] = asyncio.Queue()
    connection = gateway.SocketConnection(None, queue, checked=True)
    wrong = Frame("closed", 3, {"reason": "host", "stacks": {"ana": "a lot"}}, "epoch")
    with pytest.raises(p.OutboundFrameError, match="'closed' frame does not keep its type"):
        connection.deliver(wrong)
    assert queue.empty()
    unchecked = gateway.SocketConnection(None, queue)  # a site's: no check on the hot path
    unchecked.deliver(wrong)
    assert queue.get_nowait() is wrong
