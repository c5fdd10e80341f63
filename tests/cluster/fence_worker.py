"""A stand-in room owner for the SIGSTOP fencing test (test_fencing.py): the node's real
ownership code (``RoomOwnership``: a Redis lease, the fence claimed in the database, renewals)
driving the store's real writes about one room, one hand after another.

Each hand: ``begin_hand``, then ``record_hand`` and ``save_seats`` (seat 1 named
``NODE-HAND``). It prints one line per event (``owner TOKEN``, ``wrote HAND``, ``refused
HAND: why``, ``dropped ROOM: why``) and exits once a write was refused.
Usage: python fence_worker.py DATABASE_URL REDIS_URL ROOM_ID NODE TTL_MS
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import redis.asyncio as redis

from ahiko.server.cluster.lease import Leases
from ahiko.server.cluster.ownership import RoomOwnership
from ahiko.store.engine import make_engine
from ahiko.store.fences import FenceBook, FencedOut, install_fences
from ahiko.store.rooms import SeatRecord, begin_hand

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the store's test helpers
from store_helpers import record_hand, save_seats


def say(line: str) -> None:
    print(line, flush=True)


async def main(url: str, redis_url: str, room_id: str, node: str, ttl_ms: int) -> None:
    engine = make_engine(url)
    client = redis.Redis.from_url(redis_url)
    dropped = asyncio.Event()
    ownership: RoomOwnership

    def lost(room: str, why: str) -> None:
        say(f"dropped {room}: {why}")
        dropped.set()

    book = FenceBook(node, on_fenced=lambda room: ownership.fenced(room))
    install_fences(engine, book)
    ownership = RoomOwnership(Leases(client, node, ttl_ms), engine, book, on_lost=lost)
    token = None
    while token is None:
        token = await ownership.claim(room_id)
        if token is None:
            await asyncio.sleep(0.05)
    say(f"owner {token}")
    ownership.start()
    hand_no = 1000 * token
    # It writes until the database refuses it, whatever its renewals found meanwhile: the
    # owner that was cut off and has not noticed, whom only the fence can stop.
    while True:
        hand_no += 1
        try:
            begin_hand(engine, room_id, hand_no, {1: 100})
            record_hand(engine, room_id, hand_no, [{"t": "hand_ended"}], "finished")
            save_seats(engine, room_id, [SeatRecord(1, "bot", f"{node}-{hand_no}", 100)])
            say(f"wrote {hand_no}")
        except FencedOut as refused:
            say(f"refused {hand_no}: {refused}")
            break
        await asyncio.sleep(0.02)
    await asyncio.wait_for(dropped.wait(), 5)
    await ownership.stop()
    await client.aclose()
    engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
