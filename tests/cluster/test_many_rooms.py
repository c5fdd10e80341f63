"""Issue 14: a node that owns many rooms keeps them on a busy event loop. The 2,000-player
cluster bench lost its tables (4409, then 4404 ``no_room`` for the sockets still to come)
because the node renewed its room leases one Redis round trip at a time: on a loop busy with
hundreds of tables, a round of a few hundred renewals took longer than the leases lasted. The
renewals are one script call now, and the owner and orphan checks one ``MGET``."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as redis

from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.cluster.lease import Leases, lease_key
from ahiko.server.cluster.ownership import RoomOwnership, room_lease
from ahiko.server.cluster.relay import Publisher, RelayEdge, RelayHost
from ahiko.server.limits import LimitsPolicy, SiteLimits
from ahiko.store.engine import make_engine
from ahiko.store.fences import FenceBook

pytestmark = pytest.mark.cluster

ROOMS = 300
TTL_MS = 600
BUSY_S = 0.004  # every turn of the event loop takes at least this long (tables playing)


def test_three_hundred_leases_survive_a_busy_event_loop(sqlite_url: str, redis_url: str) -> None:
    async def scenario() -> tuple[list[tuple[str, str]], int, int]:
        client = redis.Redis.from_url(redis_url)
        engine = make_engine(sqlite_url)
        ownership = RoomOwnership(Leases(client, "a", TTL_MS), engine, FenceBook("a"))
        ownership.start()
        for n in range(ROOMS):
            assert await ownership.claim(f"r-{n}") is not None
        loop = asyncio.get_running_loop()
        busy = True

        def hog() -> None:  # one busy table after another: each turn of the loop is slow
            time.sleep(BUSY_S)
            if busy:
                loop.call_soon(hog)

        loop.call_soon(hog)
        # One at a time, a round of renewals would take ROOMS turns: 1.2 s, twice the lease.
        await asyncio.sleep(4 * TTL_MS / 1000)
        busy = False
        await ownership.stop()
        keys = [lease_key(room_lease(f"r-{n}")) for n in range(ROOMS)]
        held = sum(1 for value in await client.mget(keys) if value is not None)
        holders = await ownership.leases.holders([room_lease(f"r-{n}") for n in range(ROOMS)])
        mine = sum(1 for holder in holders.values() if holder is not None and holder[0] == "a")
        await ownership.release_all()
        await client.aclose()
        engine.dispose()
        return ownership.lost, held, mine

    lost, held, mine = asyncio.run(scenario())
    assert lost == []
    assert held == ROOMS
    assert mine == ROOMS


def test_renew_many_answers_each_lease_and_touches_only_ours(redis_url: str) -> None:
    first = None

    async def scenario() -> tuple[list[bool], dict[str, tuple[str, int] | None]]:
        nonlocal first
        client = redis.Redis.from_url(redis_url)
        a, b = Leases(client, "a", 300), Leases(client, "b", 5000)
        first, second = await a.acquire("room:x1"), await a.acquire("room:x2")
        assert first is not None and second is not None
        await asyncio.sleep(0.4)  # both expire; b takes x2
        assert await b.acquire("room:x2") is not None
        third = await a.acquire("room:x3")
        assert third is not None
        answers = await a.renew_many([first, second, third])
        holders = await a.holders(["room:x1", "room:x2", "room:x3", "room:none"])
        await client.aclose()
        return answers, holders

    answers, holders = asyncio.run(scenario())
    assert first is not None
    # x1 expired and nobody took it: ours again, under its token (issue 41, a Redis blip
    # costs its owner no room); x2 is b's now; x3 still ours
    assert answers == [True, False, True]
    assert holders["room:x1"] == ("a", first.token)
    assert holders["room:x2"] is not None and holders["room:x2"][0] == "b"  # not extended by a
    assert holders["room:x3"] is not None and holders["room:x3"][0] == "a"
    assert holders["room:none"] is None


def test_a_room_joined_through_another_node_is_not_swept_as_unjoined(redis_url: str) -> None:
    """The unjoined-room sweep (issue 17) runs on the room's owner; a person who connects
    through another node joins it there, over the relay, and the owner counts that join."""

    async def scenario() -> tuple[list[str], bool, bool]:
        now = [0.0]
        limits = SiteLimits(LimitsPolicy(unjoined_room_seconds=60), clock=lambda: now[0])
        registry = RoomRegistry(clock=ManualClock())
        joined = registry.create(_config(), host_id="ana")
        idle = registry.create(_config(), host_id="bia")
        for actor in (joined, idle):
            limits.room_created(actor.room_id, actor.host_id or "")
        a_redis, b_redis = redis.Redis.from_url(redis_url), redis.Redis.from_url(redis_url)
        a_pub, b_pub = Publisher(a_redis), Publisher(b_redis)
        a_pub.start()
        b_pub.start()
        host = RelayHost(a_redis, "a", a_pub, registry.get, lambda rid: 1)
        host.on_joined = limits.room_joined
        await host.start()
        edge = RelayEdge(b_redis, "b", b_pub)
        await edge.start()
        remote = edge.remote(joined.room_id, "a", 1)
        remote.subscribe("c-ana", lambda frame: None)
        assert (await remote.ask(c.Connect("c-ana", "ana"))).ok
        now[0] = 61.0
        swept = await limits.sweep(registry)
        for part in (host, edge, a_pub, b_pub):
            await part.stop()
        for client in (a_redis, b_redis):
            await client.aclose()
        return swept, joined.is_open, idle.is_open

    swept, joined_open, idle_open = asyncio.run(scenario())
    assert joined_open
    assert not idle_open and len(swept) == 1  # the contrast: nobody joined it


def _config() -> RoomConfig:
    return RoomConfig(
        name="mesa",
        kind=RoomKind.RECREATIONAL,
        variant=Variant.HOLDEM,
        seats=3,
        starting_chips=1000,
        schedule=BlindSchedule(Stakes(small_blind=5, big_blind=10)),
    )
