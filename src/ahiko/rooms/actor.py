"""One room, one owner (DESIGN.md principle 6): the room's only door.

In: commands, through ``ask`` (await the ``Reply``, which carries the number of the room's
last frame) or ``tell`` (no one waits; the Ahiko lobby closing a surplus room). Out: numbered,
serialisable ``Frame`` values, to the sinks subscribed under a connection id
(``subscribe``), and the room's public summary and lobby entry, read-only plain data. Nothing
outside the actor holds the room: this is the small bus interface a cross-process relay
replaces (a Redis channel per connection, the summary published to the lobby).

Timer callbacks, and bots' answers coming back from their worker threads
(ahiko.rooms.thinking), run on the same loop and thread, so the room's state has a single
owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Callable
from typing import Any, Protocol

from ahiko.rooms.commands import Command, Reply
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.frame_types import RoomSummary
from ahiko.rooms.log_context import current_scope, open_scope
from ahiko.rooms.outbox import Sink, Subscribers
from ahiko.rooms.pending import PendingReply
from ahiko.rooms.ports import CurrentHand, RoomIdentity
from ahiko.rooms.run_clock import RunClock
from ahiko.rooms.status import RoomStatus, over

log = logging.getLogger(__name__)


class Numbering(Protocol):
    """The broadcaster's numbering, which every ``Reply`` carries."""

    @property
    def seq(self) -> int: ...
    @property
    def epoch(self) -> str: ...


class Ledgers(Protocol):
    def report(self) -> dict[str, Any]: ...
    def is_member(self, player_id: str) -> bool: ...


class ActedRoom(RoomIdentity, Protocol):
    """The room behind its door: its commands' entry points, its run's flags, and what the
    door reads of it (summary, lobby entry, ledger, the frames' numbering)."""

    stopped: bool
    draining: bool

    @property
    def broadcast(self) -> Numbering: ...
    @property
    def dealer(self) -> CurrentHand: ...
    @property
    def host_desk(self) -> Ledgers: ...
    def summary(self) -> RoomSummary: ...
    def lobby_entry(self) -> dict[str, Any]: ...
    def submit(self, command: Command) -> Reply: ...
    def submit_pending(self, command: Command) -> tuple[Reply, PendingReply | None]: ...
    def tell(self, job: Callable[[], None]) -> None: ...


class RoomActor:
    def __init__(
        self,
        room: ActedRoom,
        subscribers: Subscribers | None = None,
        run_clock: RunClock | None = None,
    ) -> None:
        self.room = room  # the actor's own; tests may inspect it, nothing else reads it
        self.run_clock = run_clock  # the run's timers, stopped with the actor
        self._subscribers = subscribers or Subscribers()
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
    def host_id(self) -> str | None:
        """Who may use the room's host menu (None: a house room)."""
        return self.room.host_id

    @property
    def is_open(self) -> bool:
        return self.room.is_open

    @property
    def epoch(self) -> str:
        """This run of the room (``ahiko.rooms.outbox.new_epoch``): with ``seq``, it names
        every frame the room sends and every ``Reply``."""
        return self.room.broadcast.epoch

    @property
    def room_epoch(self) -> str:
        """The run's epoch, as a relayed room's ``RemoteActor.room_epoch`` names it."""
        return self.room.broadcast.epoch

    @property
    def hand_in_progress(self) -> bool:
        """A hand is dealt and not yet over (a draining server waits for it)."""
        return self.room.dealer.hand is not None

    def drain(self) -> None:
        """Its server is stopping: the room starts no other hand."""
        self.room.draining = True

    def summary(self, *, with_seats: bool = True) -> RoomSummary:
        """The room's public description, as ``GET /api/rooms/{id}`` and ``room`` frames
        show it (plain JSON data)."""
        summary = self.room.summary()
        if not with_seats:
            summary.pop("seats", None)
            summary.pop("reserved", None)
        return summary

    def ledger_for(self, player_id: str) -> dict[str, Any] | None:
        """The room's ledger (plain JSON data) for its host or a player who sat; None for
        anyone else."""
        desk = self.room.host_desk
        return desk.report() if desk.is_member(player_id) else None

    def lobby_entry(self) -> dict[str, Any]:
        """The room as its kind's lobby lists it (plain JSON data)."""
        return self.room.lobby_entry()

    # --- frames out -------------------------------------------------------------------------
    def subscribe(self, connection_id: str, sink: Sink) -> None:
        """``sink`` receives the frames addressed to ``connection_id`` (then send ``Connect``)."""
        self._subscribers.add(connection_id, sink)

    def unsubscribe(self, connection_id: str) -> None:
        self._subscribers.remove(connection_id)

    # --- commands in ------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None and not self.room.stopped:
            context = None if self.run_clock is None else self.run_clock.context
            self._task = asyncio.get_running_loop().create_task(
                self._run(),
                name=f"room-{self.room.room_id}",
                context=None if context is None else context.copy(),
            )

    async def ask(self, command: Command) -> Reply:
        if self.room.stopped:  # dropped or closed: its node no longer serves this run
            return over(RoomStatus.CLOSED).reply
        self.start()
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self._inbox.put((command, future))
        return await future

    def tell(self, command: Command, then: Callable[[], None] | None = None) -> None:
        """Deliver ``command`` on the room's own thread once its current job is done; the
        reply is not awaited (a refusal is logged); ``then`` runs after it."""

        def run() -> None:
            reply = self.room.submit(command)
            if not reply.ok:
                log.info("room %s refused %r: %s", self.room_id, command, reply.message)
            if then is not None:
                then()

        self.room.tell(run)

    async def _run(self) -> None:
        open_scope(room=self.room.room_id)  # the task's own context: every line names the room
        scope = current_scope()
        assert scope is not None
        while True:
            command, future = await self._inbox.get()
            scope.account = getattr(command, "player_id", None)
            try:
                reply, pending = self.room.submit_pending(command)
            except Exception as exc:  # a bug must not kill the room's task
                if not future.done():
                    future.set_exception(exc)
                continue
            if pending is None:
                self._answer(future, reply)
            else:  # a write in flight decides the answer (ahiko.rooms.pending)
                pending.then(functools.partial(self._answer, future))

    def _answer(self, future: asyncio.Future[Reply], reply: Reply) -> None:
        if not future.done():
            numbering = self.room.broadcast
            future.set_result(dataclasses.replace(reply, seq=numbering.seq, epoch=numbering.epoch))

    def _end_run(self) -> None:
        """Nothing of this run happens any more: no timer, no bot's answer, no command."""
        self.room.stopped = True
        if self.run_clock is not None:
            self.run_clock.stop()

    def cancel(self) -> None:
        self._end_run()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def stop(self) -> None:
        self._end_run()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
