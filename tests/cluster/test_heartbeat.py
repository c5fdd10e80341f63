"""Issue 41: a frozen node is noticed by its players, and a frozen player by the node.

A node stopped by its machine (SIGSTOP here) keeps its TCP connections open, so without a
heartbeat a player on it waits, with no frame and no close, until it wakes. With the heartbeat
(``ahiko.server.heartbeat``, docs/protocol.md) the client hears a ``ping`` every few seconds,
gives a silent socket up after 2.5 intervals and connects again through the site's address,
where the other node serves it; and a node closes the socket of a client that stopped
answering its protocol pings. Real ``ahiko serve`` processes, PostgreSQL and ``redis-server``;
the player is a real WebSocket client keeping the browser client's rule
(``heartbeat_client.py``)."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from failover import seat_players
from heartbeat_client import HeartbeatClient
from nodes import Node, data_folder, house_room, owner_and_edge_nodes
from progress import cpu_ticks

from ahiko.server.heartbeat import HEARTBEAT_S, SILENCE_FACTOR
from ahiko.server.services import SESSION_COOKIE

pytestmark = pytest.mark.cluster

LEASE_MS = 1500


def test_a_player_on_a_frozen_node_notices_within_the_silence_bound_and_the_other_node_serves_it(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    nodes = owner_and_edge_nodes(redis_url, postgres_url, data_folder(tmp_path), lease_ms=LEASE_MS)
    with nodes as (owner, edge, room_id):

        async def scenario() -> tuple[float, float, dict[str, object], int]:
            players = await seat_players(edge.address, room_id, ("ana", "bia"))
            ana = players[0]
            session = ana.http.cookies[SESSION_COOKIE]
            client = HeartbeatClient([edge.address, owner.address], room_id, session)
            await client.open()
            first = await client.next_frame()
            assert first is not None and first["t"] == "snapshot", first
            while client.pings == 0:  # the node's heartbeat, heard at least once
                assert await client.next_frame() is not None, "the live node went silent"
            assert edge.process is not None
            edge.process.send_signal(signal.SIGSTOP)
            frozen_at = time.monotonic()
            noticed_at = await client.until_silent()
            assert client.address == owner.address  # the next address: the live node
            await client.open()
            served = await client.next_frame()
            served_at = time.monotonic()
            assert served is not None
            await client.close()
            for player in players:
                await player.close()
            return noticed_at - frozen_at, served_at - frozen_at, served, int(ana.user_id)

        noticed_s, served_s, served, user_id = asyncio.run(asyncio.wait_for(scenario(), 120))
    print(f"\nfrozen node noticed after {noticed_s:.2f} s, served again after {served_s:.2f} s")
    # The last ping came at most one interval before the freeze; the rule gives the socket
    # up 2.5 intervals after the last frame heard (the client itself is not frozen).
    assert noticed_s <= HEARTBEAT_S * SILENCE_FACTOR + 0.5
    assert served["t"] == "snapshot", served
    you = served["you"]
    assert isinstance(you, dict) and str(you.get("player_id")) == str(user_id), served


_WATCHER = textwrap.dedent(
    """
    import asyncio, sys, websockets

    async def main() -> None:
        # websockets answers the server's protocol pings by itself while it reads.
        async with websockets.connect(sys.argv[1], ping_interval=None) as ws:
            async for text in ws:
                print(text[:40], flush=True)

    asyncio.run(main())
    """
)


def test_a_node_closes_the_socket_of_a_client_that_stopped_answering(
    postgres_url: str, tmp_path: Path
) -> None:
    every = 0.5  # short pings, so the test waits seconds
    bound = 2 * every  # a ping's interval and its answer's time
    short = {"AHIKO_HEARTBEAT_S": str(every), "AHIKO_WS_PING_S": str(every)}
    node = Node("a", None, postgres_url, data_folder(tmp_path), env=short).start()
    room_id = house_room(node)
    url = f"ws://{node.address}/ws/rooms/{room_id}?heartbeat=1"
    watcher = subprocess.Popen(
        [sys.executable, "-c", _WATCHER, url], stdout=subprocess.PIPE, text=True
    )
    try:
        assert watcher.stdout is not None
        pings = 0
        # A live client is kept: it hears ping frames for longer than the bound.
        began = time.monotonic()
        while pings < 3 or time.monotonic() - began < 2 * bound:
            line = watcher.stdout.readline()
            assert line, "the watcher's socket closed while it was answering"
            pings += line.startswith('{"t":"ping"')
        opened = re.findall(r"table socket (ws-\S+) opened", node.log())
        assert len(opened) == 1, node.log()[-2000:]
        assert f"table socket {opened[0]} closed" not in node.log()
        watcher.send_signal(signal.SIGSTOP)
        frozen_at = time.monotonic()
        closed = _wait_for_line(node, f"table socket {opened[0]} closed", timeout=bound + 10)
        assert closed is not None, node.log()[-2000:]
        print(f"\na frozen client's socket closed after {closed - frozen_at:.2f} s")
        assert closed - frozen_at <= bound + 2.0
    finally:
        watcher.kill()  # SIGKILL ends it frozen too
        watcher.wait(timeout=10)
        node.kill()


def _wait_for_line(node: Node, line: str, timeout: float) -> float | None:
    """When ``line`` appeared in the node's log; the wait goes on while the node works (a
    loaded machine runs it late, not never)."""
    assert node.process is not None
    deadline = time.monotonic() + timeout
    ticks = cpu_ticks(node.process.pid)
    while time.monotonic() < deadline:
        if line in node.log():
            return time.monotonic()
        now = cpu_ticks(node.process.pid)
        if now != ticks:
            ticks, deadline = now, max(deadline, time.monotonic() + 2)
        time.sleep(0.05)
    return None
