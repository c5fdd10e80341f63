"""Issue 41: a server drains on SIGTERM. Mid-hand it stops starting hands, lets the hand in
progress play to its end (the players keep acting, the clocks running), then stops; a second
SIGTERM stops it at once. On a cluster the stopping node then hands its rooms over: the other
node takes the room at a hand boundary and deals the next hand, with no hand cancelled. A lone
server keeps the seats: started again, the players are back with their stacks, no bet was
ever held in escrow. ``ahiko admin check-ledger`` is clean after both. Real processes, a
real PostgreSQL and ``redis-server``."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest
from drain_round import (
    DrainRound,
    cancelled_hands,
    cluster_drain_round,
    hand_statuses,
    lone_drain_round,
    wait_exit,
)
from failover import mid_hand, seat_players
from nodes import Node, check_ledger, data_folder, house_room

pytestmark = pytest.mark.cluster

SITE_DRAIN = {"AHIKO_DRAIN_S": "60"}  # a site's bound (the suite's servers drain 2 s)
LEASE_MS = 2000


def test_a_node_sent_sigterm_mid_hand_finishes_the_hand_and_hands_the_room_over(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    owner = Node("a", redis_url, postgres_url, data, lease_ms=LEASE_MS, env=SITE_DRAIN).start()
    edge = Node("b", redis_url, postgres_url, data, lease_ms=LEASE_MS)
    try:
        room_id = house_room(owner)
        edge.start()

        async def scenario() -> DrainRound:
            players = await seat_players(edge.address, room_id, ("ana", "bia"))
            result = await cluster_drain_round(
                owner, players, postgres_url, redis_url, LEASE_MS / 1000
            )
            for player in players:
                await player.close()
            return result

        result = asyncio.run(asyncio.wait_for(scenario(), 300))
        print(f"\n{result}")
        statuses = hand_statuses(postgres_url, room_id)
        assert result.status == "finished", statuses
        assert cancelled_hands(statuses) == [], statuses
        assert result.next_hand_no is not None and result.next_hand_no > result.hand_no
        assert result.new_owner is not None and f"-{edge.port}-" in result.new_owner
        assert result.stacks == 300  # both back in their seats, every chip there
        assert "drained in" in owner.log()
    finally:
        owner.stop()
        edge.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_lone_server_sent_sigterm_mid_hand_finishes_it_and_keeps_the_seats(
    postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    server = Node("solo", None, postgres_url, data, env=SITE_DRAIN).start()
    try:
        room_id = house_room(server)

        async def scenario() -> DrainRound:
            players = await seat_players(server.address, room_id, ("ana", "bia"))
            result = await lone_drain_round(server, players, postgres_url)
            for player in players:
                await player.close()
            return result

        result = asyncio.run(asyncio.wait_for(scenario(), 240))
        print(f"\nstopped {result.drained_s:.1f} s after SIGTERM; {result}")
        statuses = hand_statuses(postgres_url, room_id)
        assert result.status == "finished" and cancelled_hands(statuses) == [], statuses
        assert result.notes == []  # both back in their seats after the restart
        assert result.stacks == 300
    finally:
        server.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_second_sigterm_stops_a_draining_server_at_once(
    postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    server = Node("solo", None, postgres_url, data, env={"AHIKO_DRAIN_S": "600"}).start()
    try:
        room_id = house_room(server)

        async def scenario() -> float:
            players = await seat_players(server.address, room_id, ("ana", "bia"))
            await mid_hand(players)  # and nobody acts: the drain would wait for the clocks
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            await asyncio.sleep(0)
            while "draining: no new hand" not in server.log():
                assert server.process.poll() is None
                await asyncio.sleep(0.05)
            second = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            await asyncio.to_thread(wait_exit, server, 60)
            for player in players:
                await player.close()
            return time.monotonic() - second

        took = asyncio.run(asyncio.wait_for(scenario(), 180))
        print(f"\nsecond SIGTERM: stopped in {took:.2f} s")
        assert took < 15  # not the hand's clocks (20 s an action), not the 600 s bound
    finally:
        server.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
