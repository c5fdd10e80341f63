"""Rate limits that hold across the nodes of a cluster: one sliding window per key
in Redis, shared by every node, instead of one per process (``security.SlidingWindow``), so a
client spreading its sign-ups or log-ins over the nodes behind a load balancer gets no more
than the site's limit. The clock is Redis's own (``TIME``), the same for every node.

``SharedLoginThrottle`` is the failed-log-in throttle (``ahiko.server.login_throttle``) on
counts shared in Redis: one sorted set of failures per address and one per account, decided
and counted in one Lua script (atomic across the nodes), before any database read or hash.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from ahiko.server.cluster.lease import PREFIX
from ahiko.server.login_throttle import (
    KNOWN_ADDRESS_SECONDS,
    MAX_PER_KEY,
    Attempt,
    LoginLimits,
    Refused,
    keys,
)
from ahiko.server.security import RateLimit

_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
"""


class SharedWindows:
    """``allow(name, limit, key)``: record one event of ``name`` (``sign_up``, ``log_in``) for
    ``key`` (a client address) unless the cluster saw ``limit.count`` in the last
    ``limit.seconds``; answers (allowed, seconds to wait when not)."""

    def __init__(self, redis: Any) -> None:
        self._script = redis.register_script(_WINDOW)
        self._ids = itertools.count(1)
        self._me = f"{os.getpid()}-{os.urandom(4).hex()}"

    async def allow(self, name: str, limit: RateLimit, key: str) -> tuple[bool, int]:
        member = f"{self._me}-{next(self._ids)}"
        allowed, wait_ms = await self._script(
            keys=[f"{PREFIX}rate:{name}:{key}"],
            args=[round(limit.seconds * 1000), limit.count, member],
        )
        return bool(allowed), 0 if allowed else max(1, round(int(wait_ms) / 1000))


# KEYS: the address's failures, the account's, the account's known addresses (signed in
# from: not refused by the account's limit); ARGV: window ms, per address, per account,
# the attempt's member, the most failures kept per key, the address, how long an address
# stays known (ms). Answers {1, 0} (counted) or
# {0, ms until the refusing failure leaves the window}.
MAX_KNOWN_PER_ACCOUNT = 50  # the addresses an account signed in from, most recent kept
_LOG_IN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local function refused(key)
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local from_address = redis.call('ZCARD', KEYS[1])
if from_address >= tonumber(ARGV[2]) then
    return refused(KEYS[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
    local since = redis.call('ZSCORE', KEYS[3], ARGV[6])
    if not since or now - tonumber(since) >= tonumber(ARGV[7]) then
        return refused(KEYS[2])
    end
end
for _, key in ipairs({KEYS[1], KEYS[2]}) do
    redis.call('ZADD', key, now, ARGV[4])
    redis.call('ZREMRANGEBYRANK', key, 0, -tonumber(ARGV[5]) - 1)
    redis.call('PEXPIRE', key, window)
end
return {1, 0}
"""


class SharedLoginThrottle:
    """``LocalLoginThrottle``'s rule for every node of the cluster at once."""

    def __init__(self, redis: Any, limits: LoginLimits | None = None) -> None:
        self.limits = limits or LoginLimits()
        self._redis = redis
        self._script = redis.register_script(_LOG_IN)
        self._ids = itertools.count(1)
        self._me = f"{os.getpid()}-{os.urandom(4).hex()}"

    async def begin(self, username: str, address: str) -> Attempt | Refused:
        address_key, account_key = keys(username, address)
        attempt = Attempt(f"{self._me}-{next(self._ids)}", address_key, account_key)
        limits = self.limits
        counted, wait_ms = await self._script(
            keys=_keys(attempt),
            args=[
                round(limits.window_seconds * 1000),
                limits.per_address,
                limits.per_account,
                attempt.id,
                MAX_PER_KEY,
                attempt.address,
                round(KNOWN_ADDRESS_SECONDS * 1000),
            ],
        )
        if counted:
            return attempt
        return Refused(max(1, -(-int(wait_ms) // 1000)))

    def known_address_refusal(self, address: str) -> Refused | None:
        return None  # the counts are in Redis: the route's one script decides

    async def succeeded(self, attempt: Attempt) -> None:
        failures_of_address, failures_of_account, known = _keys(attempt)
        async with self._redis.pipeline(transaction=True) as pipe:
            for key in (failures_of_address, failures_of_account):
                pipe.zrem(key, attempt.id)
            pipe.zadd(known, {attempt.address: await _redis_ms(self._redis)})
            pipe.zremrangebyrank(known, 0, -MAX_KNOWN_PER_ACCOUNT - 1)
            pipe.pexpire(known, round(KNOWN_ADDRESS_SECONDS * 1000))
            await pipe.execute()


def _keys(attempt: Attempt) -> list[str]:
    return [
        f"{PREFIX}log_in_failures:address:{attempt.address}",
        f"{PREFIX}log_in_failures:account:{attempt.account}",
        f"{PREFIX}log_in_known:account:{attempt.account}",
    ]


async def _redis_ms(redis: Any) -> int:
    """Redis's clock in ms, the one the log-in script reads."""
    seconds, micros = await redis.time()
    return int(seconds) * 1000 + int(micros) // 1000
