"""Multi-table tournaments from the lobby to the payout: the registration rules
(``ahiko.competition.mtt_lobby``) wired to the ledger (``ahiko.wallet.sitgo.SitGoBank``, the
sit & go pools' mechanism) and to live tables (``ahiko.competition.live_mtt.MttRooms``).

- **Schedule**: one upcoming MTT per spec, ``every_minutes`` apart; its start is a timer on
  the rooms' clock (a manual clock in tests). At the start time it starts with two or more
  registered, else its start moves on. A host may open one and start it early.
- **Register / unregister**: the buy-in moves from the wallet into the MTT's pool (``sng:<id>``,
  an account of the held-coins kind) and back, every coin through the ledger, the write off
  the event loop in the MTT's lane of the app's ``StoreWriter``, as the sit & go's do
  (``tournament_pools``); one registration at a time per MTT (a lock), so a start and a
  registration never cross. A client's idempotency key answers a retry with the first
  registration. A failed write changes nothing (``TournamentStorage``: 503, no coin moved).
- **Late registration**, while the tournament is in its first ``LATE_LEVELS`` levels: the
  player is seated at the table with the fewest players (``MttRooms.add_late``).
- **Cancel**, by the host before the start (``cancel``): in the MTT's lock, so no
  registration crosses it, the MTT turns ``cancelled`` (no registration after) and every
  registered player's buy-in goes back as an unregistration's does (the same ledger key, in
  the MTT's lane): a retry never pays twice. A refund whose write failed leaves that player
  listed and the call answers the failure; the host's retry refunds the rest (and a restart
  refunds any pool still holding coins).
- **The end**: the pool is paid by place in one ledger transaction which also stores the
  places (``tournament_places``), retried while the database is busy. A process that stops
  first leaves the pool to the next start's refund (``SitGoRooms.start`` refunds every pool
  still holding coins, sit & go's and MTTs alike).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Unpack

from sqlalchemy import Engine

from ahiko.competition.lifecycle import TournamentRefused, TournamentStatus
from ahiko.competition.live_mtt import LEVEL_MINUTES, MttRooms
from ahiko.competition.mtt_lobby import (
    LATE_LEVELS,
    SCHEDULE,
    Mtt,
    MttLobby,
    MttSpec,
    mtt_prizes,
    refuse_cancelled,
)
from ahiko.competition.tournament_desk import DeskOptions, TournamentDesk
from ahiko.competition.tournament_pools import (
    Finisher,
    TournamentStorage,
    detached,
    str_keys,
)
from ahiko.competition.tournaments import MTT_TABLE_PREFIX
from ahiko.poker.games import HOLDEM
from ahiko.rooms.frame_types import Moved
from ahiko.rooms.ranking import Placement
from ahiko.rooms.registry import RoomRegistry
from ahiko.wallet.ledger import as_utc

log = logging.getLogger(__name__)

DEFAULT_EVERY_MINUTES = 30.0


@dataclass(frozen=True, slots=True)
class MttRegistered:
    mtt: Mtt
    applied: bool


@dataclass(frozen=True, slots=True)
class MttCancelled:
    mtt: Mtt
    applied: bool  # this call cancelled it (False: a retry finishing the refunds)
    refunded: list[int]  # the players refunded by this call


class MttService(TournamentDesk):
    """Every MTT of this process."""

    def __init__(
        self,
        registry: RoomRegistry,
        engine: Engine,
        *,
        every_minutes: float = DEFAULT_EVERY_MINUTES,
        specs: tuple[MttSpec, ...] = SCHEDULE,
        level_minutes: float = LEVEL_MINUTES,
        **desk: Unpack[DeskOptions],
    ) -> None:
        super().__init__(registry, engine, **desk)
        self._level_minutes = level_minutes
        self.lobby = MttLobby(self.clock, every_minutes, specs, prefix=self.run_prefix)
        self.rooms: dict[str, MttRooms] = {}  # mtt id -> its live tables
        self.names: dict[int, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, Any] = {}

    def start(self) -> None:
        """Opens the schedule (call once the loop runs)."""
        for mtt in self.lobby.open_scheduled():
            self._arm(mtt)

    def stop(self) -> None:
        """No start timer fires any more (a cluster's leader that stopped leading)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def moved_from(self, room_id: str, player_id: str) -> Moved | None:
        """A socket of ``player_id`` names table room ``room_id``, which they no longer sit
        at (a broken table's room is gone): the ``moved`` frame's body naming where they sit
        now, None when they are out or sit there (``MttRooms.elsewhere``)."""
        for rooms in self.rooms.values():
            moved = rooms.elsewhere_from(room_id, player_id)
            if moved is not None:
                return moved
        return None

    def room_ids(self) -> list[str]:
        """Every table room of every MTT this service started."""
        return [room for rooms in self.rooms.values() for room in rooms.room_ids().values()]

    def _arm(self, mtt: Mtt) -> None:
        delay = max(0.0, (mtt.starts_at - as_utc(self.clock())).total_seconds())
        old = self._timers.pop(mtt.id, None)
        if old is not None:
            old.cancel()

        def due() -> None:
            detached(self._start_due(mtt.id))

        self._timers[mtt.id] = self.registry.clock.call_later(delay, due)

    # --- what the lobby shows -------------------------------------------------------------------
    def late_open(self, mtt: Mtt) -> bool:
        rooms = self.rooms.get(mtt.id)
        return (
            mtt.status is TournamentStatus.RUNNING
            and rooms is not None
            and not rooms.finished
            and rooms.level <= LATE_LEVELS
        )

    def entry(self, mtt: Mtt, user_id: int | None = None) -> dict[str, Any]:
        rooms = self.rooms.get(mtt.id)
        mine = user_id is not None and user_id in mtt.entrants
        room_id = rooms.room_of(str(user_id)) if rooms is not None and mine else None
        return {
            **mtt.to_json(),
            "registered_me": mine,
            "host_me": user_id is not None and mtt.host == user_id,
            "room_id": room_id,
            "late": self.late_open(mtt),
            "level": rooms.level if rooms is not None else 0,
            "tables": len(rooms.model.tables) if rooms is not None else 0,
            "left": len(rooms.model.remaining()) if rooms is not None else len(mtt.entrants),
            "paid": str_keys(mtt.paid),
        }

    def listing(self, user_id: int | None) -> dict[str, Any]:
        return {"mtts": [self.entry(m, user_id) for m in self.lobby.listing()]}

    def detail(self, mtt_id: str, user_id: int | None) -> dict[str, Any]:
        """One MTT's page: its entry, the entrants, each table with its players and, as
        players go out, the places (with the prize each place pays)."""
        mtt = self.lobby.get(mtt_id)
        rooms = self.rooms.get(mtt.id)
        prizes = mtt_prizes(mtt.pool, len(mtt.entrants))
        name = self.names.get
        tables = []
        if rooms is not None and not rooms.finished:
            for number, table in sorted(rooms.model.tables.items()):
                players = [
                    {
                        "user_id": int(p),
                        "name": rooms.names.get(p, "?"),
                        "seat": seat,
                        "chips": rooms.chips.get(p, rooms.starting_stack),
                    }
                    for seat, p in sorted(table.seats.items())
                ]
                room_id = rooms.actors[number].room_id if number in rooms.actors else None
                tables.append({"number": number, "room_id": room_id, "players": players})
        # The live ranking while it runs (those out so far), the stored order once it ended.
        if rooms is not None:
            order = [(p.place, int(p.player)) for p in rooms.places]
        else:
            order = [(i + 1, user) for i, user in enumerate(mtt.places)]
        results = [
            {
                "place": place,
                "user_id": user,
                "name": name(user, "?"),
                "prize": mtt.paid.get(user, 0)
                if mtt.paid
                else (prizes[place - 1] if place <= len(prizes) else 0),
            }
            for place, user in sorted(order)
        ]
        return {
            "mtt": self.entry(mtt, user_id),
            "entrants": [{"user_id": u, "name": name(u, "?")} for u in mtt.entrants],
            "tables": tables,
            "results": results,
        }

    # --- registration ---------------------------------------------------------------------------
    async def register(self, mtt_id: str, user_id: int, name: str, key: str) -> MttRegistered:
        """Registers ``user_id`` (``TournamentRefused``, the wallet's ``InsufficientFunds`` or
        ``TournamentStorage`` when not, nothing changed); the same ``key`` again answers the first
        registration. Answered once the buy-in's write came back."""
        return await asyncio.shield(detached(self._register(mtt_id, user_id, name, key)))

    async def _register(self, mtt_id: str, user_id: int, name: str, key: str) -> MttRegistered:
        mtt = self.lobby.get(mtt_id)
        async with self._lock(mtt.id):
            if self.client_keys.get(user_id, key) == mtt.id:
                return MttRegistered(mtt, applied=False)
            mtt, attempt = self.lobby.admission(mtt_id, user_id, self.late_open(mtt))
            if mtt.buy_in:
                hold_key = self.lobby.hold_key(mtt.id, user_id, attempt)
                await self.pools.hold(mtt.id, user_id, mtt.buy_in, hold_key)
            if mtt.status is TournamentStatus.RUNNING and not self.late_open(mtt):
                # late registration closed while the buy-in was written: it goes back
                await self._refund(mtt, user_id, attempt)
                raise TournamentRefused("registration_closed", "late registration has closed")
            self.lobby.admit(mtt, user_id, attempt)
            self.client_keys.remember(user_id, key, mtt.id)
            self.names[user_id] = name
            rooms = self.rooms.get(mtt.id)
            if rooms is not None:  # late: to the table with the fewest players
                rooms.model.paid_places = mtt.paid_places
                rooms.add_late(str(user_id), name)
                await rooms.claim_tables()  # a table the late player opened
        return MttRegistered(mtt, applied=True)

    async def _refund(self, mtt: Mtt, user_id: int, attempt: int) -> None:
        await self._give_back(
            mtt, user_id, self.lobby.refund_key(mtt.id, user_id, attempt), "withdrawal"
        )

    async def _give_back(self, mtt: Mtt, user_id: int, key: str, what: str) -> None:
        """``user_id``'s buy-in from the pool to their wallet, under the ledger ``key``."""
        if mtt.buy_in:
            await self.pools.refund(mtt.id, user_id, mtt.buy_in, key, what)

    async def withdraw(self, mtt_id: str, user_id: int) -> Mtt:
        """Unregisters before the start: the buy-in goes back (once its write came back)."""
        mtt = self.lobby.get(mtt_id)
        return await asyncio.shield(detached(self._withdraw(mtt, user_id)))

    async def _withdraw(self, mtt: Mtt, user_id: int) -> Mtt:
        async with self._lock(mtt.id):
            self.lobby.leaving(mtt.id, user_id)
            await self._give_back(
                mtt, user_id, self.lobby.refund_key(mtt.id, user_id), "withdrawal"
            )
            self._unlisted(mtt, user_id)
        return mtt

    def _unlisted(self, mtt: Mtt, user_id: int) -> None:
        """``user_id``'s buy-in is back: no longer registered (nor their client keys)."""
        mtt.entrants.remove(user_id)
        self.client_keys.forget(user_id, mtt.id)

    # --- cancel ---------------------------------------------------------------------------------
    async def cancel(self, mtt_id: str, user_id: int) -> MttCancelled:
        """The host cancels their MTT before its start: every buy-in back (``TournamentRefused``
        when refused; ``TournamentStorage`` when a refund's write failed, the others done, the
        MTT cancelled: the same call again refunds the rest)."""
        mtt = self.lobby.get(mtt_id)
        return await asyncio.shield(detached(self._cancel(mtt, user_id)))

    async def _cancel(self, mtt: Mtt, user_id: int) -> MttCancelled:
        async with self._lock(mtt.id):
            applied = self.lobby.cancelling(mtt, user_id)
            timer = self._timers.pop(mtt.id, None)
            if timer is not None:
                timer.cancel()
            refunded: list[int] = []
            failed: TournamentStorage | None = None
            for entrant in list(mtt.entrants):
                try:
                    await self._give_back(
                        mtt, entrant, self.lobby.refund_key(mtt.id, entrant), "cancel"
                    )
                except TournamentStorage as exc:
                    log.warning("MTT %s: %s's refund failed: %s", mtt.id, entrant, exc)
                    failed = failed or exc
                    continue
                self._unlisted(mtt, entrant)
                refunded.append(entrant)
        if failed is not None:
            raise failed
        return MttCancelled(mtt, applied, refunded)

    def _lock(self, mtt_id: str) -> asyncio.Lock:
        return self._locks.setdefault(mtt_id, asyncio.Lock())

    # --- a host's MTT ---------------------------------------------------------------------------
    def create(
        self,
        host: int,
        name: str,
        buy_in: int,
        starts_in_minutes: float,
        level_hands: int | None = None,
        variant: str = HOLDEM.name,
    ) -> Mtt:
        mtt = self.lobby.create(host, name, buy_in, starts_in_minutes, level_hands, variant)
        self._arm(mtt)
        return mtt

    async def start_now(self, mtt_id: str, user_id: int) -> Mtt:
        """The host starts their MTT before its time (two registered or more)."""
        mtt = self.lobby.get(mtt_id)
        if mtt.host != user_id:
            raise TournamentRefused("not_host", "only the tournament's host may start it")
        refuse_cancelled(mtt)
        if not self.lobby.may_start(mtt):
            raise TournamentRefused("not_ready", "a tournament starts with two players registered")
        await self._start_due(mtt.id)
        return mtt

    # --- the start ------------------------------------------------------------------------------
    async def _start_due(self, mtt_id: str) -> None:
        mtt = self.lobby.all[mtt_id]
        async with self._lock(mtt.id):
            if mtt.status is not TournamentStatus.REGISTERING:
                return
            if not self.lobby.may_start(mtt):
                self.lobby.postpone(mtt)  # fewer than two: later, registrations kept
                self._arm(mtt)
                return
            self._timers.pop(mtt.id, None)
            for opened in self.lobby.started(mtt):
                self._arm(opened)
            players = [(str(u), self.names.get(u, "?")) for u in mtt.entrants]
            rooms = MttRooms(
                self.registry,
                mtt.id,
                players,
                rng=self.rng,
                name=mtt.name,
                level_minutes=self._level_minutes,
                level_hands=mtt.level_hands,
                variant=mtt.variant,
                timing=self.timing,
                paid_places=mtt.paid_places,
                on_finish=lambda places: self._finished(mtt, places),
                claim=self.claim_room,
                prizes=lambda: mtt_prizes(mtt.pool, len(mtt.entrants)),
            )
            self.rooms[mtt.id] = rooms
            await rooms.start()

    def _finished(self, mtt: Mtt, places: list[Placement]) -> None:
        """Pays the pool by place and stores the places, in one ledger transaction."""
        order = [int(p.player) for p in places]
        paid = self.lobby.payout_plan(mtt, order)
        finishers = [
            Finisher(p.place, p.player, self.names.get(int(p.player), p.player)) for p in places
        ]

        def ended(landed: bool) -> None:
            self.lobby.record_end(mtt, order, paid if landed else {})

        finished_at = as_utc(self.clock())
        room_id = f"{MTT_TABLE_PREFIX}{mtt.id}"
        self.pools.pay_out(
            mtt.id, room_id, finishers, paid, self.lobby.payout_key(mtt.id), finished_at, ended
        )
