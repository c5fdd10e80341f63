"""One node of a cluster: what ``--redis-url`` adds to a server.

- the rooms it owns (``RoomOwnership``: a lease and a fencing token each, the database's fence
  installed on its engine), served to the other nodes by a ``RelayHost``;
- a ``RelayEdge`` for its sockets to rooms owned elsewhere: ``find(room_id)`` answers the local
  actor, or a ``RemoteActor`` for the room's owner (from its lease), or None;
- its route (``--node-route``), published for the other nodes: a socket that reached them for
  one of this node's rooms, from a client that can follow it, is sent here (``owner_route``);
- the cluster's shared rate windows (``app.state.shared_windows``) and failed-log-in throttle
  (``login_throttle``, the accounts' throttle while the node runs).

A room whose lease or fence this node lost is dropped at once (its actor stopped and
forgotten, every timer of that run cancelled): the remote sockets see the owner change and
reconnect. Each run of a room carries the fencing token it began with
(``ahiko.store.fences.run_context``), so a write the dropped run had set off is refused even
after this node owns the room again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import socket
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Engine

from ahiko.server.cluster.counters import SharedLoginThrottle, SharedWindows
from ahiko.server.cluster.lease import PREFIX, Leases
from ahiko.server.cluster.ownership import RoomOwnership, room_lease
from ahiko.server.cluster.relay import Publisher, RelayEdge, RelayHost, RemoteActor
from ahiko.server.cluster.sealing import RelaySeal
from ahiko.store.fences import LEADER_FENCE, FenceBook, install_fences, run_context

log = logging.getLogger(__name__)

DEFAULT_LEASE_MS = 5000
REDIS_CONNECTIONS = 64  # the node's pool for leases, lobby and counters (not the relay's)
REDIS_WAIT_S = 10.0  # a command waits this long for one of them


def node_name(port: int) -> str:
    """Unique across the cluster and its restarts: host, port, process."""
    host = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname())
    return f"{host}-{port}-{os.getpid()}"


def lobby_key(node: str) -> str:
    return f"{PREFIX}lobby:{node}"


def house_key(node: str) -> str:
    """A node's open house rooms, as the Ahiko lobby lists them."""
    return f"{PREFIX}house:{node}"


# Lobby entries encoded between two turns of the event loop (a 375-table lobby is 220 kB
# of JSON: 7 ms in one piece).
ENCODE_CHUNK = 50


async def encode_in_chunks(entries: list[dict[str, Any]]) -> str:
    """``json.dumps(entries)``, a chunk of entries at a time, the loop served between."""
    parts = []
    for first in range(0, len(entries), ENCODE_CHUNK):
        if first:
            await asyncio.sleep(0)
        parts.append(json.dumps(entries[first : first + ENCODE_CHUNK])[1:-1])
    return "[" + ",".join(parts) + "]"


class PublishedLobbies:
    """Other nodes' published lobbies, each decoded once per published value: every lobby
    request reads them, and a node republishes every third of a lease. One value kept a
    node (its last)."""

    def __init__(self) -> None:
        self._last: dict[bytes | str, tuple[bytes | str, list[dict[str, Any]]]] = {}

    def parse(self, key: bytes | str, value: bytes | str | None) -> list[dict[str, Any]]:
        if not value:
            self._last.pop(key, None)
            return []
        kept = self._last.get(key)
        if kept is not None and kept[0] == value:
            return kept[1]
        decoded: list[dict[str, Any]] = json.loads(value)
        self._last[key] = (value, decoded)
        return decoded

    def keep_only(self, keys: list[bytes | str]) -> None:
        """Forget the nodes no longer publishing (gone with their lease)."""
        for key in set(self._last) - set(keys):
            del self._last[key]


def route_key(node: str) -> str:
    return f"{PREFIX}route:{node}"


_ROUTE = re.compile(r"(/[A-Za-z0-9._~-]+)+")


def route_refusal(route: str | None, redis_url: str | None) -> str | None:
    """Why ``--node-route`` cannot be used as given (None: it can, or it is not set)."""
    if route is None:
        return None
    if redis_url is None:
        return "--node-route names this node's path on a cluster's balancer: it needs --redis-url"
    if not _ROUTE.fullmatch(route):
        return f"--node-route {route!r}: a path such as /n/a (letters, digits, '.', '_', '~', '-')"
    return None


def lease_ms(env: Any = None) -> int:
    env = os.environ if env is None else env
    return int(env.get("AHIKO_LEASE_MS", DEFAULT_LEASE_MS))


