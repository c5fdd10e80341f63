"""``GET /metrics`` on the nodes of a cluster (issue 45): each node reports itself a cluster
node, the rooms it holds by lease, and the relay's traffic: a spectator on node B of a room
node A owns is served through the relay, and both nodes' counters show it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import websockets
from nodes import Node
from prometheus_client.parser import text_string_to_metric_families

pytestmark = pytest.mark.cluster
TOKEN = "cluster-scraper-45"


def scrape(node: Node) -> dict[str, float]:
    answer = httpx.get(f"{node.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
        if not sample.labels
    }


def until(
    node: Node, holds: Callable[[dict[str, float]], bool], timeout: float = 60
) -> dict[str, float]:
    """Scrapes until ``holds`` (the cluster settles by itself: leases, the lobby)."""
    deadline = time.monotonic() + timeout
    while True:
        figures = scrape(node)
        if holds(figures):
            return figures
        assert time.monotonic() < deadline, figures
        time.sleep(0.2)


async def watch(node: Node, room_id: str) -> dict[str, object]:
    async with websockets.connect(f"ws://{node.address}/ws/rooms/{room_id}") as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), 30))


def test_each_node_reports_its_leases_and_the_relay_traffic(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    env = {"AHIKO_METRICS_TOKEN": TOKEN}
    from nodes import migrate

    migrate(postgres_url, data)
    a = Node("a", redis_url, postgres_url, data, env=env).start()
    try:
        owner = until(a, lambda f: f["ahiko_leases_held"] >= 1)  # the house rooms
        assert owner["ahiko_cluster_node"] == 1
        b = Node("b", redis_url, postgres_url, data, env=env).start()
        try:
            rooms = httpx.get(f"{b.url}/api/ahiko/rooms").json()
            first = asyncio.run(watch(b, rooms[0]["id"]))  # B relays A's room to its socket
            assert first["t"] == "snapshot"
            relayed = until(b, lambda f: f["ahiko_relay_frames_received_total"] >= 1)
            assert relayed["ahiko_cluster_node"] == 1
            assert until(a, lambda f: f["ahiko_relay_published_total"] >= 1)
            assert scrape(b)["ahiko_leases_held"] == 0  # A holds every room: it led first
        finally:
            b.stop()
    finally:
        a.stop()
