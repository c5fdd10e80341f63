"""Issue 41: Redis carries no card in clear. Two real ``ahiko serve --redis-url`` nodes; node A
owns the house rooms, both players' sockets are on node B, so every frame of their table
(hole cards, board cards, the proofs' salts) reaches them through Redis. A listener on every
channel of the cluster's Redis (``PSUBSCRIBE ahiko:*``, what anyone with access to it could
run) records the traffic while they play several hands to the end: the players saw cards,
the relayed messages hold none (sealed with the nodes' shared key)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
import redis.asyncio as redis
from failover import seat_players
from house_players import HousePlayer
from nodes import Node, check_ledger, data_folder, house_room

pytestmark = pytest.mark.cluster

HANDS = 3
CARD = re.compile(rb'"[2-9TJQKA][cdhs]"')


def _ended(player: HousePlayer) -> set[int]:
    return {
        int(f["hand_no"])
        for f in player.frames
        if f["t"] == "hand" and f["view"].get("result") is not None
    }


async def _listen(url: str, seen: list[tuple[bytes, bytes]], stop: asyncio.Event) -> None:
    client = redis.Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.psubscribe("ahiko:*")
    try:
        while not stop.is_set():
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
            if message is not None:
                seen.append((message["channel"], message["data"]))
    finally:
        await pubsub.aclose()
        await client.aclose()


def test_relayed_frames_cross_redis_sealed_no_card_in_clear(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    owner = Node("a", redis_url, postgres_url, data).start()
    edge = Node("b", redis_url, postgres_url, data)
    try:
        room_id = house_room(owner)
        edge.start()

        async def scenario() -> tuple[list[HousePlayer], list[tuple[bytes, bytes]]]:
            seen: list[tuple[bytes, bytes]] = []
            stop = asyncio.Event()
            listener = asyncio.create_task(_listen(redis_url, seen, stop))
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
    relayed = [(c, d) for c, d in seen if c.startswith((b"ahiko:conn:", b"ahiko:fan:"))]
    print(f"\n{len(seen)} messages on Redis, {len(relayed)} relayed frames, none in clear")
    assert len(relayed) >= 10 * HANDS  # the table's frames did cross Redis
    for player in players:  # ... and they held cards the players saw
        shown = [f for f in player.frames if CARD.search(json.dumps(f).encode())]
        assert shown, f"{player.name} saw no card"
    in_clear = [(c, d[:120]) for c, d in seen if CARD.search(d)]
    assert in_clear == []
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
