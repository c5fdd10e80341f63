"""Issue 14, failover: the owner of an Ahiko room is killed with SIGKILL mid-hand while both
players' sockets are on the other node. Real processes (``ahiko serve --redis-url``), a real
PostgreSQL and a real ``redis-server``. The other node serves the room again within the lease
plus 2 s, the interrupted hand is cancelled with its bets returned (both back at the hand's
start stacks, no coin lost), the players resume by themselves (a new epoch, no new page),
the room deals on, and ``ahiko admin check-ledger`` is clean."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from failover import failover_round, owner_of, seat_players
from nodes import Node, check_ledger

pytestmark = pytest.mark.cluster

LEASE_MS = 2000


def _house_room(node: Node, tier: str = "iniciante") -> str:
    rooms = httpx.get(f"{node.url}/api/ahiko/rooms").json()
    return str(next(room["id"] for room in rooms if room["tier"] == tier))


def _listed(node: Node) -> set[str]:
    return {str(room["id"]) for room in httpx.get(f"{node.url}/api/ahiko/rooms").json()}


def _name(node: Node) -> str:
    """The node's name in its leases: ``HOST-PORT-PID``."""
    return f"-{node.port}-{node.process.pid if node.process else 0}"


def test_the_owner_killed_mid_hand_the_other_node_serves_the_room_within_the_lease_plus_2_s(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    owner = Node("a", redis_url, postgres_url, data, lease_ms=LEASE_MS).start()
    edge = Node("b", redis_url, postgres_url, data, lease_ms=LEASE_MS)
    try:
        room_id = _house_room(owner)  # the first node leads: it opened every house room
        edge.start()
        assert _house_room(edge) == room_id  # the lobby is the cluster's on every node
        opened = _listed(owner)
        assert _listed(edge) == opened and len(opened) == 6  # two a tier, opened once

        async def scenario() -> None:
            first_owner = await owner_of(redis_url, room_id)
            assert first_owner is not None and first_owner.endswith(_name(owner))
            players = await seat_players(edge.address, room_id, ("ana", "bia"))
            result = await failover_round(owner, players, postgres_url, LEASE_MS / 1000)
            print(f"\nfailover: {result}")
            assert result.new_owner.endswith(_name(edge))
            assert result.served_s < LEASE_MS / 1000 + 2.0
            assert result.both_s < LEASE_MS / 1000 + 2.0
            assert result.status == "cancelled"
            assert result.bets_in_hand > 0  # chips were in the pot when the owner died
            assert result.stacks_after == result.stacks_before == {"ana": 150, "bia": 150}
            assert result.new_epoch != result.old_epoch
            assert result.next_hand_no is not None and result.next_hand_no > result.hand_no
            for player in players:
                assert 4409 in player.closes  # "the table moved": the client reconnects
                await player.close()

        asyncio.run(asyncio.wait_for(scenario(), 180))
        # every room of the dead owner was taken over, not only the one in play
        deadline = time.monotonic() + LEASE_MS / 1000 + 5
        while not opened <= _listed(edge) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert opened <= _listed(edge)
    finally:
        owner.kill()
        edge.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
