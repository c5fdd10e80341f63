"""The SIGTERM drill: send the server of an Ahiko room SIGTERM mid-hand,
``--rounds`` times on a two-node cluster and ``--rounds`` times on a lone server.

A throwaway PostgreSQL and ``redis-server``; real ``ahiko serve`` processes draining within
``AHIKO_DRAIN_S`` (60 s, a site's bound). Two players sit at a house room and keep acting
(check or call). Cluster: their sockets are on the node that does not own the room; its owner
is sent SIGTERM mid-hand, the hand plays to its end, the owner exits, the other node takes the
room at the hand boundary and deals the next hand; the drained node is started again, so the
next round drains the other one. Lone server: SIGTERM mid-hand, the hand ends, the server
exits and is started again, and the players find their seats. Checked each round
(``tests/cluster/drain_round.py``): the hand in progress finished, no hand cancelled (but the
one number a new owner skips, recorded unplayed), the players' 300 chips at the table, ``ahiko
admin check-ledger`` clean."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any

import httpx
from drill_env import run_drill  # the tests' helpers on the path too

# isort: split
from drain_round import (
    DrainRound,
    cancelled_hands,
    cluster_drain_round,
    hand_statuses,
    lone_drain_round,
)
from failover import owner_and_edge, seat_players, sockets_to
from house_players import HousePlayer, play_while
from nodes import Node, check_ledger, migrate

SITE_DRAIN = {"AHIKO_DRAIN_S": "60"}
CHIPS = 300  # two players bought in for 150 each


def _problems(result: DrainRound, statuses: dict[int, str], checked_ok: bool) -> list[str]:
    problems = list(result.notes)
    if result.status != "finished":
        problems.append(f"hand {result.hand_no} {result.status}")
    problems += [f"cancelled: {s}" for s in cancelled_hands(statuses)]
    if result.stacks != CHIPS:
        problems.append(f"chips at the table {result.stacks}")
    if not checked_ok:
        problems.append("check-ledger not clean")
    return problems


async def _cluster(
    nodes: list[Node], players: list[HousePlayer], rounds: int, lease_ms: int, redis_url: str
) -> tuple[list[DrainRound], list[str], int]:
    room_id, db, data = players[0].room_id, nodes[0].database_url, nodes[0].data_dir
    results: list[DrainRound] = []
    failures: list[str] = []
    clean = 0
    last = 0
    for n in range(1, rounds + 1):
        owner, edge = await owner_and_edge(redis_url, room_id, nodes)
        await sockets_to(players, edge)
        result = await cluster_drain_round(
            owner, players, db, redis_url, lease_ms / 1000, after=last
        )
        last = result.next_hand_no or result.hand_no
        ledger = await play_while(players, asyncio.to_thread(check_ledger, db, data))
        checked = ledger.returncode == 0
        clean += checked
        problems = _problems(result, hand_statuses(db, room_id), checked)
        if result.new_owner is None or f"-{edge.port}-" not in result.new_owner:
            problems.append(f"the room went to {result.new_owner}")
        # the drained node back, as in a rolling deployment
        await play_while(players, asyncio.to_thread(owner.start))
        results.append(result)
        failures += [f"cluster round {n}: {p}" for p in problems]
        print(f"cluster round {n}: {_line(result)} {problems}", file=sys.stderr)
    return results, failures, clean


async def _lone(server: Node, rounds: int) -> tuple[list[DrainRound], list[str], int, int]:
    db, data = server.database_url, server.data_dir
    room_id = _iniciante(server)
    players = await seat_players(server.address, room_id, ("cid", "dora"))
    results: list[DrainRound] = []
    failures: list[str] = []
    clean = 0
    last = 0
    try:
        for n in range(1, rounds + 1):
            result = await lone_drain_round(server, players, db, after=last)
            last = result.hand_no
            ledger = await play_while(players, asyncio.to_thread(check_ledger, db, data))
            clean += ledger.returncode == 0
            problems = _problems(result, hand_statuses(db, room_id), ledger.returncode == 0)
            results.append(result)
            failures += [f"lone round {n}: {p}" for p in problems]
            print(f"lone round {n}: {_line(result)} {problems}", file=sys.stderr)
    finally:
        await _close(players)
    return results, failures, clean, len(cancelled_hands(hand_statuses(db, room_id)))


def _iniciante(node: Node) -> str:
    rooms = httpx.get(f"{node.url}/api/ahiko/rooms").json()
    return str(next(r["id"] for r in rooms if r["tier"] == "iniciante"))


async def _close(players: list[HousePlayer]) -> None:
    for player in players:
        await player.close()


def _line(result: DrainRound) -> str:
    return (
        f"hand {result.hand_no} {result.status}, drained in {result.drained_s:.1f} s, "
        f"served again {result.served_s:.1f} s after the exit"
    )


def _figures(kind: str, results: list[DrainRound]) -> dict[str, Any]:
    drained = [r.drained_s for r in results] or [0.0]
    served = [r.served_s for r in results] or [0.0]
    return {
        f"{kind}_rounds": len(results),
        f"{kind}_hands_finished": sum(r.status == "finished" for r in results),
        f"{kind}_drained_s_p50": round(statistics.median(drained), 2),
        f"{kind}_drained_s_max": round(max(drained), 2),
        f"{kind}_served_again_s_max": round(max(served), 2),
    }


async def drill(rounds: int, lease_ms: int, root: Path, redis_url: str, db: str) -> Any:
    data = root / "data"
    data.mkdir(mode=0o700)
    options: dict[str, Any] = {"lease_ms": lease_ms, "log_dir": root, "env": SITE_DRAIN}
    nodes = [Node("a", redis_url, db, data, **options).start()]
    room_id = _iniciante(nodes[0])
    nodes.append(Node("b", redis_url, db, data, **options).start())
    players = await seat_players(nodes[1].address, room_id, ("ana", "bia"))
    try:
        cluster, cluster_failures, cluster_clean = await _cluster(
            nodes, players, rounds, lease_ms, redis_url
        )
        cancelled = len(cancelled_hands(hand_statuses(db, room_id)))
    finally:
        await _close(players)
        for node in nodes:
            node.stop()
    # The lone server: the default site, one process on SQLite, in a data folder of its own.
    lone_data = root / "lone"
    lone_data.mkdir(mode=0o700)
    lone_db = f"sqlite:///{lone_data / 'ahiko.db'}"
    migrate(lone_db, lone_data)
    solo = Node("solo", None, lone_db, lone_data, log_dir=root, env=SITE_DRAIN).start()
    try:
        lone, lone_failures, lone_clean, lone_cancelled = await _lone(solo, rounds)
    finally:
        solo.stop()
    failures = cluster_failures + lone_failures
    return {
        **_figures("cluster", cluster),
        **_figures("lone", lone),
        "hands_cancelled": cancelled + lone_cancelled,
        "ledger_clean_rounds": cluster_clean + lone_clean,
        "failed_rounds": len({f.split(":")[0] for f in failures}),
        "failures": failures[:10],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds of each kind")
    parser.add_argument("--lease-ms", type=int, default=2000)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    return run_drill(
        "ahiko-drain-",
        args.json,
        lambda root, redis, db: drill(args.rounds, args.lease_ms, root, redis.url, db),
    )


if __name__ == "__main__":
    sys.exit(main())
