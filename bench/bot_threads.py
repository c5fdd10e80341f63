"""Event-loop lag with Hard bots thinking inline on the loop and on worker threads.

Rooms of one person (answered for by the action clock) and five Hard bots play on the real
clock sped up ``--speed`` times, while a probe measures how late a 5 ms sleep wakes up: the
time other tables' frames would wait. The same rooms run twice, bots answering inline (as on a
test's manual clock) and on ``ahiko.rooms.thinking``'s worker threads (the server's way).
``--json`` prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.registry import RoomRegistry
from bots import percentile  # bench/bots.py, beside this script

PROBE_S = 0.005


async def lag_with(threads: bool, tables: int, seconds: float, speed: float) -> dict[str, float]:
    options = None if threads else {"think": None}
    registry = RoomRegistry(clock=AsyncioClock(speed=speed), room_options=options)
    config = RoomConfig(
        name="bench",
        kind=RoomKind.RECREATIONAL,
        variant=Variant.HOLDEM,
        seats=6,
        starting_chips=1000,
        schedule=BlindSchedule(Stakes(small_blind=5, big_blind=10)),
        action_deadline_s=5,
    )
    for k in range(tables):
        actor = registry.create(config, host_id="host")
        await actor.ask(c.Connect(f"silent-{k}", f"p{k}"))  # frames dropped
        await actor.ask(c.Sit(f"p{k}", "P", 0))
        for _ in range(5):
            await actor.ask(c.AddBot("host", "hard"))
        await actor.ask(c.Start("host"))
    lags: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        before = time.perf_counter()
        await asyncio.sleep(PROBE_S)
        lags.append((time.perf_counter() - before - PROBE_S) * 1000)
    hands = sum(actor.room.dealer.hands_dealt for actor in registry.actors())
    await registry.stop_all()
    return {
        "p50_ms": round(percentile(lags, 0.5), 1),
        "p99_ms": round(percentile(lags, 0.99), 1),
        "max_ms": round(max(lags), 1),
        "hands": hands,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--speed", type=float, default=20, help="clock speed-up")
    args = parser.parse_args()
    result: dict[str, Any] = {"tables": args.tables, "seconds": args.seconds, "speed": args.speed}
    for name, threads in (("inline", False), ("threads", True)):
        figures = asyncio.run(lag_with(threads, args.tables, args.seconds, args.speed))
        result.update({f"{name}_{key}": value for key, value in figures.items()})
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:20} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
