"""The Redis-blip drill: kill Redis and start it again empty, or freeze it for five
seconds, while a hand is in progress, ``--rounds`` times each.

A throwaway PostgreSQL and ``redis-server``, two real nodes (``ahiko serve --redis-url``,
``--lease-ms`` leases); two players sit at a house room with their sockets on its owner. Each
round (``tests/cluster/redis_blip.py``): a hand is dealt and the first to act calls; Redis is
killed with SIGKILL and restarted empty a second later, or frozen with SIGSTOP for five
seconds; once it is back the player to act acts. Measured: Redis back -> that action
acknowledged (goal: under 2 s). Checked: the same owner under the same fencing token a lease
later, no socket closed, the hand played to its end (not cancelled), the table's chips
unchanged, ``ahiko admin check-ledger`` clean."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any

import httpx
from drill_env import run_drill  # the tests' helpers on the path too
from failover import seat_players
from house_players import play_while
from nodes import Node, check_ledger
from redis_blip import blip_round

from redis_server import RedisServer


async def drill(rounds: int, lease_ms: int, root: Path, server: RedisServer, db: str) -> Any:
    data = root / "data"
    data.mkdir(mode=0o700)
    owner = Node("a", server.url, db, data, lease_ms=lease_ms, log_dir=root).start()
    other = Node("b", server.url, db, data, lease_ms=lease_ms, log_dir=root).start()
    rooms = httpx.get(f"{owner.url}/api/ahiko/rooms").json()
    room_id = str(next(r["id"] for r in rooms if r["tier"] == "iniciante"))
    players = await seat_players(owner.address, room_id, ("ana", "bia"))
    answered: dict[str, list[float]] = {"kill": [], "freeze": []}
    failures: list[str] = []
    ledger_clean = 0
    last = 0
    try:
        for n in range(1, 2 * rounds + 1):
            fault = "kill" if n % 2 else "freeze"
            result = await blip_round(server, players, db, lease_ms / 1000, fault, last)
            last = result.hand_no
            answered[fault].append(result.answered_s)
            problems = list(result.notes)
            if result.answered_s >= 2.0:
                problems.append(f"answered after {result.answered_s:.2f} s")
            if result.holder_after != result.holder_before:
                problems.append(f"owner {result.holder_before} -> {result.holder_after}")
            if result.status != "finished":
                problems.append(f"hand {result.hand_no} {result.status}")
            if result.closes:
                problems.append(f"sockets closed {result.closes}")
            if result.chips != 300:
                problems.append(f"chips {result.chips}")
            checked = await play_while(players, asyncio.to_thread(check_ledger, db, data))
            ledger_clean += checked.returncode == 0
            if checked.returncode != 0:
                problems.append(f"check-ledger: {checked.stdout[-300:]}")
            failures += [f"round {n} ({fault}): {p}" for p in problems]
            print(
                f"round {n} {fault}: answered {result.answered_s:.2f} s {problems}", file=sys.stderr
            )
    finally:
        for player in players:
            await player.close()
        owner.stop()
        other.stop()
    return {
        "rounds_each": rounds,
        "lease_s": lease_ms / 1000,
        **{
            f"{fault}_answered_s_{stat}": round(fn(values), 3) if values else None
            for fault, values in answered.items()
            for stat, fn in (("p50", statistics.median), ("max", max))
        },
        "ledger_clean_rounds": ledger_clean,
        "failed_rounds": len({f.split(":")[0] for f in failures}),
        "failures": failures[:10],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds of each fault")
    parser.add_argument("--lease-ms", type=int, default=3000)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    return run_drill(
        "ahiko-redis-blip-",
        args.json,
        lambda root, server, db: drill(args.rounds, args.lease_ms, root, server, db),
    )


if __name__ == "__main__":
    sys.exit(main())
