"""A stand-in room owner for the SIGSTOP fencing test (test_fencing.py): the node's real
ownership code (``RoomOwnership``: a Redis lease, the fence claimed in the database, renewals)
driving the store's real writes about one room, one hand after another.

Each hand: ``begin_hand``, then ``record_hand`` and ``save_seats`` (seat 1 named
``NODE-HAND``). It prints one line per event (``owner TOKEN``, ``recorded HAND`` once the
hand's record is written, ``wrote HAND``, ``lost HAND: why`` when the database ended its
session, ``refused HAND: why``, ``dropped ROOM: why``) and exits once a write was refused.
With ``hold`` its fourth hand first holds a transaction open with the room's fence row
locked (``holding HAND``, for a second): the test freezes it there.
Usage: python fence_worker.py DATABASE_URL REDIS_URL ROOM_ID NODE TTL_MS [hold]
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import redis.asyncio as redis
from sqlalchemy.exc import DBAPIError

from ahiko.server.cluster.lease import Leases
from ahiko.server.cluster.ownership import RoomOwnership
from ahiko.store.engine import make_engine
from ahiko.store.fences import FenceBook, FencedOut, check_fence, install_fences
from ahiko.store.rooms import SeatRecord, begin_hand

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the store's test helpers
from store_helpers import record_hand, save_seats


def say(line: str) -> None:
    print(line, flush=True)


async def main(
    url: str, redis_url: str, room_id: str, node: str, ttl_ms: int, hold: bool = False
) -> None:
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
            if hold and hand_no % 1000 == 4:
                with engine.begin() as conn:
                    check_fence(conn, room_id)
                    say(f"holding {hand_no}")
                    time.sleep(1.0)
            begin_hand(engine, room_id, hand_no, {1: 100})
            record_hand(engine, room_id, hand_no, [{"t": "hand_ended"}], "finished")
            say(f"recorded {hand_no}")
            save_seats(engine, room_id, [SeatRecord(1, "bot", f"{node}-{hand_no}", 100)])
            say(f"wrote {hand_no}")
        except FencedOut as refused:
            say(f"refused {hand_no}: {refused}")
            break
        except DBAPIError as lost:  # paused in a transaction: the database ended the session
            say(f"lost {hand_no}: {str(lost.orig).splitlines()[0]}")
        await asyncio.sleep(0.02)
    await asyncio.wait_for(dropped.wait(), 5)
    await ownership.stop()
    await client.aclose()
    engine.dispose()


if __name__ == "__main__":
    hold = sys.argv[6:7] == ["hold"]
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), hold))