class ClusterNode:
    def __init__(
        self,
        redis_url: str,
        node: str,
        engine: Engine,
        registry: Any,
        ttl_ms: int,
        route: str | None = None,
        seal: RelaySeal | None = None,
    ) -> None:
        import redis.asyncio as redis
        from redis import __version__ as redis_version
        from redis.driver_info import DriverInfo

        self.node = node
        self.route = route
        self.engine = engine
        self.registry = registry
        # A burst of commands (every socket of a failover reconnecting at once) waits for a
        # connection: redis-py's default pool refuses the 101st in use at once.
        # The version named outright: redis-py otherwise looks itself up in the installed
        # packages' metadata for every new connection, about a millisecond of the event
        # loop each (seen as stalls under load).
        pool = redis.BlockingConnectionPool.from_url(
            redis_url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT_S,
            driver_info=DriverInfo(lib_version=redis_version),
        )
        self.redis = redis.Redis.from_pool(pool)
        self.leases = Leases(self.redis, node, ttl_ms)
        self.book = FenceBook(node, on_fenced=self._fenced)
        self.ownership = RoomOwnership(self.leases, engine, self.book, on_lost=self._drop)
        self.publisher = Publisher(self.redis)
        # ``seal``: the relayed frames' shared key (``ahiko.server.cluster.sealing``).
        self.host = RelayHost(
            self.redis, node, self.publisher, self._owned_actor, self.ownership.token, seal
        )
        self.edge = RelayEdge(self.redis, node, self.publisher, seal)
        self.shared_windows = SharedWindows(self.redis)
        self.login_throttle = SharedLoginThrottle(self.redis)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._remotes: weakref.WeakSet[RemoteActor] = weakref.WeakSet()
        self._watch: asyncio.Task[None] | None = None
        # Set by ``ClusterHouse``: take over a free house room; this node's house entries.
        self.adopter: Callable[[str], Awaitable[bool]] | None = None
        self.house_entries: Callable[[], list[dict[str, Any]]] | None = None
        self._published = PublishedLobbies()
        self._local_moved: dict[str, asyncio.Event] = {}
        # Set by ``ClusterCompetition``: the database refused a write under the leader's fence.
        self.on_leader_fenced: Callable[[], None] | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        install_fences(self.engine, self.book)
        # Each run of a room writes under the token the node held when it began, for its whole
        # life (a run dropped and the room owned again later: its writes are refused).
        self.registry.run_context = lambda room_id: run_context(room_id, self.book)
        self.publisher.start()
        await self.host.start()
        await self.edge.start()
        self.ownership.start()
        self._watch = self._loop.create_task(self._watch_owners(), name="owner-watch")
        await self.publish_lobby()  # the route too, before the first round of the watch
        log.info("node %s joined the cluster", self.node)

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        await self.ownership.stop()
        await self.ownership.release_all()
        await self.host.stop()
        await self.edge.stop()
        await self.publisher.stop()
        await self.redis.aclose()

    async def hand_over_all(self) -> None:
        """This node is stopping (drained): every room it owns stops here (its run stopped,
        its sockets told to reconnect) and its lease goes back, so another node takes it
        over at its next look, from what the database holds."""
        for room_id in self.ownership.rooms:
            self._drop(room_id, "handed over: this node is stopping")
            try:
                await self.ownership.release(room_id)
            except Exception as error:  # Redis away: the lease runs out by itself
                log.warning("giving back the lease of %s failed: %s", room_id, error)

    def _owned_actor(self, room_id: str) -> Any:
        if self.ownership.token(room_id) is None:
            return None
        return self.registry.get(room_id)

    async def claim(self, room_id: str) -> int | None:
        """Own a room this node just opened (before anything about it is written); the
        cluster's lobby lists it at once."""
        token = await self.ownership.claim(room_id)
        await self.publish_lobby()
        return token

    async def find(self, room_id: str) -> Any:
        """The room's door: local, remote (its owner's, through the relay), or None."""
        local = self._owned_actor(room_id)
        if local is not None:
            return local
        holder = await self.leases.holder(room_lease(room_id))
        if holder is None and self.adopter is not None and await self.adopter(room_id):
            return self._owned_actor(room_id)  # its owner died: this node serves it now
        if holder is None or holder[0] == self.node:
            return None
        owner, epoch = holder
        remote = self.edge.remote(room_id, owner, epoch)
        self._remotes.add(remote)
        return remote

    async def describe(self, room_id: str) -> dict[str, Any] | None:
        """A room's public description (``GET /api/rooms/{id}``) wherever it is owned; None:
        no node has it."""
        found = await self.find(room_id)
        if isinstance(found, RemoteActor):
            return await found.describe()
        return None if found is None else dict(found.summary())

    async def check_owners(self) -> None:
        """A room in use from here whose lease is gone or another owner's (its owner died or
        lost it): its ``RemoteActor`` is marked moved, and the gateway closes those sockets
        with a code the client reconnects after (it then finds the new owner). One ``MGET``
        for every room used from here (a room has a ``RemoteActor`` per socket)."""
        remotes = []
        for remote in list(self._remotes):
            if remote.moved.is_set():
                self._remotes.discard(remote)
            else:
                remotes.append(remote)
        names = sorted({room_lease(remote.room_id) for remote in remotes})
        holders = await self.leases.holders(names)
        if not self.ownership.settled():
            return  # a Redis blip: the owners put their leases back, nobody moved
        for remote in remotes:
            if holders[room_lease(remote.room_id)] != (remote.owner, remote.epoch):
                remote.moved.set()
                self._remotes.discard(remote)

    async def _watch_owners(self) -> None:
        """Every third of a lease: check the owners of the rooms used from here, and publish
        this node's part of the cluster's lobby."""
        while True:
            await asyncio.sleep(self.leases.ttl_ms / 3000)
            try:
                await self.check_owners()
                await self.publish_lobby()
            except Exception as error:  # Redis away: try again next round
                log.warning("owner watch: %s", error)

    async def publish_lobby(self) -> None:
        """This node's part of the cluster's lobby, for a lease's time (a dead node's entries
        vanish with it): its public open rooms (``ahiko:lobby:NODE``), its route, its house
        rooms. Built and encoded a few rooms at a time, the loop served between them."""
        listing = await encode_in_chunks(await self.local_lobby())
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(lobby_key(self.node), listing, px=self.leases.ttl_ms)
        if self.route is not None:
            pipe.set(route_key(self.node), self.route, px=self.leases.ttl_ms)
        if self.house_entries is not None:
            pipe.set(house_key(self.node), json.dumps(self.house_entries()), px=self.leases.ttl_ms)
        await pipe.execute()

    async def publish_house(self) -> None:
        """This node's house rooms only (a few per tier), fresh for the lobby rule: the
        whole lobby is republished every third of a lease, not at every rule's round."""
        if self.house_entries is not None:
            house = json.dumps(self.house_entries())
            await self.redis.set(house_key(self.node), house, px=self.leases.ttl_ms)

    async def local_lobby(self) -> list[dict[str, Any]]:
        """This node's public open rooms, as they are now (the ones it owns)."""
        listed = await self.registry.lobby_listing()
        return [entry for entry in listed if self.ownership.token(entry["id"])]

    async def owner_route(self, room_id: str) -> str | None:
        """The route of ``room_id``'s owner when another node owns it and published one (it
        lives: the route expires with the node, as its lobby does); else None."""
        if self._owned_actor(room_id) is not None:
            return None  # ours: no round trip
        holder = await self.leases.holder(room_lease(room_id))
        if holder is None or holder[0] == self.node:
            return None
        route = await self.redis.get(route_key(holder[0]))
        return route.decode() if isinstance(route, bytes) else route

    async def lobby(self) -> list[dict[str, Any]]:
        """The cluster's lobby, by room id: this node's rooms as they are now, the other
        nodes' as they last published them (a third of a lease ago at most)."""
        own = lobby_key(self.node)
        keys = [k async for k in self.redis.scan_iter(match=lobby_key("*"), count=100)]
        keys = [k for k in keys if (k.decode() if isinstance(k, bytes) else k) != own]
        found: dict[str, dict[str, Any]] = {}
        for key, value in zip(keys, await self.redis.mget(keys) if keys else [], strict=True):
            for entry in self._published.parse(key, value):
                found[str(entry["id"])] = entry
        self._published.keep_only(keys)
        for entry in await self.local_lobby():
            found[str(entry["id"])] = entry
        return [found[key] for key in sorted(found)]

    def _fenced(self, room_id: str) -> None:
        """The database refused a write (on whatever thread wrote): drop the room, on the loop
        (or, for the leader's fence, close the competitions: a newer leader exists)."""
        if self._loop is None:
            return
        if room_id == LEADER_FENCE:
            if self.on_leader_fenced is not None:
                self._loop.call_soon_threadsafe(self.on_leader_fenced)
            return
        self._loop.call_soon_threadsafe(self.ownership.fenced, room_id)

    def moved_event(self, room_id: str) -> asyncio.Event:
        """Set when this node stops serving ``room_id`` (its lease or fence lost): the
        gateway then closes the room's local sockets with 4409, as it does the relayed ones,
        and the clients reconnect to the room's new owner."""
        return self._local_moved.setdefault(room_id, asyncio.Event())

    def _drop(self, room_id: str, why: str) -> None:
        actor = self.registry.get(room_id)
        timers = 0 if actor is None or actor.run_clock is None else actor.run_clock.live
        self.registry.forget(room_id)  # the run stops: none of its timers fires any more
        log.warning(
            "node %s drops room %s (its run stopped, %d timer(s) cancelled): %s",
            self.node,
            room_id,
            timers,
            why,
        )
        moved = self._local_moved.pop(room_id, None)
        if moved is not None:
            moved.set()
