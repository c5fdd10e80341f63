"""The failover drill: kill the owner of an Ahiko room mid-hand, ``--rounds`` times.

A throwaway PostgreSQL and ``redis-server``, two real nodes (``ahiko serve --redis-url``,
``--lease-ms`` leases). Two players sit at a house room with their sockets on the node that
does not own it. Each round: a hand is dealt and the first to act calls (chips beyond the
blinds in the pot); the owner is killed with SIGKILL; the sockets are closed by the other node
once the lease runs out, the players reconnect by themselves and the other node takes the room
over. Measured: kill -> the room served again on a player's socket (the first frame of its new
run), for both players; checked: the interrupted hand recorded as cancelled, both back at its
start stacks (no coin lost), a new epoch, ``ahiko admin check-ledger`` clean after the round.
The killed node is then restarted and the players move their sockets to it, so the next round
kills the other node. Goal: every round served within lease + 2 s."""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

import httpx
from drill_env import run_drill  # the tests' helpers on the path too
from failover import failover_round, node_suffix, owner_and_edge, seat_players, sockets_to
from nodes import Node, check_ledger


async def drill(rounds: int, lease_ms: int, root: Path, redis_url: str, db: str) -> dict[str, Any]:
    data = root / "data"
    data.mkdir(mode=0o700)
    nodes = {"a": Node("a", redis_url, db, data, lease_ms=lease_ms, log_dir=root).start()}
    rooms = httpx.get(f"{nodes['a'].url}/api/ahiko/rooms").json()
    room_id = str(next(r["id"] for r in rooms if r["tier"] == "iniciante"))
    nodes["b"] = Node("b", redis_url, db, data, lease_ms=lease_ms, log_dir=root).start()
    players = await seat_players(nodes["b"].address, room_id, ("ana", "bia"))
    lease_s = lease_ms / 1000
    served: list[float] = []
    both: list[float] = []
    failures: list[str] = []
    ledger_clean = 0
    last_hand = 0
    restarts = 0
    try:
        for n in range(1, rounds + 1):
            owner, edge = await owner_and_edge(redis_url, room_id, list(nodes.values()))
            await sockets_to(players, edge)  # on the node that does not own the room
            result = await failover_round(
                owner, players, db, lease_s, after=last_hand, deal_again=False
            )
            last_hand = result.hand_no
            served.append(result.served_s)
            both.append(result.both_s)
            problems = []
            if result.status != "cancelled":
                problems.append(f"hand {result.hand_no} is {result.status}")
            if result.stacks_after != result.stacks_before:
                problems.append(f"stacks {result.stacks_before} -> {result.stacks_after}")
            if sum(result.stacks_after.values()) != 300:
                problems.append(f"coins lost: {result.stacks_after}")
            if result.new_epoch == result.old_epoch:
                problems.append("same epoch")
            if not result.new_owner.endswith(node_suffix(edge)):
                problems.append(f"served by {result.new_owner}, not {edge.name}")
            if result.served_s >= lease_s + 2 or result.both_s >= lease_s + 2:
                problems.append(f"served after {result.both_s:.2f} s")
            checked = check_ledger(db, data)
            ledger_clean += checked.returncode == 0
            if checked.returncode != 0:
                problems.append(f"check-ledger: {checked.stdout[-300:]}")
            failures += [f"round {n}: {p}" for p in problems]
            print(
                f"round {n}: served {result.served_s:.2f} s, both {result.both_s:.2f} s, hand "
                f"{result.hand_no} {result.status}, stacks {result.stacks_after}",
                file=sys.stderr,
            )
            restarts += 1
            name = f"{owner.name.rstrip('0123456789')}{restarts}"
            nodes = {
                edge.name: edge,
                name: Node(name, redis_url, db, data, lease_ms=lease_ms, log_dir=root).start(),
            }
    finally:
        for player in players:
            await player.close()
        for node in nodes.values():
            node.stop()
    return {
        "rounds": rounds,
        "lease_s": lease_s,
        "served_s_p50": round(statistics.median(served), 3) if served else None,
        "served_s_max": round(max(served), 3) if served else None,
        "both_served_s_max": round(max(both), 3) if both else None,
        "ledger_clean_rounds": ledger_clean,
        "failed_rounds": len({f.split(":")[0] for f in failures}),
        "failures": failures[:10],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--lease-ms", type=int, default=2000)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    return run_drill(
        "ahiko-failover-",
        args.json,
        lambda root, redis, db: drill(args.rounds, args.lease_ms, root, redis.url, db),
    )


if __name__ == "__main__":
    sys.exit(main())
