"""Pub/sub or streams for the cluster's frame relay: measured side by side, in one
run, on a throwaway ``redis-server`` on this machine.

The relay carries a room's numbered frames from the node that owns the room to the nodes that
hold its players' sockets. Both of Redis's ways are measured with the same frames (about the
size of a ``hand``/``acted`` frame) at the same paced rate, one publisher and one subscriber
each on its own connection: the latency from publish to receipt (p50, p99) and the publisher's
plus the subscriber's CPU per frame. Streams keep a history (``XADD … MAXLEN ~``) that pub/sub
does not; the relay does not need it (the room's ``FrameBuffer`` already replays a gap from
``seq``), so it is only what it costs that decides.
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
from redis_server import RedisServer  # the tests' throwaway server, on a free port

FRAME = json.dumps(
    {"t": "acted", "seq": 0, "room": "r-abcdef", "hand_no": 12, "seat": 3, "action": "raise",
     "amount": 240, "pot": 560, "stacks": [1000, 760, 1200, 980, 1500, 800],
     "to_act": 4, "legal": {"fold": True, "call": 240, "raise": [480, 980]}, "pad": "x" * 400}
)  # fmt: skip


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _pubsub(url: str, count: int, rate: float) -> dict[str, float]:
    pub, sub = redis.Redis.from_url(url), redis.Redis.from_url(url)
    channel = sub.pubsub()
    await channel.subscribe("ahiko:bench:conn")
    await channel.get_message(timeout=1)  # the subscribe confirmation
    latencies: list[float] = []
    cpu0 = time.process_time()

    async def receive() -> None:
        while len(latencies) < count:
            message = await channel.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is not None:
                sent = float(message["data"][:20])
                latencies.append((time.perf_counter() - sent) * 1000)

    receiver = asyncio.create_task(receive())
    for _ in range(count):
        await pub.publish("ahiko:bench:conn", f"{time.perf_counter():020.6f}{FRAME}")
        await asyncio.sleep(1 / rate)
    await asyncio.wait_for(receiver, 30)
    cpu = time.process_time() - cpu0
    await channel.aclose()
    await pub.aclose()
    await sub.aclose()
    return _figures(latencies, cpu, count)


async def _streams(url: str, count: int, rate: float) -> dict[str, float]:
    pub, sub = redis.Redis.from_url(url), redis.Redis.from_url(url)
    await pub.delete("ahiko:bench:stream")
    latencies: list[float] = []
    cpu0 = time.process_time()

    async def receive() -> None:
        last = "$"
        while len(latencies) < count:
            answer: Any = await sub.xread({"ahiko:bench:stream": last}, block=1000, count=100)
            for _stream, entries in answer or []:
                for entry_id, fields in entries:
                    last = entry_id
                    sent = float(fields[b"f"][:20])
                    latencies.append((time.perf_counter() - sent) * 1000)

    receiver = asyncio.create_task(receive())
    await asyncio.sleep(0.05)  # the first XREAD is blocking before anything is added
    for _ in range(count):
        await pub.xadd(
            "ahiko:bench:stream",
            {"f": f"{time.perf_counter():020.6f}{FRAME}"},
            maxlen=1000,
            approximate=True,
        )
        await asyncio.sleep(1 / rate)
    await asyncio.wait_for(receiver, 30)
    cpu = time.process_time() - cpu0
    await pub.aclose()
    await sub.aclose()
    return _figures(latencies, cpu, count)


def _figures(latencies: list[float], cpu: float, count: int) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(latencies), 3),
        "p99_ms": round(_pct(latencies, 0.99), 3),
        "cpu_us_per_frame": round(1e6 * cpu / count, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--rate", type=float, default=2000.0, help="frames per second")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = RedisServer()
    try:
        results: dict[str, Any] = {"frames": args.frames, "rate": args.rate}
        for name, run in (("pubsub", _pubsub), ("streams", _streams)):
            asyncio.run(run(server.url, max(50, args.frames // 10), args.rate))  # warm-up
            for key, value in asyncio.run(run(server.url, args.frames, args.rate)).items():
                results[f"{name}_{key}"] = value
        results["streams_over_pubsub_p99"] = round(
            results["streams_p99_ms"] / results["pubsub_p99_ms"], 2
        )
        results["streams_over_pubsub_cpu"] = round(
            results["streams_cpu_us_per_frame"] / results["pubsub_cpu_us_per_frame"], 2
        )
    finally:
        server.stop()
    print(json.dumps(results) if args.json else results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
