"""Leases in Redis with fencing tokens: who owns a room, who leads the cluster.

A lease is one key, ``ahiko:lease:NAME``, whose value is ``NODE:TOKEN`` and which expires
``ttl_ms`` after its last renewal. ``acquire`` sets it only when nobody holds it (``SET … NX
PX``, in a Lua script that also draws the token) and answers the fencing token: ``INCR
ahiko:fence:NAME``, a number that only grows, one more for every new holder. ``renew`` and
``release`` are Lua scripts that touch the key only while it still holds *our* value, so a
holder whose lease expired and went to another can neither extend nor delete the new holder's.

The token, not the lease, is what keeps a stale holder from doing harm: a holder paused past
its lease may still *believe* it holds it until its next renewal fails, so every durable write
carries the token and the database refuses an old one (``ahiko.store.fences``).

If Redis lost its data (no persistence, a failover to an empty replica) the counter would
start again below tokens the database already saw; ``raise_floor`` moves it past them, and a
holder renewing a lease Redis forgot puts it back under its own token (``renew_many``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PREFIX = "ahiko:"

_ACQUIRE = """
if redis.call('SET', KEYS[1], 'claiming', 'NX', 'PX', ARGV[2]) then
    local token = redis.call('INCR', KEYS[2])
    redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
    return token
end
return 0
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# Every lease of a node in one call (a node may hold hundreds of rooms: one round trip each, on
# a busy event loop, took longer than the leases lasted). Answers 1 or 0 per key, in order.
# KEYS: the leases, then their fence counters; ARGV: the ttl, the values, then the tokens.
# A lease whose key is *gone* (Redis restarted empty, or stopped past its expiry) and whose
# counter drew no token after ours (nobody took it meanwhile; an empty Redis's counter starts
# again at nothing) is ours again, under the same token, the counter put back at that token: a
# blip of Redis costs its owner no room. An owner that was merely slow, whose lease another
# node took and let lapse since, finds the counter past its token and loses the room.
_RENEW_MANY = """
local n = #KEYS / 2
local out = {}
for i = 1, n do
    local key = KEYS[i]
    local now = redis.call('GET', key)
    if now == ARGV[i + 1] then
        out[i] = redis.call('PEXPIRE', key, ARGV[1])
    elseif not now and tonumber(redis.call('GET', KEYS[n + i]) or '0') <= tonumber(ARGV[n + i + 1])
            and redis.call('SET', key, ARGV[i + 1], 'NX', 'PX', ARGV[1]) then
        redis.call('SET', KEYS[n + i], ARGV[n + i + 1])
        out[i] = 1
    else
        out[i] = 0
    end
end
return out
"""

#: Keys per ``renew_many`` script call (Redis runs a script alone: keep each one short).
RENEW_BATCH = 500

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""

_RAISE_FLOOR = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then
    redis.call('SET', KEYS[1], ARGV[1])
    return tonumber(ARGV[1])
end
return now
"""


@dataclass(frozen=True, slots=True)
class Held:
    """A lease this node holds: its name, token and the value stored under its key."""

    name: str
    token: int
    value: str


def lease_key(name: str) -> str:
    return f"{PREFIX}lease:{name}"


def fence_key(name: str) -> str:
    return f"{PREFIX}fence:{name}"


class Leases:
    """The leases of one node (``node`` names it in every value it stores)."""

    def __init__(self, redis: Any, node: str, ttl_ms: int) -> None:
        if ttl_ms < 100:
            raise ValueError(f"a lease lasts at least 100 ms, not {ttl_ms}")
        if ":" in node:
            raise ValueError(f"a node name has no ':' ({node!r})")
        self.redis = redis
        self.node = node
        self.ttl_ms = ttl_ms
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._renew_many = redis.register_script(_RENEW_MANY)
        self._release = redis.register_script(_RELEASE)
        self._raise_floor = redis.register_script(_RAISE_FLOOR)

    async def acquire(self, name: str) -> Held | None:
        """The lease and its new token, or None while another node holds it."""
        token = int(
            await self._acquire(
                keys=[lease_key(name), fence_key(name)], args=[self.node, self.ttl_ms]
            )
        )
        if token == 0:
            return None
        return Held(name, token, f"{self.node}:{token}")

    async def renew(self, held: Held) -> bool:
        """True while ``held`` is still ours (its expiry moved ``ttl_ms`` ahead)."""
        return bool(await self._renew(keys=[lease_key(held.name)], args=[held.value, self.ttl_ms]))

    async def renew_many(self, helds: list[Held]) -> list[bool]:
        """``renew`` for every lease of ``helds``, in one round trip per ``RENEW_BATCH``."""
        answers: list[bool] = []
        for first in range(0, len(helds), RENEW_BATCH):
            batch = helds[first : first + RENEW_BATCH]
            keys = [lease_key(h.name) for h in batch] + [fence_key(h.name) for h in batch]
            args = [self.ttl_ms, *(h.value for h in batch), *(h.token for h in batch)]
            answers.extend(bool(n) for n in await self._renew_many(keys=keys, args=args))
        return answers

    async def release(self, held: Held) -> bool:
        return bool(await self._release(keys=[lease_key(held.name)], args=[held.value]))

    async def holder(self, name: str) -> tuple[str, int] | None:
        """(node, token) of the lease's current holder, or None when it is free."""
        return _holder(await self.redis.get(lease_key(name)))

    async def holders(self, names: list[str]) -> dict[str, tuple[str, int] | None]:
        """``holder`` of every lease of ``names``, in one round trip (``MGET``)."""
        if not names:
            return {}
        values = await self.redis.mget([lease_key(name) for name in names])
        return {name: _holder(value) for name, value in zip(names, values, strict=True)}

    async def run_id(self) -> str:
        """The Redis server's run id: a new one after every restart (its data may be gone)."""
        info = await self.redis.info("server")
        return str(info.get("run_id", ""))

    async def raise_floor(self, name: str, floor: int) -> int:
        """Make the next token of ``name`` greater than ``floor``; answers the counter."""
        return int(await self._raise_floor(keys=[fence_key(name)], args=[floor]))


def _holder(value: Any) -> tuple[str, int] | None:
    """A lease key's value ``NODE:TOKEN`` as (node, token); None when free (or claiming)."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else str(value)
    node, _, token = text.rpartition(":")
    return (node, int(token)) if token.isdigit() else None
