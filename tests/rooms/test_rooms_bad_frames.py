"""Bad client frames over the real WebSocket each get an error frame and change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from rooms_live import Client, live_server


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    with live_server() as running:
        yield running


def test_R_HE_06_bad_frames_get_errors_naming_the_problem_and_change_nothing(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    response = httpx.post(
        f"http://{address}/api/rooms", json={"name": "bad"}, headers={"x-player": "ana"}
    )
    room_id = response.json()["id"]
    room = app.state.room_registry.get(room_id).room

    async def scenario() -> list[dict[str, Any]]:
        ana, bia = Client(address, room_id, "ana", 0), Client(address, room_id, "bia", 1)
        spectator = Client(address, room_id, None, 2)
        for client in (ana, bia, spectator):
            await client.open()
            await client.recv()
        for client, seat in ((ana, 0), (bia, 1)):
            sit = await client.send("sit", seat=seat)
            await client.until(lambda f, sit=sit: f.get("id") == sit)
        await ana.send("start")
        frame = await ana.until(lambda f: f["t"] == "hand" and f["view"]["to_act"] is not None)
        hand_no, view = frame["hand_no"], frame["view"]
        mover = ana if view["to_act"] == 0 else bia
        waiter = bia if mover is ana else ana
        legal = (
            (await mover.until(lambda f: f["t"] == "hand"))["view"]["legal"]
            if mover is bia
            else view["legal"]
        )
        before = (
            room.broadcast.seq,
            dict(room.dealer.hand.hand.stacks),
            len(room.dealer.hand.hand.events),
        )
        errors = []

        async def expect_error(client: Client, raw: str | None = None, **frame: Any) -> None:
            if raw is not None:
                await client.ws.send(raw)
            else:
                await client.send(frame.pop("t"), **frame)
            errors.append(await client.until(lambda f: f["t"] == "error"))

        await expect_error(mover, raw="{not json")
        await expect_error(mover, raw='{"t": "teleport", "id": "x1"}')
        await expect_error(mover, t="act", hand_no=hand_no, action="raise", amount="lots")
        await expect_error(waiter, t="act", hand_no=hand_no, action="call")  # out of turn
        await expect_error(
            mover, t="act", hand_no=hand_no, action="raise", amount=legal["max_to"] + 1
        )  # out of bounds
        await expect_error(
            mover, t="act", hand_no=hand_no, action="call", seat=1 - view["to_act"]
        )  # another seat
        await expect_error(mover, t="act", hand_no=hand_no + 7, action="call")  # stale
        await expect_error(spectator, t="act", hand_no=hand_no, action="call")  # not signed in
        after = (
            room.broadcast.seq,
            dict(room.dealer.hand.hand.stacks),
            len(room.dealer.hand.hand.events),
        )
        assert after == before
        for client in (ana, bia, spectator):
            await client.close()
        return errors

    errors = asyncio.run(scenario())
    codes = [e["code"] for e in errors]
    assert codes == [
        "malformed",
        "malformed",
        "malformed",
        "out_of_turn",
        "illegal_action",
        "not_your_seat",
        "stale_hand",
        "not_signed_in",
    ]
    assert errors[4]["rule"] == "R-HE-07" or errors[4]["rule"].startswith("R-")
    assert errors[3]["rule"] == "R-HE-05"
    assert all(e["message"] for e in errors)
