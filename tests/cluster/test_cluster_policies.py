"""Issue 14: cluster-wide policies run once. The sign-up and log-in limits are one window in
Redis shared by every node (a client spreading attempts over two nodes gets no more than the
site's limit), and one node at a time leads the cluster (a leader lease that moves when the
leader stops)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import httpx
import pytest
import redis.asyncio as redis

from ahiko.server.cluster.counters import SharedWindows
from ahiko.server.cluster.leader import Leadership
from ahiko.server.cluster.lease import Leases
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from live_server import fast_app, serving

pytestmark = pytest.mark.cluster


def _node(sqlite_url: str, data_dir: Path, redis_url: str | None):  # type: ignore[no-untyped-def]
    app = fast_app(Settings(data_dir=data_dir, database_url=sqlite_url))
    app.state.security = dataclasses.replace(app.state.security, sign_up=RateLimit(3, 60.0))
    if redis_url is not None:
        app.state.shared_windows = SharedWindows(redis.Redis.from_url(redis_url))
    return app


def _sign_up(port: int, name: str) -> int:
    response = httpx.post(
        f"http://127.0.0.1:{port}/api/accounts",
        json={"username": name, "password": "correct horse battery"},
        headers={CSRF_HEADER: "1"},
    )
    return response.status_code


def test_the_sign_up_limit_holds_across_two_nodes(
    sqlite_url: str, tmp_path: Path, redis_url: str
) -> None:
    a = _node(sqlite_url, tmp_path / "a", redis_url)
    b = _node(sqlite_url, tmp_path / "b", redis_url)
    with serving(a) as port_a, serving(b) as port_b:
        answers = [_sign_up(port, f"player{i}") for i, port in enumerate([port_a, port_b] * 3)]
    # 3 a minute for the whole site: the 4th attempt is refused, on whichever node it lands
    assert answers == [201, 201, 201, 429, 429, 429]


def test_without_redis_each_node_counts_alone(sqlite_url: str, tmp_path: Path) -> None:
    """The contrast: per-process windows let a client have the limit once per node."""
    a = _node(sqlite_url, tmp_path / "a", None)
    b = _node(sqlite_url, tmp_path / "b", None)
    with serving(a) as port_a, serving(b) as port_b:
        answers = [_sign_up(port, f"player{i}") for i, port in enumerate([port_a, port_b] * 4)]
    assert answers == [201] * 6 + [429, 429]


def test_one_leader_at_a_time_and_the_lead_moves_when_it_stops(redis_url: str) -> None:
    async def scenario() -> None:
        client = redis.Redis.from_url(redis_url)
        seen: list[tuple[str, bool]] = []
        nodes = {
            name: Leadership(
                Leases(client, name, 300), lambda on, name=name: seen.append((name, on))
            )
            for name in ("a", "b", "c")
        }
        for _ in range(3):
            for node in nodes.values():
                await node.step()
        assert [name for name, node in nodes.items() if node.leading] == ["a"]
        first = nodes["a"].token
        # the leader freezes (no more renewals): after the lease another node leads
        await asyncio.sleep(0.4)
        for node in (nodes["b"], nodes["c"]):
            await node.step()
        assert [name for name, node in nodes.items() if node.leading and name != "a"] == ["b"]
        assert nodes["b"].token is not None and first is not None and nodes["b"].token > first
        await nodes["a"].step()  # it wakes up: its renewal fails, it stops leading
        assert not nodes["a"].leading
        assert [name for name, node in nodes.items() if node.leading] == ["b"]
        await nodes["b"].stop()  # a clean stop hands the lease back at once
        await nodes["c"].step()
        assert nodes["c"].leading
        assert seen == [("a", True), ("b", True), ("a", False), ("b", False), ("c", True)]
        await client.aclose()

    asyncio.run(scenario())
