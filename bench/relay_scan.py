"""The Redis scan: everything a cluster's Redis carries while ``--hands`` relayed
hands are played, searched for the cards and salts the players saw.

A throwaway PostgreSQL and ``redis-server``, two real nodes (``ahiko serve --redis-url``).
Node A owns the house rooms; two players sit at each of its two beginners' tables with their
sockets on node B, so every frame of those tables (hole cards, boards, the openings' salts)
reaches them through Redis. A recorder (``tests/cluster/redis_scan.py``: ``PSUBSCRIBE
ahiko:*`` and ``MONITOR``, what anyone with access to Redis could run) keeps the traffic
until the tables have finished ``--hands`` hands between them; then it is searched for every
card list and every salt the players' frames held. The pause between hands is shortened
(``AHIKO_NEXT_HAND_DELAY_S``) so the hands come sooner; nothing else differs from a site."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import httpx
from drill_env import run_drill  # the tests' helpers on the path too

# isort: split
from failover import seat_players
from house_players import HousePlayer
from nodes import Node, check_ledger
from redis_scan import cards_seen, in_clear, record, salts_seen

QUICK_HANDS = {"AHIKO_NEXT_HAND_DELAY_S": "1"}


def _ended(player: HousePlayer) -> set[int]:
    return {
        int(f["hand_no"])
        for f in player.frames
        if f["t"] == "hand" and f["view"].get("result") is not None
    }


async def drill(hands: int, root: Path, redis_url: str, db: str) -> dict[str, Any]:
    data = root / "data"
    data.mkdir(mode=0o700)
    owner = Node("a", redis_url, db, data, log_dir=root, env=QUICK_HANDS).start()
    rooms = httpx.get(f"{owner.url}/api/ahiko/rooms").json()
    tables = [str(r["id"]) for r in rooms if r["tier"] == "iniciante"][:2]
    edge = Node("b", redis_url, db, data, log_dir=root, env=QUICK_HANDS).start()
    seen: list[tuple[str, bytes]] = []
    stop = asyncio.Event()
    recorder = asyncio.create_task(record(redis_url, seen, stop))
    players: list[HousePlayer] = []
    try:
        for n, room_id in enumerate(tables):
            players += await seat_players(edge.address, room_id, (f"ana{n}", f"bia{n}"))
        each = -(-hands // len(tables))  # hands per table, rounded up

        def done(player: HousePlayer) -> bool:
            return len(_ended(player)) >= each

        await asyncio.gather(
            *(p.until(lambda _f, p=p: done(p), timeout=600) for p in players)  # type: ignore[misc]
        )
        stop.set()
        await recorder
        checked = await asyncio.to_thread(check_ledger, db, data)
    finally:
        stop.set()
        for player in players:
            await player.close()
        owner.stop()
        edge.stop()
    played = sum(len(_ended(p)) for p in players[::2])  # one player a table counts its hands
    salts = salts_seen(players)
    found = in_clear(seen, salts)
    own = [(p.name, json.dumps(p.frames, separators=(",", ":")).encode()) for p in players]
    relayed = sum(c.startswith(("ahiko:conn:", "ahiko:fan:")) for c, _ in seen)
    return {
        "hands": played,
        "relayed_messages": relayed,
        "redis_commands": sum(c == "MONITOR" for c, _ in seen),
        "redis_bytes": sum(len(d) for _, d in seen),
        "card_lists_players_saw": cards_seen(players),
        "salts_players_saw": len(salts),
        "salts_found_in_the_players_frames": len({w for _, w in in_clear(own, salts)} & salts),
        "secrets_in_clear_on_redis": len(found),
        "ledger_clean": checked.returncode == 0,
        "failed_rounds": int(bool(found) or checked.returncode != 0 or played < hands),
        "failures": [f"{source}: {what}" for source, what in found[:10]],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    return run_drill(
        "ahiko-relay-scan-",
        args.json,
        lambda root, redis, db: drill(args.hands, root, redis.url, db),
    )


if __name__ == "__main__":
    sys.exit(main())
