"""Issue 14, a graceful stop: a node stopped with SIGTERM gives its leases back as it goes
(``ClusterNode.stop``: ``release_all``), so the other node takes its rooms over at its next
look, well before the lease would have run out; after ``kill -9`` it would wait for that.
Real processes (``ahiko serve --redis-url``), PostgreSQL and ``redis-server``."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from failover import owner_of
from nodes import Node, check_ledger

pytestmark = pytest.mark.cluster

LEASE_MS = 12_000  # long: a take-over before it runs out can only come from the release


def test_a_node_stopped_with_sigterm_hands_its_rooms_over_before_its_leases_expire(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    first = Node("a", redis_url, postgres_url, data, lease_ms=LEASE_MS).start()
    second = Node("b", redis_url, postgres_url, data, lease_ms=LEASE_MS)
    try:
        rooms = [str(room["id"]) for room in httpx.get(f"{first.url}/api/ahiko/rooms").json()]
        assert len(rooms) == 6  # the first node leads: it opened every house room
        second.start()
        owners = asyncio.run(_owners(redis_url, rooms))
        assert all(o is not None and o.endswith(f"-{first.port}-{_pid(first)}") for o in owners)
        stopping = time.monotonic()
        first.stop()  # SIGTERM
        stopped_s = time.monotonic() - stopping
        deadline = stopping + LEASE_MS / 1000 - 1.0
        taken = None
        while time.monotonic() < deadline:
            owners = asyncio.run(_owners(redis_url, rooms))
            if all(o is not None and o.endswith(f"-{second.port}-{_pid(second)}") for o in owners):
                taken = time.monotonic() - stopping
                break
            time.sleep(0.2)
        print(f"\nstopped in {stopped_s:.1f} s; every room taken over after {taken} s")
        assert taken is not None, f"not all taken over within the lease: {owners}"
        listed = {str(r["id"]) for r in httpx.get(f"{second.url}/api/ahiko/rooms").json()}
        assert set(rooms) <= listed
    finally:
        first.stop()
        second.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


async def _owners(redis_url: str, rooms: list[str]) -> list[str | None]:
    return [await owner_of(redis_url, room) for room in rooms]


def _pid(node: Node) -> int:
    return node.process.pid if node.process is not None else 0
