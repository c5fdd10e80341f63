"""The hand options over real sockets (issue 43): a heads-up hand both all-in players agree
to run twice, and a three-handed bomb pot on two boards. Each room deals one hand; then the
chips are all there, the room's ledger balances, and the proof a watcher builds from the
frames it received (the commitment, then every opening) verifies with ``ahiko verify``'s
verifier and tools/verify_proof.py, the second board included; a tampered second board
does not."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from rooms_live import Client, build_app

from ahiko.fairness.positions import ROLE_BOARD2
from ahiko.fairness.proof import PROOF_FORMAT, dumps_proof
from ahiko.fairness.verify import CONSISTENT, INCONSISTENT, verify_text
from ahiko.server.errors import install_error_handlers
from live_server import serving

TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_proof.py"
ANSWER_S = 3600.0  # the answers, not the clock, decide (the live clock runs 300x faster)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    app = build_app()
    install_error_handlers(app)
    with serving(app) as port:
        yield f"127.0.0.1:{port}", app


async def _open_room(http: httpx.AsyncClient, app: FastAPI, options: dict[str, Any]) -> str:
    created = await http.post(
        "/api/rooms",
        json={"name": "Casa", "starting_chips": 300, "limit_hands": 1, "options": options},
        headers={"x-player": "ana"},
    )
    assert created.status_code == 201, created.text
    room_id = str(created.json()["id"])
    assert created.json()["hand_options"]["run_twice"] is options.get("run_twice", False)
    room = app.state.room_registry.get(room_id).room
    timing = dataclasses.replace(room.config.timing, run_twice_answer_s=ANSWER_S)
    room.config = dataclasses.replace(room.config, timing=timing)  # before it starts
    return room_id


class Shover(Client):
    """Shoves (or calls the shove) and answers "twice" when asked to run it twice."""

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = await super().recv(timeout)
        if frame["t"] == "runs_asked" and self.seat in frame["seats"]:
            await self.send("choose_runs", runs=2)
        return frame

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        if legal["bet_kind"] and legal["max_to"] > legal["committed"] + legal["call_cost"]:
            return {"action": legal["bet_kind"], "amount": legal["max_to"]}
        return {"action": "call" if legal["call_cost"] else "check"}


async def _watch(watcher: Client) -> dict[str, Any]:
    """The proof of hand 1 as the watcher's browser would write it."""
    commitment: dict[str, Any] | None = None
    cards: list[dict[str, Any]] = []
    while True:
        frame = await watcher.recv(60)
        if frame["t"] == "closed":
            break
        if frame["t"] == "commitment" and frame["hand_no"] == 1:
            commitment = frame["commitment"]
        if frame["t"] == "hand" and frame["hand_no"] == 1:
            cards.extend(frame.get("openings") or [])
    assert commitment is not None
    return {"format": PROOF_FORMAT, "commitment": commitment, "cards": cards}


async def _play(address: str, app: FastAPI, options: dict[str, Any], seats: int) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
        room_id = await _open_room(http, app, options)
    players: list[Client] = []
    kind = Shover if options.get("run_twice") else Client
    for seat, pid in enumerate(["ana", "bia", "cai"][:seats]):
        client = kind(address, room_id, pid, seed=seat)
        await client.open()
        sit = await client.send("sit", seat=seat)
        await client.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
        client.seat = seat
        players.append(client)
    watcher = Client(address, room_id, None, seed=9)
    await watcher.open()
    start = await players[0].send("start")
    watching = asyncio.create_task(_watch(watcher))
    await asyncio.gather(*(p.play(stop_kinds=("closed",)) for p in players))
    proof = await watching
    assert any(f.get("id") == start and f["t"] == "ack" for f in players[0].frames)
    for client in (*players, watcher):
        await client.close()
    return room_id, dumps_proof(proof)


def _checked(app: FastAPI, room_id: str, raw: str, tmp_path: Path) -> Any:
    room = app.state.room_registry.get(room_id).room
    hand = room.dealer.last_hand
    held = sum(o.stack for _, o in room.seats.items())
    assert room.chips_in == held + room.chips_out  # no chip created or lost
    report = room.host_desk.report()
    assert sum(line["net"] for line in report["players"]) == 0  # the room's ledger balances
    assert verify_text(raw).verdict == CONSISTENT
    path = tmp_path / "proof.json"
    path.write_text(raw)
    tool = subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True)
    assert tool.returncode == 0, tool.stdout
    document = json.loads(raw)
    second = [card for card in document["cards"] if card["role"] == ROLE_BOARD2]
    assert len(second) == 5 and len(hand.second_board) == 5
    tampered = copy.deepcopy(document)
    board2 = next(c for c in tampered["cards"] if c["role"] == ROLE_BOARD2)
    board2["card"] = "As" if board2["card"] != "As" else "Kd"
    assert verify_text(dumps_proof(tampered)).verdict == INCONSISTENT
    return hand


def test_R_HE_11_a_hand_run_twice_over_sockets(server: tuple[str, FastAPI], tmp_path: Path) -> None:
    address, app = server
    room_id, raw = asyncio.run(_play(address, app, {"run_twice": True}, seats=2))
    hand = _checked(app, room_id, raw, tmp_path)
    kinds = [e.kind for e in hand.hand.events]
    assert kinds.count("runout_chosen") == 2 and "pot_split" in kinds


def test_a_bomb_pot_on_a_double_board_over_sockets(
    server: tuple[str, FastAPI], tmp_path: Path
) -> None:
    address, app = server
    options = {"bomb_pot_ante": 20, "bomb_pot_every": 1, "bomb_pot_double_board": True}
    room_id, raw = asyncio.run(_play(address, app, options, seats=3))
    hand = _checked(app, room_id, raw, tmp_path)
    assert hand.config.bomb_pot == 20 and hand.config.boards == 2
    assert "pot_split" in [e.kind for e in hand.hand.events]


def test_a_wrong_option_at_creation_is_named_in_the_players_language(
    server: tuple[str, FastAPI],
) -> None:
    address, _app = server

    async def create(language: str) -> httpx.Response:
        async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
            return await http.post(
                "/api/rooms",
                json={"name": "Casa", "variant": "plo", "options": {"seven_deuce": 5}},
                headers={"x-player": "ana", "accept-language": language},
            )

    pt, en = asyncio.run(create("pt-BR,pt;q=0.9")), asyncio.run(create("en-US"))
    assert pt.status_code == en.status_code == 422
    assert pt.json()["error"] == en.json()["error"] == "invalid_option"
    assert "sete-dois" in pt.json()["message"] and "seven-deuce" in en.json()["message"]
