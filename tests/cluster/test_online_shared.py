"""Issue 14: the lobby's "N online" is the cluster's. Two nodes count in one Redis sorted set:
a person seen on either node counts once on both, and drops out after the window."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as redis

from ahiko.server.online import ONLINE_WINDOW_S, REFRESH_S, WRITE_BATCH, SharedOnlineCount

pytestmark = pytest.mark.cluster


class Ticks:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_people_seen_on_either_node_count_once_on_both(redis_url: str) -> None:
    async def scenario() -> None:
        ticks = Ticks()
        a_redis, b_redis = redis.Redis.from_url(redis_url), redis.Redis.from_url(redis_url)
        a, b = SharedOnlineCount(a_redis, ticks), SharedOnlineCount(b_redis, ticks)
        try:
            a.seen("1")
            b.seen("2")
            b.seen("1")  # the same person on the other node too
            await a.settled()  # the writes go out on the loop
            await b.settled()
            assert await a.count() == 2 and await b.count() == 2
            ticks.now += REFRESH_S + 1
            a.seen("2")  # 2 stays; 1 is not seen again
            await a.settled()
            ticks.now += ONLINE_WINDOW_S - REFRESH_S
            assert await a.count() == 1 and await b.count() == 1
        finally:
            await a_redis.aclose()
            await b_redis.aclose()

    asyncio.run(scenario())


def test_a_node_writes_an_account_at_most_once_a_refresh(redis_url: str) -> None:
    async def scenario() -> None:
        ticks = Ticks()
        client = redis.Redis.from_url(redis_url)
        online = SharedOnlineCount(client, ticks)
        try:
            for _ in range(50):
                online.seen("7")
            await online.settled()
            first = await client.zscore("ahiko:online", "7")
            ticks.now += REFRESH_S / 2
            online.seen("7")
            await online.settled()
            assert await client.zscore("ahiko:online", "7") == first  # not written again
            ticks.now += REFRESH_S
            online.seen("7")
            await online.settled()
            assert await client.zscore("ahiko:online", "7") > first
        finally:
            await client.aclose()

    asyncio.run(scenario())


def test_the_accounts_seen_are_written_in_batches(redis_url: str) -> None:
    """Every open socket's account is marked seen each refresh: thousands of them go to
    Redis as a few ZADDs of ``WRITE_BATCH``, not one write (and one task) each."""

    async def scenario() -> None:
        client = redis.Redis.from_url(redis_url)
        online = SharedOnlineCount(client, Ticks())
        try:
            await client.config_resetstat()
            for account in range(1_200):
                online.seen(str(account))
            await online.settled()
            stats = await client.info("commandstats")
            assert stats["cmdstat_zadd"]["calls"] == -(-1_200 // WRITE_BATCH)
            assert await online.count() == 1_200
        finally:
            await client.aclose()

    asyncio.run(scenario())
