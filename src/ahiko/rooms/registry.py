"""All rooms of this process, by id, and the lobby listing."""

from __future__ import annotations

import asyncio
import contextvars
import secrets
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.clock import AsyncioClock, Clock
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.frame_types import RoomSummary
from ahiko.rooms.hooks import RoomHooks
from ahiko.rooms.moderation import Moderation
from ahiko.rooms.outbox import Subscribers
from ahiko.rooms.restore import Restore
from ahiko.rooms.room import open_room
from ahiko.rooms.run_clock import RunClock
from ahiko.rooms.thinking import thinker_for

HooksFactory = Callable[[RoomConfig], RoomHooks | None]
# Rooms summarised between two turns of the event loop when the lobby is listed (about
# 15-60 us each, the latter on a loaded machine).
LOBBY_CHUNK = 40


class RoomRegistry:
    def __init__(
        self,
        *,
        clock: Clock | None = None,
        signing_key: Ed25519PrivateKey | None = None,
        hooks_factory: HooksFactory | None = None,
        room_options: dict[str, Any] | None = None,
    ) -> None:
        self.clock = clock or AsyncioClock()
        self.signing_key = signing_key
        self._hooks_factory = hooks_factory
        self._room_options = {"think": thinker_for(self.clock), **(room_options or {})}
        # One chat moderation for every room: mutes and the operator's mutes span rooms.
        self.moderation: Moderation = self._room_options.setdefault("moderation", Moderation())
        self._actors: dict[str, RoomActor] = {}
        # Set by a node of a cluster: the context a new run of a room runs in (its fencing
        # token, ``ahiko.store.fences.run_context``); None: the process's own.
        self.run_context: Callable[[str], contextvars.Context | None] | None = None
        self.draining = False

    def create(
        self,
        config: RoomConfig,
        host_id: str | None = None,
        room_id: str | None = None,
        hooks: RoomHooks | None = None,
        restore: Restore | None = None,
    ) -> RoomActor:
        room_id = room_id or f"r-{secrets.token_urlsafe(6)}"
        if room_id in self._actors:
            raise ValueError(f"room {room_id} exists")
        if hooks is None and self._hooks_factory is not None:
            hooks = self._hooks_factory(config)
        subscribers = Subscribers()
        context = None if self.run_context is None else self.run_context(room_id)
        run_clock = RunClock(self.clock, context)
        room = open_room(
            room_id,
            config,
            clock=run_clock,
            host_id=host_id,
            hooks=hooks,
            signing_key=self.signing_key,
            deliver=subscribers.deliver,
            restore=restore,
            **self._room_options,
        )
        room.draining = self.draining
        actor = RoomActor(room, subscribers, run_clock)
        self._actors[room_id] = actor
        return actor

    def get(self, room_id: str) -> RoomActor | None:
        return self._actors.get(room_id)

    def actors(self) -> list[RoomActor]:
        return list(self._actors.values())

    def forget(self, room_id: str) -> None:
        """Drop a closed room, or one this node no longer owns: its actor stops taking
        commands and its run stops (every timer it set is cancelled)."""
        actor = self._actors.pop(room_id, None)
        if actor is not None:
            actor.cancel()

    def retire(self, room_id: str, reason: str) -> None:
        """Close a room through its inbox (``Close`` from the house) and drop it: nobody can
        find it any more; the close runs on the room's thread once its current job ends."""
        actor = self._actors.pop(room_id, None)
        if actor is not None:
            actor.tell(c.Close(None, reason), then=actor.cancel)

    def lobby(self) -> list[RoomSummary]:
        """Public rooms still open, as the lobby lists them."""
        return [
            actor.summary(with_seats=False)
            for actor in self._actors.values()
            if actor.config.public and actor.is_open
        ]

    async def lobby_listing(self) -> list[RoomSummary]:
        """``lobby()`` built ``LOBBY_CHUNK`` rooms at a time, the event loop served between
        chunks: at 375 tables the whole listing held the loop 20-30 ms, every player's
        latency with it. Each entry is its room's state when it was built."""
        actors = list(self._actors.values())
        listed: list[RoomSummary] = []
        for first in range(0, len(actors), LOBBY_CHUNK):
            if first:
                await asyncio.sleep(0)
            listed.extend(
                actor.summary(with_seats=False)
                for actor in actors[first : first + LOBBY_CHUNK]
                if actor.config.public
                and actor.is_open
                and self._actors.get(actor.room_id) is actor
            )
        return listed

    def drain(self) -> None:
        """The server is stopping: no room starts another hand (the hands in progress play
        on to their end, clocks running)."""
        self.draining = True  # a room opened from now on (a take-over) deals no hand either
        for actor in self._actors.values():
            actor.drain()

    def hands_in_progress(self) -> list[str]:
        """The rooms with a hand dealt and not yet over."""
        return [room_id for room_id, a in self._actors.items() if a.hand_in_progress]

    async def stop_all(self) -> None:
        for actor in self._actors.values():
            await actor.stop()
