"""Rate limits that hold across the nodes of a cluster (issue 14): one sliding window per key
in Redis, shared by every node, instead of one per process (``security.SlidingWindow``), so a
client spreading its sign-ups or log-ins over the nodes behind a load balancer gets no more
than the site's limit. The clock is Redis's own (``TIME``), the same for every node.

(Failed log-ins are throttled per name and per address from the ``login_attempts`` table, in
the shared database: that throttle already holds across nodes.)
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from ahiko.server.cluster.lease import PREFIX
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
