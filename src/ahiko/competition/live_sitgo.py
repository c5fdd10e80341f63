"""Sit & go's played in live rooms: the lobby's queues (``ahiko.competition.sitgo``)
wired to the ledger (``ahiko.wallet.sitgo``) and to tournament rooms through their actors.

- **Register** (``register``): the buy-in moves from the wallet into the sit & go's pool in
  the ledger; a client's idempotency key makes a retry answer the first registration again.
  **Unregister** (``withdraw``) refunds it, until the start.
- **Start when full**: the queue that fills opens its next one at once; a tournament room
  (``RoomKind.TOURNAMENT``, R-TN-01..06: the same stack for all, blinds 25/50 doubling every
  10 hands, the action deadline) is created in the registry, every entrant seated at random
  with ``Sit`` and the room started by the house (``Start`` with no player). An entrant not
  at the table is absent from the start and withdrawn at the absence deadline (R-TM-03),
  which eliminates them (R-TN-05).
- **The end**: the room's hook ``on_tournament_over`` gets the final ranking (R-TN-04/05);
  the pool is paid out by place (``PAYOUTS``) in one ledger transaction which also stores the
  places (``ahiko.store.tournament_places``), and the ``tournament_over`` frame shows each
  prize. Busted players are free to register again as soon as they leave the table.

Everything here runs on the event loop, as the rooms' own hooks do; nothing reads a room's
state: the service knows its rooms by the actors' replies and the hooks' calls.

The ledger writes run off the loop, in the sit & go's lane of the app's
``StoreWriter`` (the house rooms' one), in two steps as in ``ahiko.rooms.house.table``: a
registration (a withdrawal) is checked, its write runs on a worker while the route awaits
it, and only when it came back is the player an entrant (no longer one). One registration or
withdrawal per queue at a time (``_queue_lock``), so a table never fills twice. A failed
write changes nothing and is refused with ``TournamentStorage`` (503 ``storage_busy`` /
``storage_error``, no coin moved; the same client key may be sent again). The payout is
retried while the database is busy; one that never lands leaves the coins in the pool,
which the next start refunds (``start``, run inline before anything is served).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Unpack

from sqlalchemy import Engine

from ahiko.competition.lifecycle import TournamentRefused, TournamentStatus
from ahiko.competition.sitgo import QUEUES, SitGo, SitGoLobby, SitGoSpec
from ahiko.competition.sitgo import prizes as prize_table
from ahiko.competition.tournament_desk import DeskOptions, TournamentDesk
from ahiko.competition.tournament_pools import (
    Finisher,
    detached,
    str_keys,
)
from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.blinds import BlindSchedule
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.frame_types import ResultRow, RoomSummary, TournamentPart
from ahiko.rooms.hooks import NoHooks
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.seats import Occupant
from ahiko.rooms.timing import Timing
from ahiko.wallet.ledger import as_utc

if TYPE_CHECKING:
    from ahiko.rooms.room_view import RoomView

log = logging.getLogger(__name__)

ROOM_PREFIX = "sng-"
FINISHED_KEPT_S = 600.0  # a finished sit & go's room stays open to its players this long


def sitgo_config(spec: SitGoSpec, number: int, timing: Timing | None = None) -> RoomConfig:
    """The tournament room of one sit & go: R-TN-02 stack, R-TN-03 blinds, R-TN-06 deadline."""
    variant = Variant(spec.variant)
    return RoomConfig(
        name=f"{spec.name} #{number}",
        kind=RoomKind.TOURNAMENT,
        variant=variant,
        seats=spec.seats,
        starting_chips=spec.starting_stack,
        schedule=BlindSchedule.tournament_default_for(variant.game),
        public=True,
        timing=timing or Timing(),
    )


@dataclass(frozen=True, slots=True)
class Registered:
    """The answer to a registration: the sit & go and whether this call registered."""

    sitgo: SitGo
    applied: bool


class SitGoRooms(TournamentDesk):
    """Every sit & go of this process, from the lobby's queue to the payout."""

    def __init__(
        self,
        registry: RoomRegistry,
        engine: Engine,
        *,
        specs: tuple[SitGoSpec, ...] = QUEUES,
        **desk: Unpack[DeskOptions],
    ) -> None:
        super().__init__(registry, engine, **desk)
        self._queue_locks: dict[str, asyncio.Lock] = {}
        self._in_flight: dict[int, tuple[str, asyncio.Task[Registered]]] = {}  # user -> key
        self.lobby = SitGoLobby(self.bank, self.clock, specs, prefix=self.run_prefix)
        self.room_of: dict[str, str] = {}  # sit & go id -> its room id
        self._names: dict[int, str] = {}
        self._started = 0
        self.finished: list[str] = []  # sit & go ids, in the order they ended

    def start(self) -> dict[str, dict[int, int]]:
        """At start, before any registration: sit & go's a previous run left unfinished are
        cancelled, every buy-in refunded (their rooms did not survive the restart)."""
        refunded = self.bank.refund_unfinished()
        for sng_id, paid_in in refunded.items():
            log.warning("sit & go %s was unfinished at the restart: refunded %s", sng_id, paid_in)
        return refunded

    def room_ids(self) -> list[str]:
        """The rooms of the sit & go's this service started."""
        return list(self.room_of.values())

    # --- what the lobby shows -------------------------------------------------------------------
    def entry(self, sng: SitGo) -> dict[str, Any]:
        return {**sng.to_json(), "room_id": self.room_of.get(sng.id), "paid": str_keys(sng.paid)}

    def listing(self, user_id: int | None) -> dict[str, Any]:
        """The open queues, the sit & go's being played, and the player's own (if any)."""
        mine = None if user_id is None else self.lobby.playing(user_id)
        return {
            "queues": [self.entry(s) for s in self.lobby.queues()],
            "running": [self.entry(s) for s in self.lobby.running()],
            "mine": None if mine is None else self.entry(mine),
        }

    # --- registration -----------------------------------------------------------------------
    async def register(self, queue: str, user_id: int, name: str, key: str) -> Registered:
        """Registers ``user_id`` in the open sit & go of ``queue`` (``TournamentRefused``, the
        wallet's ``InsufficientFunds`` or ``TournamentStorage`` when not, with nothing changed);
        the same ``key`` again answers the first registration without moving a coin. Answered
        once the buy-in's write came back."""
        earlier = self.client_keys.get(user_id, key)
        if earlier is not None:
            return Registered(self.lobby.all[earlier], applied=False)
        flying = self._in_flight.get(user_id)
        if flying is not None:
            if flying[0] != key:
                raise TournamentRefused("already_registered", "your registration is being written")
            first = await asyncio.shield(flying[1])  # the same request again: its answer
            return Registered(first.sitgo, applied=False)
        task = detached(self._register(queue, user_id, name, key))
        self._in_flight[user_id] = (key, task)

        def landed(_task: asyncio.Task[Registered]) -> None:
            if self._in_flight.get(user_id, (key, None))[1] is task:
                del self._in_flight[user_id]

        task.add_done_callback(landed)
        return await asyncio.shield(task)  # a client gone does not cut a write in two

    async def _register(self, queue: str, user_id: int, name: str, key: str) -> Registered:
        async with self._queue_lock(queue):
            sng, attempt = self.lobby.admission(queue, user_id)
            if sng.spec.buy_in:
                await self.pools.hold(
                    sng.id, user_id, sng.spec.buy_in, self.lobby.hold_key(sng.id, user_id, attempt)
                )
            self.lobby.admit(sng, user_id, attempt)
            self.client_keys.remember(user_id, key, sng.id)
            self._names[user_id] = name
            filled = sng.status is TournamentStatus.RUNNING
        if filled:  # the answer carries the tournament's room
            await self._launch(sng)
        return Registered(sng, applied=True)

    async def withdraw(self, sng_id: str, user_id: int) -> SitGo:
        """Unregisters before the start: the buy-in goes back to the wallet (answered once
        the refund's write came back; ``TournamentStorage`` and still registered when it failed)."""
        sng = self.lobby.all.get(sng_id)
        if sng is None:
            raise TournamentRefused("no_sitgo", f"no sit & go {sng_id!r}")
        return await asyncio.shield(detached(self._withdraw(sng, user_id)))

    async def _withdraw(self, sng: SitGo, user_id: int) -> SitGo:
        async with self._queue_lock(sng.spec.key):
            self.lobby.leaving(sng.id, user_id)
            if sng.spec.buy_in:
                refund_key = self.lobby.refund_key(sng.id, user_id)
                await self.pools.refund(sng.id, user_id, sng.spec.buy_in, refund_key)
            sng.entrants.remove(user_id)
        self.client_keys.forget(user_id, sng.id)
        return sng

    def _queue_lock(self, queue: str) -> asyncio.Lock:
        return self._queue_locks.setdefault(queue, asyncio.Lock())

    # --- the room ---------------------------------------------------------------------------
    async def _launch(self, sng: SitGo) -> RoomActor:
        self._started += 1
        config = sitgo_config(sng.spec, self._started, self.timing)
        room_id = f"{ROOM_PREFIX}{sng.id}"
        if self.claim_room is not None:
            await self.claim_room(room_id)
        actor = self.registry.create(config, room_id=room_id, hooks=SitGoTable(self, sng))
        self.room_of[sng.id] = actor.room_id
        order = list(sng.entrants)
        self.rng.shuffle(order)  # seats drawn at random
        for seat, user_id in enumerate(order):
            reply = await actor.ask(c.Sit(str(user_id), self._names.get(user_id, "?"), seat))
            if not reply.ok:  # pragma: no cover - a fresh room takes every seat it has
                raise RuntimeError(f"sit & go {sng.id}: seat {seat} refused: {reply.message}")
        reply = await actor.ask(c.Start(None))
        if not reply.ok:  # pragma: no cover
            raise RuntimeError(f"sit & go {sng.id} did not start: {reply.message}")
        return actor

    def player_out(self, sng: SitGo, player_id: str) -> None:
        if not player_id.isdigit():
            return
        user_id = int(player_id)
        if (
            sng.status is TournamentStatus.RUNNING
            and user_id in sng.entrants
            and user_id not in sng.out
        ):
            self.lobby.eliminate(sng.id, user_id)

    def tournament_over(self, room_id: str, sng: SitGo, results: list[ResultRow]) -> dict[str, int]:
        """Pays the pool by place and stores the places, in one ledger transaction, in the
        sit & go's lane (retried while the database is busy). Returns the prizes the results
        show; a payout that never lands leaves the pool whole for the next start's refund."""
        places = [int(r["player_id"]) for r in results]
        paid = self.lobby.payout_plan(sng, places)
        finishers = [
            Finisher(int(r["place"]), str(r["player_id"]), str(r["name"])) for r in results
        ]

        def ended(landed: bool) -> None:
            self.lobby.record_end(sng, places, paid if landed else {})
            self.finished.append(sng.id)

        finished_at = as_utc(self.clock())
        self.pools.pay_out(
            sng.id, room_id, finishers, paid, self.lobby.payout_key(sng.id), finished_at, ended
        )
        # the results stay on show for a while, then the room is dropped from the registry
        self.registry.clock.call_later(FINISHED_KEPT_S, lambda: self.registry.forget(room_id))
        return str_keys(paid)


class SitGoTable(NoHooks):
    """The hooks of one sit & go's room: busts free the player, the end pays and stores."""

    def __init__(self, service: SitGoRooms, sng: SitGo) -> None:
        self.service = service
        self.sng = sng

    def on_player_left(self, room: RoomView, occupant: Occupant) -> None:
        self.service.player_out(self.sng, occupant.player_id)

    def on_tournament_over(self, room: RoomView, results: list[ResultRow]) -> Mapping[str, int]:
        try:
            return self.service.tournament_over(room.room_id, self.sng, results)
        except (TournamentRefused, ValueError):  # the pool stays whole for an operator to pay
            log.exception("sit & go %s: the payout failed", self.sng.id)
            return {}

    def lobby_entry(self, room: RoomView, entry: RoomSummary) -> dict[str, Any]:
        return {**entry, "sitgo": self.sng.id, "buy_in": self.sng.spec.buy_in}

    def tournament_part(self, room: RoomView) -> TournamentPart | None:
        spec = self.sng.spec  # a free sit & go pays no coins: no prizes to list
        paid = prize_table(spec.buy_in * spec.seats, spec.seats) if spec.buy_in else []
        return {"sitgo": self.sng.id, "buy_in": spec.buy_in, "prizes": paid}
