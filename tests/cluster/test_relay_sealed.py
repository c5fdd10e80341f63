"""Issue 41: Redis carries no card in clear. Two real ``ahiko serve --redis-url`` nodes; node A
owns the house rooms, both players' sockets are on node B, so every frame of their table
(hole cards, board cards, the proofs' salts) reaches them through Redis. A listener on every
channel of the cluster's Redis (``PSUBSCRIBE ahiko:*``, what anyone with access to it could
run) and a ``MONITOR`` of every command record the traffic while they play several hands to
the end: the players saw cards and their openings' salts, Redis carried none of them (sealed
with the nodes' shared key). ``bench/relay_scan.py`` does the same over 100 hands."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from failover import seat_players
from house_players import HousePlayer
from nodes import Node, check_ledger, data_folder, house_room
from redis_scan import cards_seen, in_clear, record, salts_seen

from ahiko.server.house_timing import NEXT_HAND_ENV

pytestmark = pytest.mark.cluster

HANDS = 3
# The pause between hands (R-RM-11's 8 s) shortened: the hands' frames are what is scanned.
QUICK_HANDS = {NEXT_HAND_ENV: "1"}


def _ended(player: HousePlayer) -> set[int]:
    return {
        int(f["hand_no"])
        for f in player.frames
        if f["t"] == "hand" and f["view"].get("result") is not None
    }


def test_relayed_frames_cross_redis_sealed_no_card_in_clear(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    owner = Node("a", redis_url, postgres_url, data, env=QUICK_HANDS).start()
    edge = Node("b", redis_url, postgres_url, data, env=QUICK_HANDS)
    try:
        room_id = house_room(owner)
        edge.start()

        async def scenario() -> tuple[list[HousePlayer], list[tuple[str, bytes]]]:
            seen: list[tuple[str, bytes]] = []
            stop = asyncio.Event()
            listener = asyncio.create_task(record(redis_url, seen, stop))
            players = await seat_players(edge.address, room_id, ("ana", "bia"))
            await asyncio.gather(
                *(p.until(lambda _f, p=p: len(_ended(p)) >= HANDS, timeout=240) for p in players)
            )
            stop.set()
            await listener
            for player in players:
                await player.close()
            return players, seen

        players, seen = asyncio.run(asyncio.wait_for(scenario(), 360))
    finally:
        owner.stop()
        edge.stop()
    relayed = [(c, d) for c, d in seen if c.startswith(("ahiko:conn:", "ahiko:fan:"))]
    commands = [d for c, d in seen if c == "MONITOR"]
    salts = salts_seen(players)
    print(
        f"\n{len(relayed)} relayed frames, {len(commands)} Redis commands; the players saw "
        f"{cards_seen(players)} card lists and {len(salts)} salts; none in clear"
    )
    assert len(relayed) >= 10 * HANDS  # the table's frames did cross Redis
    assert len(commands) >= len(relayed)  # MONITOR saw their PUBLISH commands too
    for player in players:  # ... and they held cards the players saw
        assert cards_seen([player]), f"{player.name} saw no card"
    assert salts  # the hands' openings, shown at their end
    # The search finds them where they are in clear: in the frames the players got.
    own = [(p.name, json.dumps(p.frames, separators=(",", ":")).encode()) for p in players]
    assert {what for _, what in in_clear(own, salts)} >= salts
    assert in_clear(seen, salts) == []
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
