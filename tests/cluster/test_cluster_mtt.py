"""Issue 20 across the nodes of issue 14: a multi-table tournament played to the end with its
players' sockets on two nodes. Real ``ahiko serve --redis-url`` processes, ``redis-server``
and PostgreSQL, real sockets.

Ten people, five signed up on each node; a host on the node that does not lead creates the
MTT and starts it (both forwarded to the leader). Its two tables are owned by the leader like
any room (a lease and a fence token); the players on the other node play through the relay,
follow ``moved`` frames when their table is broken (reconnecting on their own node, as the
browser does), and the tournament ends with one winner: every place taken once, the pool paid
in full, each wallet the same on both nodes, no coin made or lost, the ledger clean."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
import websockets
from cluster_entrants import CompetitionPlayer, until_wallets_agree
from nodes import check_ledger
from test_cluster_competition import _is, _signed_up, _two_nodes, holder

from ahiko.server.cluster.leader import LEADER
from ahiko.server.cluster.ownership import room_lease
from ahiko.wallet.policy import SIGNUP_GRANT

pytestmark = pytest.mark.cluster

PEOPLE = 10  # two tables of five
BUY_IN = 20


async def _entry(player: CompetitionPlayer, mtt_id: str) -> dict[str, Any]:
    answer = await player.mtt()
    assert answer.status_code == 200, answer.text
    return next(e for e in answer.json()["mtts"] if e["id"] == mtt_id)


async def _follow(player: CompetitionPlayer, moves: list[tuple[str, str]]) -> None:
    """Plays every turn (all in) at whatever table the player sits at, on their own node,
    until their socket is closed with nowhere to go (out, or the tournament over)."""
    while True:
        try:
            frame = await player.recv(timeout=120)
        except websockets.ConnectionClosed:
            return
        if frame["t"] == "moved":
            moves.append((player.name, frame["room_id"]))
            await player.ws.close()
            player.room_id, player.seq, player.epoch = frame["room_id"], None, None
            await player.open()
        elif frame["t"] in ("tournament_over", "closed"):
            return
        else:
            await player.play_turn(frame)


def test_an_mtt_is_played_to_the_end_with_its_players_on_two_nodes(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data, a, b = _two_nodes(redis_url, postgres_url, tmp_path)
    people: list[CompetitionPlayer] = []

    async def scenario() -> None:
        assert _is(a, await holder(redis_url, LEADER))
        for n in range(PEOPLE):
            people.append(await _signed_up((b if n % 2 == 0 else a).address, f"pessoa{n}"))
        host = people[0]  # on B, which does not lead
        made = await host.mtt("", {"name": "Across", "buy_in": BUY_IN, "starts_in_minutes": 60})
        assert made.status_code == 201, made.text
        mtt_id = made.json()["mtt"]["id"]
        for n, player in enumerate(people):
            joined = await player.mtt(f"/{mtt_id}/register", {"key": f"k{n}"})
            assert joined.status_code == 201, joined.text
        started = await host.mtt(f"/{mtt_id}/start", {})
        assert started.status_code == 200, started.text
        tables = set()
        for player in people:  # each learns their table from their own node
            entry = await _entry(player, mtt_id)
            assert entry["status"] == "running" and entry["room_id"] is not None, entry
            player.room_id = entry["room_id"]
            tables.add(player.room_id)
        assert len(tables) == 2
        for room_id in tables:  # owned by the leader like any room
            assert _is(a, await holder(redis_url, room_lease(room_id)))
        for player in people:
            await player.open()
        moves: list[tuple[str, str]] = []
        followers = [asyncio.create_task(_follow(p, moves)) for p in people]
        deadline = time.monotonic() + 200
        while (entry := await _entry(host, mtt_id))["status"] != "finished":
            assert time.monotonic() < deadline, entry
            await asyncio.sleep(0.5)
        assert moves, "no table was broken: nobody moved across the tables"
        paid = {int(user): coins for user, coins in entry["paid"].items()}
        assert sum(paid.values()) == PEOPLE * BUY_IN and entry["prizes"] == sorted(
            paid.values(), reverse=True
        )
        for task in followers:
            task.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
        expected = {p.name: SIGNUP_GRANT - BUY_IN + paid.get(int(p.user_id), 0) for p in people}
        await until_wallets_agree(people, [a.address, b.address], expected)
        assert sum(expected.values()) == PEOPLE * SIGNUP_GRANT  # no coin made or lost
        for player in people:
            await player.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 300))
    finally:
        a.stop()
        b.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
