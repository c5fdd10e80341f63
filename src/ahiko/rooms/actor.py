"""One room, one owner (DESIGN.md): an asyncio task draining the room's inbox.

The gateway and the HTTP API reach a room only through ``RoomActor.ask`` (send a command,
await the reply) — the small bus interface a cross-process relay can later replace. Timer
callbacks, and bots' answers coming back from their worker threads (ahiko.rooms.thinking), run
on the same loop and thread, so the room's state has a single owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import Any

from ahiko.rooms.commands import Command, Reply
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.frames import room_summary
from ahiko.rooms.room import Room


class RoomActor:
    def __init__(self, room: Room) -> None:
        self.room = room
        self._inbox: asyncio.Queue[tuple[Command, asyncio.Future[Reply]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    @property
    def room_id(self) -> str:
        return self.room.room_id

    @property
    def config(self) -> RoomConfig:
        """The room's settings (immutable)."""
        return self.room.config

    @property
    def is_open(self) -> bool:
        return self.room.is_open

    def summary(self, *, with_seats: bool = True) -> dict[str, Any]:
        """The room's public description, as the lobby and ``room`` frames show it."""
        return room_summary(self.room, with_seats=with_seats)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"room-{self.room.room_id}"
            )

    async def ask(self, command: Command) -> Reply:
        self.start()
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self._inbox.put((command, future))
        return await future

    async def _run(self) -> None:
        while True:
            command, future = await self._inbox.get()
            try:
                reply = self.room.submit(command)
            except Exception as exc:  # a bug must not kill the room's task
                if not future.done():
                    future.set_exception(exc)
                continue
            if not future.done():
                future.set_result(dataclasses.replace(reply, seq=self.room.seq))

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
