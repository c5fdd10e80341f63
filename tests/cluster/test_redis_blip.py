"""Issue 41: a Redis blip costs no table. Two real nodes (``ahiko serve --redis-url``) on a
real PostgreSQL and a ``redis-server`` of this test's own; two players sit, their sockets on
the node that owns their house room. Mid-hand Redis is killed with SIGKILL and started again
empty a second later, then (another hand) frozen with SIGSTOP for five seconds. Each time:
the owner, whose lease had not run out by its own clock, keeps the room under the same
fencing token (it puts back the lease Redis forgot), the next action is answered (within 2 s of
Redis returning in the drill, ``bench/redis_blip.py``, which times it), the sockets stay open, the hand plays to its end (not cancelled), no chip
moves, and ``ahiko admin check-ledger`` is clean."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from failover import seat_players
from nodes import Node, check_ledger, data_folder, house_room
from redis_blip import blip_round

from ahiko.wallet.policy import SIGNUP_GRANT
from redis_server import RedisServer

pytestmark = pytest.mark.cluster

# Longer than the five-second freeze, so the owner's lease is valid by its own clock throughout
# (the case in question), with room for a loaded machine's slow renewals.
LEASE_MS = 8000
FAULTS = ("kill", "freeze")  # the drill (bench/redis_blip.py) plays ten rounds of each


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A ``redis-server`` for this test alone: it is killed and frozen."""
    server = RedisServer()
    try:
        yield server
    finally:
        server.stop()


def test_an_owner_keeps_its_tables_through_redis_killed_and_frozen(
    own_redis: RedisServer, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    owner = Node("a", own_redis.url, postgres_url, data, lease_ms=LEASE_MS).start()
    other = Node("b", own_redis.url, postgres_url, data, lease_ms=LEASE_MS)
    try:
        room_id = house_room(owner)
        other.start()

        async def scenario() -> None:
            players = await seat_players(owner.address, room_id, ("ana", "bia"))
            last = 0
            for fault in FAULTS:
                result = await blip_round(
                    own_redis, players, postgres_url, LEASE_MS / 1000, fault, last
                )
                print(f"\nredis blip: {result}")
                last = result.hand_no
                assert result.holder_before is not None
                assert result.holder_after == result.holder_before, result  # same owner, token
                assert result.status == "finished", result  # not cancelled
                assert result.closes == [], result  # no 4409, no 4404
                assert result.chips == 300, result
                assert result.notes == [], result
            for player in players:
                assert await player.wallet_on(owner.address) == SIGNUP_GRANT - 150
                await player.close()

        asyncio.run(asyncio.wait_for(scenario(), 600))
    finally:
        owner.stop()
        other.stop()
    assert "Traceback" not in owner.log(), owner.log()[-3000:]
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
