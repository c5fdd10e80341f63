"""R-TM-04 and R-BA-03 over the live server: real accounts, the real HTTP routes and table
WebSocket, the room clocks 300 times faster (``live_server.SPEED``: the two minutes of
absence are 0.4 s)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets
from fastapi import FastAPI
from test_ahiko_leave_and_return_live import Player

from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_NAME
from ahiko.wallet.check import check_ledger
from live_server import SPEED

ABSENCE_S = 120 / SPEED  # R-TM-03's two minutes, on the fast clock


async def spectator(address: str, room_id: str) -> Any:
    return await websockets.connect(
        f"ws://{address}/ws/rooms/{room_id}",
        additional_headers={"Origin": f"http://{address}"},
    )


async def frames_until(ws: Any, predicate: Any, seen: list[dict[str, Any]]) -> dict[str, Any]:
    for _ in range(5000):
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        seen.append(frame)
        if predicate(frame):
            return frame
    raise AssertionError("the frame never came")


def test_R_TM_04_live_an_absentee_folds_after_the_absence_deadline(
    account_server: tuple[str, FastAPI],
) -> None:
    """A recreational room without a deadline, three real accounts. caio, the big blind,
    disconnects as the cards come; ana and bia wait past the two minutes of absence before
    acting. At caio's turn (he could check) he folds: he cannot reach the showdown."""
    address, _app = account_server

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        ana, bia, caio = (Player(address, "") for _ in range(3))
        for player, name in ((ana, "ana"), (bia, "bia"), (caio, "caio")):
            await player.sign_up(name)
        made = await ana.http.post("/api/rooms", json={"name": "ausente", "seats": 3})
        assert made.status_code == 201, made.text
        room_id = made.json()["id"]
        for seat, player in enumerate((ana, bia, caio)):
            player.room_id = room_id
            await player.open()
            sit = await player.send("sit", seat=seat)
            await player.until(lambda f, sit=sit: f.get("id") == sit, play=False)
        await ana.send("start")
        dealt = await caio.until(lambda f: f["t"] == "hand" and f["view"]["viewer"] == 2, False)
        assert dealt["view"]["dealt_seats"] == [1, 2, 0]  # seat 2 is the big blind
        await caio.ws.close()  # gone, and not back
        await asyncio.sleep(3 * ABSENCE_S)  # the withdrawal begins while ana ponders
        over = await asyncio.gather(
            *(
                p.until(lambda f: f["t"] == "hand" and f["view"]["result"] is not None)
                for p in (ana, bia)
            )
        )
        for player in (ana, bia):
            await player.ws.close()
            await player.http.aclose()
        await caio.http.aclose()
        return over[0], ana.frames

    final, frames = asyncio.run(asyncio.wait_for(scenario(), 60))
    view = final["view"]
    caio_seat = next(s for s in view["seats"] if s["seat"] == 2)
    assert caio_seat["status"] == "folded"
    events = [e for f in frames if f["t"] == "hand" for e in f["events"]]
    caio_acts = [e["action"] for e in events if e["kind"] == "action" and e["seat"] == 2]
    assert caio_acts == ["fold"]  # his first turn came after the withdrawal: a fold
    assert all(2 not in pot["winners"] for pot in view["result"]["pots"])


def test_R_BA_03_live_the_bot_leaves_when_the_person_disconnects(
    account_server: tuple[str, FastAPI],
) -> None:
    """Alone at Iniciante, ana is joined by the Bot Ahiko, then disconnects. A spectator
    sees the bot stand up between hands while ana's seat is still hers (her own withdrawal
    comes two minutes later): the bot does not sit beside a disconnected person."""
    address, app = account_server
    rooms = httpx.get(f"http://{address}/api/ahiko/rooms").json()
    room_id = next(r for r in rooms if r["tier"] == "iniciante")["id"]

    async def scenario() -> list[dict[str, Any]]:
        ana = Player(address, room_id)
        await ana.sign_up("ana")
        await ana.open()
        assert (await ana.recv())["t"] == "snapshot"
        watcher = await spectator(address, room_id)
        seen: list[dict[str, Any]] = []
        bought = await ana.post("buy_in", {"seat": 0, "amount": 150, "key": "k"})
        assert bought.status_code == 200, bought.text

        def names(frame: dict[str, Any]) -> set[str]:
            return {s["name"] for s in frame["room"]["seats"]}

        await frames_until(watcher, lambda f: f["t"] == "room" and BOT_AHIKO_NAME in names(f), seen)
        await ana.ws.close()
        gone = await frames_until(
            watcher, lambda f: f["t"] == "room" and BOT_AHIKO_NAME not in names(f), seen
        )
        await watcher.close()
        await ana.http.aclose()
        return [gone]

    [gone] = asyncio.run(asyncio.wait_for(scenario(), 60))
    seats = gone["room"]["seats"]
    ana_seat = [s for s in seats if s["seat"] == 0]
    assert ana_seat and ana_seat[0]["name"] == "ana"  # still seated: only the bot left
    assert ana_seat[0]["connected"] is False
    assert check_ledger(app.state.services.engine) == []
