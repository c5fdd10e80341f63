"""The room's ledger of a home game over real sockets (issue 43): a scripted game with rebuys,
the host's chips and blinds and a removed player; the CSV the members download balances."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from rooms_live import Client, build_app

from ahiko.server import api_room_ledger
from ahiko.server.errors import install_error_handlers
from live_server import serving


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    app = build_app()
    app.include_router(api_room_ledger.router)
    install_error_handlers(app)
    with serving(app) as port:
        yield f"127.0.0.1:{port}", app


async def _ledger(http: httpx.AsyncClient, room_id: str, pid: str) -> dict[str, Any]:
    response = await http.get(f"/api/rooms/{room_id}/ledger", headers={"x-player": pid})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def _ask(desk: Client, t: str, **fields: Any) -> dict[str, Any]:
    frame_id = await desk.send(t, **fields)
    answer = await desk.until(lambda f: f.get("id") == frame_id, timeout=30)
    assert answer["t"] == "ack", answer
    return answer


async def _host_runs_the_game(desk: Client, http: httpx.AsyncClient, room_id: str) -> None:
    """Chips for bia and new blinds once two hands are played; once someone rebought, cai
    is removed; once cai is gone, the game ends."""
    await desk.until(lambda f: f["t"] == "room" and f["room"]["hands_dealt"] >= 2, 60)
    await _ask(desk, "host_chips", seat=1, amount=300)
    await _ask(desk, "host_change", small_blind=20, big_blind=40)
    while True:
        frame = await desk.recv(60)
        if frame["t"] != "room":
            continue
        rows = (await _ledger(http, room_id, "ana"))["players"]
        if any(r["rebuys"] for r in rows) and any(r["added"] for r in rows):
            break
    await _ask(desk, "remove_player", seat=2)
    await desk.until(
        lambda f: (
            f["t"] == "room"
            and all(s["player_id"] != "cai" for s in f["room"]["seats"])
            and f["room"]["hand_no"] is None
        ),
        60,
    )
    await _ask(desk, "end_game")


async def _scripted_game(address: str) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
        created = await http.post(
            "/api/rooms",
            json={"name": "Home", "starting_chips": 200, "small_blind": 50, "big_blind": 100},
            headers={"x-player": "ana"},
        )
        assert created.status_code == 201, created.text
        room_id = str(created.json()["id"])
        players = []
        for seat, pid in enumerate(["ana", "bia", "cai"]):
            client = Client(address, room_id, pid, seed=seat)
            await client.open()
            sit = await client.send("sit", seat=seat)
            await client.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
            players.append(client)
        desk = Client(address, room_id, "ana", seed=9)  # the host's menu: a second socket
        await desk.open()
        await _ask(desk, "start")
        await asyncio.gather(_host_runs_the_game(desk, http, room_id), *(p.play() for p in players))
        for client in (*players, desk):
            await client.close()
        stranger = await http.get(f"/api/rooms/{room_id}/ledger.csv", headers={"x-player": "zed"})
        assert stranger.status_code == 404 and stranger.json()["error"] == "not_a_member"
        anonymous = await http.get(f"/api/rooms/{room_id}/ledger.csv")
        assert anonymous.status_code == 401
        download = await http.get(f"/api/rooms/{room_id}/ledger.csv", headers={"x-player": "cai"})
        assert download.status_code == 200
        assert download.headers["content-disposition"] == 'attachment; filename="ledger-Home.csv"'
        report = await _ledger(http, room_id, "bia")
        return download.text, str(report["final"])


def test_ledger_csv_balances_after_rebuys_host_chips_and_a_removed_player(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    text, final = asyncio.run(_scripted_game(address))
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(text))}
    assert list(rows) == ["Ana", "Bia", "Cai", "TOTAL"]
    players = [rows["Ana"], rows["Bia"], rows["Cai"]]
    assert sum(int(r["net"]) for r in players) == 0 == int(rows["TOTAL"]["net"])
    assert int(rows["Bia"]["added"]) == 300
    assert sum(int(r["rebuys"]) for r in players) >= 200  # someone rebought (200 a rebuy)
    assert int(rows["Cai"]["stack"]) == 0  # removed: what cai held left as cashed_out
    for r in players:
        brought = int(r["buy_ins"]) + int(r["rebuys"]) + int(r["added"]) - int(r["removed"])
        assert int(r["net"]) == int(r["cashed_out"]) + int(r["stack"]) - brought
    assert final == "True"
    room = next(a.room for a in app.state.room_registry.actors())
    held = sum(o.stack for _, o in room.seats.items())
    assert room.chips_in == held + room.chips_out
