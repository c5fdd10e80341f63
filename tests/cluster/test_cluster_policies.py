"""Issue 14: cluster-wide policies run once. The sign-up and log-in limits are one window in
Redis shared by every node (a client spreading attempts over two nodes gets no more than the
site's limit), so is the failed-log-in throttle (issue 17: decided in Redis, no database read
for a refusal), and one node at a time leads the cluster (a leader lease that moves when the
leader stops)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import httpx
import pytest
import redis.asyncio as redis

from account_sql import account_statements
from ahiko.server.cluster.counters import SharedLoginThrottle, SharedWindows
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


def test_failed_log_ins_are_throttled_across_two_nodes_without_reading_the_database(
    sqlite_url: str, tmp_path: Path, redis_url: str
) -> None:
    a = _node(sqlite_url, tmp_path / "a", redis_url)
    b = _node(sqlite_url, tmp_path / "b", redis_url)
    for app in (a, b):  # each attempt names its address, through a trusted proxy
        app.state.security = dataclasses.replace(app.state.security, trusted_proxies=("127.0.0.1",))
        app.state.services.accounts.throttle = SharedLoginThrottle(redis.Redis.from_url(redis_url))

    def log_in(port: int, address: str, password: str) -> int:
        response = httpx.post(
            f"http://127.0.0.1:{port}/api/session",
            json={"username": "ana", "password": password},
            headers={CSRF_HEADER: "1", "X-Forwarded-For": address},
        )
        return response.status_code

    with serving(a) as port_a, serving(b) as port_b:
        assert _sign_up(port_a, "ana") == 201
        assert log_in(port_a, "10.0.0.1", "correct horse battery") == 200  # the owner's
        ports = [port_a, port_b] * 4
        guesses = [log_in(port, "10.6.6.6", f"guess-{n}") for n, port in enumerate(ports)]
        assert guesses == [401] * 5 + [429] * 3  # five for the account, whichever node
        engines = [app.state.services.engine for app in (a, b)]
        with account_statements(*engines) as seen:
            refused = [log_in(port, "10.6.6.6", "correct horse battery") for port in ports]
        assert refused == [429] * 8 and seen == []
        # A new address waits for the account's window; the owner's known one, on the other
        # node, does not.
        assert log_in(port_a, "10.0.0.2", "correct horse battery") == 429
        assert log_in(port_b, "10.0.0.1", "correct horse battery") == 200


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
