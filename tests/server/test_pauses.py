"""A node's pauses counted while it serves (issue 14): the collector's passes and the event
loop's lateness, at ``GET /api/health/pauses``; and the lobby listed without holding the loop."""

from __future__ import annotations

import asyncio
import doctest
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import ahiko.server.pauses
from ahiko.server.cluster.node import PublishedLobbies, encode_in_chunks
from ahiko.server.pauses import BUCKET_BOUNDS_MS, PauseMonitor

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "rooms"))
from rooms_helpers import holdem_config

from ahiko.rooms.registry import LOBBY_CHUNK, RoomRegistry


def test_the_module_example_runs() -> None:
    assert doctest.testmod(ahiko.server.pauses, raise_on_error=False).failed == 0


def test_a_collection_is_timed_in_its_generation() -> None:
    pauses = PauseMonitor()
    pauses.install()
    try:
        gc.collect(2)
    finally:
        pauses.uninstall()
    full = pauses.snapshot()["gc"]["2"]
    assert full["count"] == 1 and 0 < full["longest_ms"] == full["total_ms"]
    assert sum(full["buckets_ms"].values()) == 1
    assert pauses.snapshot()["gc"]["0"]["count"] == 0


def test_a_blocked_loop_is_seen_late_and_bucketed() -> None:
    pauses = PauseMonitor()

    async def block_once() -> None:
        watcher = asyncio.create_task(pauses.watch_loop(interval=0.005))
        await asyncio.sleep(0.02)
        time.sleep(0.12)  # the loop held for 120 ms, as a long synchronous job would
        await asyncio.sleep(0.02)
        watcher.cancel()

    asyncio.run(block_once())
    lag = pauses.snapshot()["loop_lag"]
    assert lag["longest_ms"] >= 100
    assert lag["buckets_ms"]["200"] == 1  # 100 < lateness <= 200 ms, once
    assert list(lag["buckets_ms"]) == [*map(str, BUCKET_BOUNDS_MS), "more"]


def test_the_server_reports_its_pauses(client: TestClient) -> None:
    answer = client.get("/api/health/pauses")
    assert answer.status_code == 200
    body = answer.json()
    assert set(body["gc"]) == {"0", "1", "2"}
    assert body["loop_lag"]["count"] >= 0 and body["stall_stacks"] is None


def test_the_lobby_listed_in_chunks_is_the_lobby() -> None:
    async def listed() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        registry = RoomRegistry()
        for n in range(2 * LOBBY_CHUNK + 3):
            registry.create(holdem_config(name=f"mesa {n}", public=n % 7 != 0))
        turns = 0

        async def count_turns() -> None:
            nonlocal turns
            while True:
                await asyncio.sleep(0)
                turns += 1

        counter = asyncio.create_task(count_turns())
        await asyncio.sleep(0)
        in_chunks = await registry.lobby_listing()
        counter.cancel()
        return registry.lobby(), in_chunks, turns

    whole, in_chunks, turns = asyncio.run(listed())
    assert in_chunks == whole and len(whole) == 2 * LOBBY_CHUNK + 3 - 12
    assert turns >= 2  # the loop served other tasks between the chunks


def test_a_lobby_encoded_in_chunks_is_its_json() -> None:
    for size in (0, 1, 49, 50, 51, 120):
        entries = [{"id": f"r-{n}", "name": f"mesa {n}", "seats": [n, None]} for n in range(size)]
        assert json.loads(asyncio.run(encode_in_chunks(entries))) == entries


def test_another_nodes_published_lobby_is_decoded_once_per_value() -> None:
    published = PublishedLobbies()
    value = json.dumps([{"id": "r-1"}]).encode()
    first = published.parse(b"ahiko:lobby:a", value)
    assert published.parse(b"ahiko:lobby:a", bytes(value)) is first == [{"id": "r-1"}]
    newer = json.dumps([{"id": "r-1"}, {"id": "r-2"}]).encode()
    assert published.parse(b"ahiko:lobby:a", newer) == [{"id": "r-1"}, {"id": "r-2"}]
    assert published.parse(b"ahiko:lobby:b", None) == []
    assert published.parse(b"ahiko:lobby:b", json.dumps([]).encode()) == []
    published.keep_only([b"ahiko:lobby:b"])  # node a gone: its lobby is not kept
    assert published.parse(b"ahiko:lobby:a", newer) is not first
