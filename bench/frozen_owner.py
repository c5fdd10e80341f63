"""The frozen-owner drill: freeze the owner of an Ahiko room mid-hand with SIGSTOP
past its lease, wake it, and play on, ``--rounds`` times.

A throwaway PostgreSQL and ``redis-server``, two real nodes (``ahiko serve --redis-url``,
``--lease-ms`` leases). Two players sit at a house room with their sockets on the node that
does not own it. Each round: a hand is dealt and the first to act calls; the owner is frozen
for three leases; the other node takes the room over (the hand cancelled, the bets back); the
frozen node is woken with SIGCONT and must drop its run of the room for good; the table plays
on at the new owner until it deals the next hand. Checked each round: the woken node dropped
the run and cancelled its timers, no write of that run reached the database, the cancelled
hand stayed cancelled, nobody was cashed out, ``ahiko admin check-ledger`` clean. The players
then move their sockets to the woken node, so the next round freezes the other one.

The three minutes are shared: the rounds run back to back (each a real freeze of its own
owner), and after the last one the table plays on ``--play-on-s`` (180 s: past the old runs'
action deadlines and their players' absence withdrawal, the timers that once settled the
cancelled hand and cashed both players out). Every round's dropped run thus had at least
that long, while the table played, to do something it must never do; then every round's hand
is read again (still cancelled), nobody's stay closed, and check-ledger runs once more."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from drill_env import run_drill  # the tests' helpers on the path too
from failover import owner_and_edge, seat_players, sockets_to
from frozen_owner import closed_stays, frozen_owner_round, hand_status, play_on
from house_players import play_while
from nodes import Node, check_ledger

ROUND_PLAY_ON_S = 0.1  # each round: until the new owner deals the next hand


async def drill(
    rounds: int, lease_ms: int, play_on_s: float, root: Path, redis_url: str, db: str
) -> dict[str, Any]:
    data = root / "data"
    data.mkdir(mode=0o700)
    nodes = [Node("a", redis_url, db, data, lease_ms=lease_ms, log_dir=root).start()]
    rooms = httpx.get(f"{nodes[0].url}/api/ahiko/rooms").json()
    room_id = str(next(r["id"] for r in rooms if r["tier"] == "iniciante"))
    nodes.append(Node("b", redis_url, db, data, lease_ms=lease_ms, log_dir=root).start())
    players = await seat_players(nodes[1].address, room_id, ("ana", "bia"))
    failures: list[str] = []
    ledger_clean = 0
    timers = 0
    frozen_hands: list[int] = []
    last_drop = time.monotonic()
    try:
        for n in range(1, rounds + 1):
            owner, edge = await owner_and_edge(redis_url, room_id, nodes)
            await sockets_to(players, edge)  # on the node that does not own the room
            result = await frozen_owner_round(
                owner,
                players,
                db,
                lease_ms / 1000,
                ROUND_PLAY_ON_S,
                after=max(frozen_hands, default=0),
            )
            last_drop = time.monotonic()
            frozen_hands.append(result.hand_no)
            timers += result.timers_cancelled
            problems = list(result.notes)
            if result.status_at_takeover != "cancelled" or result.status_after != "cancelled":
                problems.append(
                    f"hand {result.hand_no}: {result.status_at_takeover} -> {result.status_after}"
                )
            if not result.dropped:
                problems.append("the woken owner never dropped its run")
            if result.refused_after_drop:
                problems.append(f"{result.refused_after_drop} write(s) of the dropped run")
            if result.closed_stays:
                problems.append(f"{result.closed_stays} player(s) cashed out")
            checked = await play_while(players, asyncio.to_thread(check_ledger, db, data))
            ledger_clean += checked.returncode == 0
            if checked.returncode != 0:
                problems.append(f"check-ledger: {checked.stdout[-300:]}")
            failures += [f"round {n}: {p}" for p in problems]
            print(
                f"round {n}: hand {result.hand_no} {result.status_after}, "
                f"{result.timers_cancelled} timer(s) cancelled, problems {problems}",
                file=sys.stderr,
            )
        hands_on, _ = await play_on(players, max(frozen_hands, default=0), play_on_s)
        horizon = time.monotonic() - last_drop
        for n, hand_no in enumerate(frozen_hands, start=1):
            status = hand_status(db, room_id, hand_no)
            if status != "cancelled":
                failures.append(f"round {n}: hand {hand_no} {status} after the play-on")
        closed = closed_stays(db, room_id)
        if closed:
            failures.append(f"after the play-on: {closed} player(s) cashed out")
        final = await asyncio.to_thread(check_ledger, db, data)
        if final.returncode != 0:
            failures.append(f"after the play-on: check-ledger {final.stdout[-300:]}")
        print(f"play-on: {hands_on} hands in {horizon:.0f} s after the last drop", file=sys.stderr)
    finally:
        for player in players:
            await player.close()
        for node in nodes:
            node.stop()
    return {
        "rounds": rounds,
        "lease_s": lease_ms / 1000,
        "play_on_s": play_on_s,
        "last_drop_to_final_check_s": round(horizon, 1),
        "hands_played_after_last_round": hands_on,
        "frozen_hands_still_cancelled": sum(
            hand_status(db, room_id, h) == "cancelled" for h in frozen_hands
        ),
        "timers_cancelled": timers,
        "ledger_clean_rounds": ledger_clean,
        "failed_rounds": len({f.split(":")[0] for f in failures}),
        "failures": failures[:10],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--lease-ms", type=int, default=3000)
    parser.add_argument("--play-on-s", type=float, default=180.0)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    return run_drill(
        "ahiko-frozen-",
        args.json,
        lambda root, redis, db: drill(
            args.rounds, args.lease_ms, args.play_on_s, root, redis.url, db
        ),
    )


if __name__ == "__main__":
    sys.exit(main())
