"""The relay's cost: action -> broadcast for a player next to the room's owner and
for one on another node, side by side in one run, over a throwaway ``redis-server``.

Node A owns ``--tables`` rooms (real ``RoomActor``s, each on its own manual clock); at each
table one player sits on node A (her frames come straight from the room) and one on node B
(his commands go to A through Redis pub/sub and A's frames come back on his connection's own
channel: ``ahiko.server.cluster.relay``), plus ``--spectators`` watchers on node B. All tables
play at once on one event loop (both nodes in this process: the figure is the relay's added
latency and CPU, not two processes' capacity). For every action we time, from the moment it
is sent, when the frame that reflects it (``Reply.seq``) reaches the local player and when it
reaches the remote one.

Two ``ahiko serve`` processes' capacity beside one's is ``bench/cluster_load.py``; kill -9
failovers are ``bench/failover.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import redis.asyncio as redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.outbox import Frame
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.cluster.relay import Publisher, RelayEdge, RelayHost
from redis_server import RedisServer


def _config() -> RoomConfig:
    return RoomConfig(
        name="bench",
        kind=RoomKind.RECREATIONAL,
        variant=Variant.HOLDEM,
        seats=2,
        starting_chips=1_000_000,
        schedule=BlindSchedule(Stakes(small_blind=5, big_blind=10)),
    )


class Arrivals:
    """When each numbered frame reached one connection."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self.frames = 0

    def sink(self, frame: Frame) -> None:
        self.frames += 1
        self.at.setdefault(frame.seq, time.perf_counter())

    async def reached(self, seq: int, timeout: float = 10.0) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            found = [at for number, at in self.at.items() if number >= seq]
            if found:
                return min(found)
            if time.perf_counter() > deadline:
                raise TimeoutError(f"frame {seq} never came")
            await asyncio.sleep(0)


async def _table(
    index: int,
    host_rooms: dict[str, Any],
    edge: RelayEdge,
    actions: int,
    spectators: int,
    think: float,
) -> tuple[list[float], list[float]]:
    clock = ManualClock()
    actor = RoomRegistry(clock=clock).create(_config(), host_id=f"a{index}")
    host_rooms[actor.room_id] = actor
    remote = edge.remote(actor.room_id, "a", 1)
    local_p, remote_p = Arrivals(), Arrivals()
    actor.subscribe(f"a{index}", local_p.sink)
    await actor.ask(c.Connect(f"a{index}", f"a{index}"))
    remote.subscribe(f"b{index}", remote_p.sink)
    await remote.ask(c.Connect(f"b{index}", f"b{index}"))
    for s in range(spectators):
        watcher = Arrivals()
        remote.subscribe(f"s{index}-{s}", watcher.sink)
        await remote.ask(c.Connect(f"s{index}-{s}", None))
    await actor.ask(c.Sit(f"a{index}", "A", 0))
    await remote.ask(c.Sit(f"b{index}", "B", 1))
    await actor.ask(c.Start(f"a{index}"))
    local_ms: list[float] = []
    remote_ms: list[float] = []
    while len(local_ms) < actions:
        clock.advance(actor.config.timing.commitment_display_s)
        hand = actor.room.dealer.hand
        if hand is None or hand.to_act is None:
            clock.advance(actor.config.timing.next_hand_delay_s)
            await asyncio.sleep(0)
            continue
        mover = hand.players[hand.to_act]
        legal = hand.legal()
        action = Action.check() if legal.can_check else Action.call()
        door = actor if mover.startswith("a") else remote
        await asyncio.sleep(think * (0.5 + (index * 7919 + len(local_ms)) % 100 / 100))
        if actor.room.dealer.hand is not hand or hand.to_act is None:
            continue
        sent = time.perf_counter()
        reply = await door.ask(c.Act(mover, hand.hand_no, action))
        if not reply.ok:
            continue
        local_ms.append((await local_p.reached(reply.seq) - sent) * 1000)
        remote_ms.append((await remote_p.reached(reply.seq) - sent) * 1000)
    return local_ms, remote_ms


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _run(
    url: str, tables: int, actions: int, spectators: int, think: float
) -> dict[str, Any]:
    a_redis, b_redis = redis.Redis.from_url(url), redis.Redis.from_url(url)
    a_pub, b_pub = Publisher(a_redis), Publisher(b_redis)
    a_pub.start()
    b_pub.start()
    rooms: dict[str, Any] = {}
    host = RelayHost(a_redis, "a", a_pub, rooms.get, lambda room_id: 1)
    await host.start()
    edge = RelayEdge(b_redis, "b", b_pub)
    await edge.start()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    results = await asyncio.gather(
        *(_table(i, rooms, edge, actions, spectators, think) for i in range(tables))
    )
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    await host.stop()
    await edge.stop()
    await a_pub.stop()
    await b_pub.stop()
    await a_redis.aclose()
    await b_redis.aclose()
    local = [x for result in results for x in result[0]]
    remote = [x for result in results for x in result[1]]
    return {
        "tables": tables,
        "players": tables * 2,
        "connections": tables * (2 + spectators),
        "actions": len(local),
        "local_p50_ms": round(statistics.median(local), 3),
        "local_p99_ms": round(_pct(local, 0.99), 3),
        "relayed_p50_ms": round(statistics.median(remote), 3),
        "relayed_p99_ms": round(_pct(remote, 0.99), 3),
        "relay_p99_added_ms": round(_pct(remote, 0.99) - _pct(local, 0.99), 3),
        "cpu_ms_per_action": round(1000 * cpu / len(local), 3),
        "relayed_frames": edge.received,
        "relayed_fanned": edge.fanned,  # of which came once for several connections
        "wall_s": round(wall, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--actions", type=int, default=40, help="timed actions per table")
    parser.add_argument("--spectators", type=int, default=1, help="per table, on node B")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per decision")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = RedisServer()
    try:
        result = asyncio.run(
            _run(server.url, args.tables, args.actions, args.spectators, args.think)
        )
        result["think_s"] = args.think
    finally:
        server.stop()
    print(json.dumps(result) if args.json else result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
