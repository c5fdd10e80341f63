"""The Ahiko house rooms on a cluster: the lobby rule on the leader only, every
room claimed by the node that opens it, and a dead owner's rooms taken over.

- **The lobby rule** (at least two rooms a tier, another when a tier is full, surplus empty
  rooms closed) runs on the node holding the leader lease (``Leadership``), over the cluster's
  lobby: the house entries every node publishes for the rooms it owns (``ahiko:house:NODE``,
  expiring with the node). The leader opens new rooms on itself, claiming each (lease, fence)
  before anything about it is written; a surplus room it does not own is closed through the
  relay (``Close`` from the house, as ``RoomRegistry.retire`` sends it).
- **Taking over** (``adopt``): an open Ahiko room in the database whose lease is free (its
  owner died, or stopped) is claimed by the first node that looks (every node looks every
  third of a lease, and at once when a socket asks for it), then restored exactly as the
  single server's crash recovery does: the hand in progress cancelled with its bets returned
  (``recover_interrupted_hands`` for that room), the people back in their seats, the Bot
  Ahiko paid back to its reserve, a new commitment chain and a new epoch.
- A room this node closed (or dropped) gives its lease back.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from ahiko.rooms import commands as c
from ahiko.rooms.config import RoomKind
from ahiko.rooms.house.lobby import TIER_KEYS, AhikoLobby, surplus_rooms
from ahiko.rooms.house.tiers import ROOMS_PER_TIER, TIERS, Tier, tier_of
from ahiko.server.cluster.background import Stepping
from ahiko.server.cluster.leader import Leadership
from ahiko.server.cluster.node import house_key
from ahiko.server.cluster.ownership import room_lease
from ahiko.store.rooms import StoredRoom, load_rooms, open_room_ids, recover_interrupted_hands

if TYPE_CHECKING:
    from ahiko.server.cluster.node import ClusterNode

log = logging.getLogger(__name__)


def is_house_room(room_id: str) -> bool:
    """House room ids are ``TIER-RUN-N`` (``AhikoLobby.next_room``)."""
    return room_id.partition("-")[0] in TIER_KEYS


class ClusterHouse(Stepping):
    """Every third of a lease (and at once when the lobby pokes it): leadership, take-overs,
    the lobby rule (``step``)."""

    name = "house rooms"

    def __init__(self, node: ClusterNode, lobby: AhikoLobby) -> None:
        super().__init__(node.leases.ttl_ms / 3000)
        self.node = node
        self.lobby = lobby
        self.leadership = Leadership(node.leases)
        self._adopting: dict[str, asyncio.Future[bool]] = {}
        self.adopted: list[str] = []  # rooms taken over from a dead owner (monitoring, tests)
        # Open house rooms another node holds a lease on (from the last take-over scan): a
        # dead node's rooms stay leased for up to a lease after its lobby entries are gone.
        self._held_elsewhere: set[str] = set()
        lobby.poke = self.poke
        node.adopter = self.adopt
        node.house_entries = self.local_entries

    # --- the cluster's lobby ----------------------------------------------------------------
    def local_entries(self) -> list[dict[str, Any]]:
        """This node's house rooms as the Ahiko lobby lists them (the ones it owns)."""
        return [e for e in self.lobby.entries() if self.node.ownership.token(e["id"])]

    async def entries(self, tier: Tier | None = None) -> list[dict[str, Any]]:
        """Every node's open house rooms (``GET /api/ahiko/rooms`` on any node), by id."""
        await self.node.publish_house()  # our own part is always fresh
        keys = [k async for k in self.node.redis.scan_iter(match=house_key("*"), count=100)]
        found: dict[str, dict[str, Any]] = {}
        for value in await self.node.redis.mget(keys) if keys else []:
            for entry in json.loads(value) if value else []:
                found[str(entry["id"])] = entry
        listed = [found[key] for key in sorted(found)]
        return [e for e in listed if tier is None or e.get("tier") == tier.key]

    # --- the loop: leadership, take-overs, the lobby rule -------------------------------------
    async def step(self) -> None:
        await self.release_closed()
        # Right after a Redis blip a free lease may be one its owner is about to put back:
        # neither take rooms over nor count the cluster's rooms until Redis settled.
        settled = await self.node.ownership.check_redis()
        if settled:
            await self.adopt_orphans()
        if await self.leadership.step() and settled:
            await self.apply_rule()

    async def stop(self) -> None:
        await self.stop_loop()
        await self.leadership.stop()

    # --- the lobby rule, on the leader ----------------------------------------------------
    async def apply_rule(self) -> None:
        every = await self.entries()
        for tier in TIERS:
            entries = [e for e in every if e.get("tier") == tier.key]
            listed = {str(e["id"]) for e in entries}
            if any(
                r.partition("-")[0] == tier.key and r not in listed for r in self._held_elsewhere
            ):
                # Leased but listed by nobody: a dead node's rooms, taken over once their
                # leases run out. Opening others now would close those as surplus later.
                continue
            while len(entries) < ROOMS_PER_TIER or not any(e["free_seats"] for e in entries):
                if not self.leadership.leading:
                    return
                entry = await self.open_room(tier)
                if entry is None:
                    break
                entries.append(entry)
            for room_id in surplus_rooms(entries):
                await self.close_room(room_id)

    async def open_room(self, tier: Tier) -> dict[str, Any] | None:
        room_id, name = self.lobby.next_room(tier)
        future = self._begin(room_id)
        try:
            if await self.node.ownership.claim(room_id) is None:
                return None
            actor = self.lobby.create_room(room_id, tier, name)
            log.info("node %s opened house room %s", self.node.node, room_id)
            return actor.lobby_entry()
        finally:
            self._end(room_id, future, True)

    async def close_room(self, room_id: str) -> None:
        if self.node.ownership.token(room_id) is not None:
            self.lobby.registry.retire(room_id, "surplus")  # its lease goes back once closed
            return
        remote = await self.node.find(room_id)
        if remote is not None:
            await remote.ask(c.Close(None, "surplus"))

    async def release_closed(self) -> None:
        """Owned rooms gone from the registry (retired, dropped) or closed: lease back."""
        registry = self.lobby.registry
        for room_id in self.node.ownership.rooms:
            if room_id in self._adopting:
                continue
            actor = registry.get(room_id)
            if actor is not None and actor.config.kind is RoomKind.AHIKO and not actor.is_open:
                registry.forget(room_id)
                actor = None
            if actor is None:
                await self.node.ownership.release(room_id)

    # --- taking over -------------------------------------------------------------------------
    async def adopt_orphans(self) -> None:
        """Take over every open house room whose lease is free: the open rooms' ids (one
        query), then their leases (one ``MGET``); only a free one is loaded, by ``adopt``."""
        found = await asyncio.to_thread(open_room_ids, self.lobby.engine, RoomKind.AHIKO.value)
        candidates = [
            room_id
            for room_id in found
            if is_house_room(room_id) and self.node.ownership.token(room_id) is None
        ]
        loop = asyncio.get_running_loop()
        began = loop.time()
        holders = await self.node.leases.holders([room_lease(r) for r in candidates])
        if loop.time() - began > self.node.leases.ttl_ms / 3000:
            self.node.ownership.blip("reading the leases took a third of a lease")
            return
        self._held_elsewhere = {r for r in candidates if holders[room_lease(r)] is not None}
        for room_id in candidates:
            if holders[room_lease(room_id)] is None:
                await self.adopt(room_id)

    @staticmethod
    def _ours_to_restore(room: StoredRoom) -> bool:
        return room.kind == "ahiko" and room.status == "open" and is_house_room(room.id)

    async def adopt(self, room_id: str) -> bool:
        """Claim and restore a stored open house room nobody holds; True when this node
        serves it now."""
        if self.node.ownership.token(room_id) is not None:
            return self.lobby.registry.get(room_id) is not None
        if not is_house_room(room_id) or not self.node.ownership.settled():
            return False
        running = self._adopting.get(room_id)
        if running is not None:
            return await asyncio.shield(running)
        future = self._begin(room_id)
        done = False
        try:
            done = await self._adopt(room_id)
        except Exception:
            log.exception("taking over room %s failed", room_id)
            await self.node.ownership.release(room_id)
        finally:
            self._end(room_id, future, done)
        return done

    async def _adopt(self, room_id: str) -> bool:
        token = await self.node.ownership.claim(room_id)
        if token is None:
            return False
        engine = self.lobby.engine
        recovered = await asyncio.to_thread(recover_interrupted_hands, engine, room_id)
        found = [r for r in await asyncio.to_thread(load_rooms, engine) if r.id == room_id]
        if not found or not self._ours_to_restore(found[0]) or found[0].config.get("tier") is None:
            await self.node.ownership.release(room_id)
            return False
        tier_of(found[0].config["tier"])  # a known tier, or KeyError before anything opens
        if self.lobby.registry.get(room_id) is not None:
            self.lobby.registry.forget(room_id)  # a stale copy (we lost it, then got it back)
        report = self.lobby.reopen(found[0])
        self.adopted.append(room_id)
        log.warning(
            "node %s took over room %s (token %d): %d hand(s) cancelled, seats %s",
            self.node.node,
            room_id,
            token,
            len(recovered),
            report.people,
        )
        await self.node.publish_lobby()
        return True

    def _begin(self, room_id: str) -> asyncio.Future[bool]:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._adopting[room_id] = future
        return future

    def _end(self, room_id: str, future: asyncio.Future[bool], done: bool) -> None:
        self._adopting.pop(room_id, None)
        if not future.done():
            future.set_result(done)
