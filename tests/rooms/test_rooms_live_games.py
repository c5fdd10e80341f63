"""Full games over real WebSockets (uvicorn on loopback), the rule clocks 2000x faster."""

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


def create(address: str, host: str, **body: Any) -> str:
    response = httpx.post(f"http://{address}/api/rooms", json=body, headers={"x-player": host})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def conserved(app: FastAPI, room_id: str) -> None:
    room = app.state.room_registry.get(room_id).room
    held = sum(o.stack for _, o in room.seats.items())
    assert room.chips_in == held + room.chips_out


async def seat_people(address: str, room_id: str, people: list[str]) -> list[Client]:
    clients = []
    for i, pid in enumerate(people):
        client = Client(address, room_id, pid, seed=i)
        await client.open()
        assert (await client.recv())["t"] == "snapshot"
        sit = await client.send("sit", seat=i)
        await client.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
        clients.append(client)
    return clients


def test_R_RM_03_two_people_and_two_bots_play_50_holdem_hands(server: tuple[str, FastAPI]) -> None:
    address, app = server
    room_id = create(address, "ana", name="e2e", limit_hands=50)

    async def game() -> list[Client]:
        ana, bia = await seat_people(address, room_id, ["ana", "bia"])
        for _ in range(2):
            await ana.send("add_bot", level="random")
        started = await ana.send("start")
        await ana.until(lambda f: f.get("id") == started)
        await asyncio.gather(ana.play(), bia.play())
        for client in (ana, bia):
            await client.close()
        return [ana, bia]

    ana, _ = asyncio.run(game())
    closed = ana.frames[-1]
    assert closed["t"] == "closed" and closed["reason"] == "limit"
    room = app.state.room_registry.get(room_id).room
    assert room.dealer.hands_dealt == 50
    assert sum(closed["stacks"].values()) == room.chips_in - room.chips_out
    conserved(app, room_id)
    seqs = [f["seq"] for f in ana.frames if f["t"] not in ("ack", "error", "snapshot")]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_R_TN_05_tournament_with_four_bots_and_two_people_plays_to_a_winner(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    room_id = create(address, "ana", name="torneio", kind="tournament", seats=6)

    async def game() -> list[Client]:
        ana, bia = await seat_people(address, room_id, ["ana", "bia"])
        for _ in range(4):
            await ana.send("add_bot", level="random")
        await ana.send("start")
        await asyncio.gather(ana.play(), bia.play())
        return [ana, bia]

    ana, _ = asyncio.run(game())
    results = ana.frames[-1]["results"]
    assert ana.frames[-1]["t"] == "tournament_over"
    assert [r["place"] for r in results] == [1, 2, 3, 4, 5, 6]
    room = app.state.room_registry.get(room_id).room
    winner = results[0]["player_id"]
    assert {o.player_id: o.stack for _, o in room.seats.items() if o.stack} == {winner: 6000}
    out = [r["eliminated_in_hand"] for r in results[1:]]
    assert out == sorted(out, reverse=True)
    conserved(app, room_id)


def test_R_DR_09_a_draw_table_plays_50_hands(server: tuple[str, FastAPI]) -> None:
    address, app = server
    room_id = create(address, "ana", name="draw", variant="draw", seats=4, limit_hands=50)

    async def game() -> list[Client]:
        ana, bia = await seat_people(address, room_id, ["ana", "bia"])
        await ana.send("add_bot", level="random")
        await ana.send("start")
        await asyncio.gather(ana.play(), bia.play())
        return [ana, bia]

    ana, _ = asyncio.run(game())
    assert ana.frames[-1]["t"] == "closed"
    assert app.state.room_registry.get(room_id).room.dealer.hands_dealt == 50
    conserved(app, room_id)
