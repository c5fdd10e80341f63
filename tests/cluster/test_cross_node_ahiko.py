"""Issue 14, cross-node play at an Ahiko (wallet-backed) table over real sockets: two real
``ahiko serve --redis-url`` nodes on one PostgreSQL and one Redis. Node A leads and owns the
house rooms; Ana plays from A, Bia from B (her buy-in, actions and cash-out go through the
relay), a spectator watches from B. They play two hands to the end and stand up; each wallet
and statement is the same on both nodes and adds up, and ``ahiko admin check-ledger`` is
clean."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from house_players import Frame, HousePlayer
from nodes import Node, check_ledger

from ahiko.wallet.policy import SIGNUP_GRANT

pytestmark = pytest.mark.cluster

HANDS = 2


def _ended(player: HousePlayer) -> set[int]:
    return {
        int(f["hand_no"])
        for f in player.frames
        if f["t"] == "hand" and f["view"].get("result") is not None
    }


async def _watch(address: str, room_id: str, frames: list[Frame], stop: asyncio.Event) -> None:
    async with websockets.connect(f"ws://{address}/ws/rooms/{room_id}") as ws:
        while not stop.is_set():
            try:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), 0.5)))
            except TimeoutError:
                continue


def test_two_people_on_two_nodes_play_an_ahiko_table_and_their_wallets_agree_on_both_nodes(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    a = Node("a", redis_url, postgres_url, data).start()
    b = Node("b", redis_url, postgres_url, data)
    try:
        rooms = httpx.get(f"{a.url}/api/ahiko/rooms").json()
        room_id = next(r["id"] for r in rooms if r["tier"] == "iniciante")
        b.start()

        async def scenario() -> tuple[HousePlayer, HousePlayer, list[Frame]]:
            ana, bia = HousePlayer(a.address, room_id), HousePlayer(b.address, room_id)
            seen: list[Frame] = []
            stop = asyncio.Event()
            watcher = asyncio.create_task(_watch(b.address, room_id, seen, stop))
            for seat, (player, name) in enumerate(((ana, "ana"), (bia, "bia"))):
                await player.sign_up(name)
                await player.open()
                assert (await player.recv())["t"] == "snapshot"
                bought = await player.post("buy_in", {"seat": seat, "amount": 150, "key": name})
                assert bought.status_code == 200, bought.text

            async def play(player: HousePlayer) -> None:
                await player.until(lambda _f: len(_ended(player)) >= HANDS, timeout=120)

            await asyncio.gather(play(ana), play(bia))
            for player in (ana, bia):
                left = await player.post("leave", {})
                assert left.status_code == 200, left.text
                await player.until(lambda f: f["t"] == "wallet", timeout=60)
            stop.set()
            await watcher
            for player in (ana, bia):
                books[player.name] = [
                    (await player.wallet_on(node.address), await player.statement_on(node.address))
                    for node in (a, b)
                ]
                await player.close()
            return ana, bia, seen

        books: dict[str, list[tuple[int, list[dict[str, Any]]]]] = {}
        ana, bia, seen = asyncio.run(asyncio.wait_for(scenario(), 240))
        cash_outs = {}
        for player in (ana, bia):
            (on_a, statement_a), (on_b, statement_b) = books[player.name]
            assert on_a == on_b and statement_a == statement_b  # the same on both nodes
            paid = next(f for f in player.frames if f["t"] == "wallet")
            assert paid["event"] == "cash_out"
            assert on_a == SIGNUP_GRANT - 150 + int(paid["amount"])
            assert len(statement_a) >= 3  # the grant, the buy-in, the cash-out
            assert on_a in {line["balance"] for line in statement_a}
            assert {line["room_id"] for line in statement_a} >= {room_id}
            cash_outs[player.name] = int(paid["amount"])
        assert sum(cash_outs.values()) == 300  # every chip of the table went back to a wallet
        assert _ended(ana) & _ended(bia)  # the same hands, ended for both
        # the spectator on node B saw the hands and never a hole card
        assert any(f["t"] == "hand" for f in seen)
        for frame in seen:
            openings = frame.get("openings") or []
            assert all(o.get("role") != "hole" for o in openings), frame
    finally:
        a.stop()
        b.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
