"""The Ahiko rooms of this process (R-RM-10): two per tier at start; another opens when
every room of a tier is full; surplus empty rooms close down to two per tier.

Rooms are durable. On start, the rooms a previous run left open reopen with
the same ids, seats, stacks and open participations (``reopen_previous_rooms``): a hand it was
playing is cancelled (every stack back to that hand's start, recorded as cancelled, by
``recover_interrupted_hands``); escrows already hold those stacks, which is verified, so no
coin moves. Hand numbers go on past every number the room used (R-FD-06) and the commitment
chain starts anew (the digest of an interrupted hand is not stored). The people seated come
back disconnected: not dealt in (R-TM-05) until they reconnect with their session, and paid
out two minutes after the restart if they do not (R-TM-03, R-TM-07). The Bot Ahiko, if it was
seated, goes back to its reserve at start; it joins again by R-BA-01 if a person waits alone.
Recreational rooms are not stored, so they do not survive a restart."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine

from ahiko.bots.protocol import Bot, load_bot
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.config import RoomKind
from ahiko.rooms.house.bot_ahiko import BotAhiko
from ahiko.rooms.house.table import AhikoTable, room_record
from ahiko.rooms.house.tiers import ROOMS_PER_TIER, TIERS, Tier, ahiko_config, tier_of
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.restore import Restore, RestoredSeat
from ahiko.rooms.room_view import RoomView
from ahiko.rooms.timing import AHIKO_ACTION_DEADLINE_S, Timing
from ahiko.store.rooms import (
    OpenStay,
    SeatRecord,
    StoredRoom,
    bot_stay_count,
    last_button,
    load_rooms,
    open_stays,
    recent_pot_totals,
    recover_interrupted_hands,
    save_room,
    write_seats,
)
from ahiko.store.writer import StoreWriter, writer_for
from ahiko.wallet.operations import Receipt, Wallet

log = logging.getLogger(__name__)

# A hand may have been committed to (and its number shown) but not yet stored when the
# previous run died: one number is left out after the last stored one.
UNSTORED_COMMITMENTS = 1
# The lobby's "Pote médio" averages a room's last 20 finished hands: a reopened room is
# given back as many (the room keeps as many, tests/rooms/test_rooms_client_contracts.py).
RECENT_POTS = 20


@dataclass
class Reopened:
    """What reopening one room found and did."""

    room_id: str
    people: list[int] = field(default_factory=list)  # seats given back to people
    bot_returned: bool = False  # the Bot Ahiko's stack went back to the reserve
    paid_out: list[int] = field(default_factory=list)  # open stays with no seat, paid out
    corrections: list[str] = field(default_factory=list)  # seats that disagreed with escrows
    next_hand_no: int = 1


class AhikoLobby:
    def __init__(
        self,
        registry: RoomRegistry,
        wallet: Wallet,
        engine: Engine,
        *,
        timing: Timing | None = None,
        action_deadline_s: float = AHIKO_ACTION_DEADLINE_S,
        bot_level: str = "normal",
        bot_factory: Callable[[str], Bot] = load_bot,
        run_id: str | None = None,
        writer: StoreWriter | None = None,
    ) -> None:
        self.registry = registry
        # The rooms' ledger writes: on worker threads on the real clock, inline on
        # a test's manual one.
        self.writer: StoreWriter = writer or writer_for(isinstance(registry.clock, AsyncioClock))
        self.wallet = wallet
        self.engine = engine
        self.timing = timing or Timing()
        self.action_deadline_s = action_deadline_s
        self.bot_level = bot_level
        self.bot_factory = bot_factory
        self.run_id = run_id or secrets.token_hex(3)  # room ids are never reused across runs
        self._opened: dict[str, int] = {tier.key: 0 for tier in TIERS}
        self._rebalance_queued: set[str] = set()
        self._starting = False  # no rebalancing while the previous run's rooms reopen
        self.reopened: list[Reopened] = []
        # On a node of a cluster the lobby rule runs on the leader only
        # (``ahiko.server.cluster.house``): a room's change only pokes it.
        self.poke: Callable[[], None] | None = None

    # --- opening and closing ----------------------------------------------------------------
    def start(self) -> None:
        self._starting = True
        try:
            self.reopened = self.reopen_previous_rooms()
        finally:
            self._starting = False
        for tier in TIERS:
            while len(self.rooms(tier)) < ROOMS_PER_TIER:
                self.open_room(tier)
            self.rebalance(tier)

    def open_room(self, tier: Tier) -> RoomActor:
        room_id, name = self.next_room(tier)
        return self._create(room_id, tier, name)

    def next_room(self, tier: Tier) -> tuple[str, str]:
        """The id and name of the tier's next new room (ids never reused across runs)."""
        self._opened[tier.key] += 1
        number = self._opened[tier.key]
        return f"{tier.key}-{self.run_id}-{number}", f"{tier.name} {number}"

    def create_room(self, room_id: str, tier: Tier, name: str) -> RoomActor:
        """Open a room under an id from ``next_room`` (a cluster node claims it first)."""
        return self._create(room_id, tier, name)

    def _create(
        self,
        room_id: str,
        tier: Tier,
        name: str,
        build: Callable[[AhikoTable], Restore] | None = None,
    ) -> RoomActor:
        config = ahiko_config(
            tier, name, action_deadline_s=self.action_deadline_s, timing=self.timing
        )
        record = room_record(config, tier)
        if self._starting:  # nothing is served yet: the previous run's seats are read next
            save_room(self.engine, room_id, "ahiko", record)
        else:  # a tier filled up during play: first in the new room's lane of writes
            self.writer.submit(
                room_id, lambda: save_room(self.engine, room_id, "ahiko", record), retry=True
            )
        table = AhikoTable(
            self.wallet,
            self.engine,
            tier,
            bot=BotAhiko(self.bot_level, self.bot_factory),
            on_change=self._changed,
            writer=self.writer,
        )
        restore = None if build is None else build(table)
        return self.registry.create(config, room_id=room_id, hooks=table, restore=restore)

    def rooms(self, tier: Tier | None = None) -> list[RoomActor]:
        """Open Ahiko rooms (of one tier), oldest first, by their actors."""
        return [
            actor
            for actor in self.registry.actors()
            if actor.config.kind is RoomKind.AHIKO
            and actor.is_open
            and (tier is None or actor.config.tier == tier.key)
        ]

    def entries(self, tier: Tier | None = None) -> list[dict[str, Any]]:
        """The open rooms as the Ahiko lobby lists them (``GET /api/ahiko/rooms``)."""
        return [actor.lobby_entry() for actor in self.rooms(tier)]

    def _changed(self, room: RoomView) -> None:
        if self.poke is not None:
            self.poke()
            return
        key = room.config.tier or ""
        if self._starting or key in self._rebalance_queued:
            return
        self._rebalance_queued.add(key)

        def run() -> None:
            self._rebalance_queued.discard(key)
            self.rebalance(tier_of(key))

        room.later(run)

    def rebalance(self, tier: Tier) -> None:
        """Open a room when none of the tier has a free seat; close surplus empty rooms
        (newest first) while the tier keeps a free seat elsewhere and two rooms at least.
        It reads the rooms' lobby entries only, and closes a room by sending it ``Close``."""
        entries = self.entries(tier)
        if not any(e["free_seats"] for e in entries):
            self.open_room(tier)
            return
        for room_id in surplus_rooms(entries):
            self.registry.retire(room_id, "surplus")

    # --- a previous run -----------------------------------------------------------------------
    def reopen_previous_rooms(self) -> list[Reopened]:
        """Cancel what the previous run left in progress, then reopen each of its open Ahiko
        rooms as it stood at its last hand boundary."""
        recover_interrupted_hands(self.engine)
        stored_rooms = load_rooms(self.engine, include_closed=True)
        self._skip_used_numbers(stored_rooms)
        return [
            self._reopen(stored)
            for stored in stored_rooms
            if stored.kind == "ahiko" and stored.is_open and stored.config.get("tier") in TIER_KEYS
        ]

    def _skip_used_numbers(self, stored_rooms: list[StoredRoom]) -> None:
        """New rooms of a run id seen before (fixed in tests) take numbers never used."""
        for stored in stored_rooms:
            tier_key, _, rest = stored.id.partition("-")
            run_id, _, number = rest.rpartition("-")
            if tier_key in self._opened and run_id == self.run_id and number.isdigit():
                self._opened[tier_key] = max(self._opened[tier_key], int(number))

    def reopen(self, stored: StoredRoom) -> Reopened:
        """Reopen one stored room whose interrupted hand was already cancelled (a cluster
        node taking over a room whose owner died)."""
        report = self._reopen(stored)
        self.reopened.append(report)
        return report

    def _reopen(self, stored: StoredRoom) -> Reopened:
        tier = tier_of(stored.config["tier"])
        name = str(stored.config.get("name") or tier.name)
        report = Reopened(stored.id)

        def restore(table: AhikoTable) -> Restore:
            kept = self._settle_seats(stored, table, report)
            table.recorded_hand_no = stored.last_hand_no
            table.bot.fundings = bot_stay_count(self.engine, stored.id)
            seats = []
            for record in kept:
                assert record.user_id is not None and record.participation_id is not None
                table.participations[str(record.user_id)] = record.participation_id
                seats.append(
                    RestoredSeat(record.seat, str(record.user_id), record.name, record.stack)
                )
            report.people = [record.seat for record in kept]
            report.next_hand_no = stored.last_hand_no + 1 + UNSTORED_COMMITMENTS
            return Restore(
                report.next_hand_no,
                last_button(self.engine, stored.id),
                tuple(recent_pot_totals(self.engine, stored.id, RECENT_POTS)),
                tuple(seats),
            )

        self._create(stored.id, tier, name, restore)
        for problem in report.corrections:
            log.warning("reopening room %s: %s", stored.id, problem)
        return report

    def _settle_seats(
        self, stored: StoredRoom, table: AhikoTable, report: Reopened
    ) -> list[SeatRecord]:
        """The people's seats to give back, each checked against its open participation's
        escrow (the ledger wins a disagreement, which is reported). The Bot Ahiko and any
        open participation without a seat are paid back, the seats written with it."""
        stays = {stay.participation_id: stay for stay in open_stays(self.engine, stored.id)}
        kept: list[SeatRecord] = []
        for record in stored.seats:
            stay = stays.pop(record.participation_id or -1, None)
            if stay is None or record.occupant not in ("person", "bot_ahiko"):
                report.corrections.append(
                    f"seat {record.seat} ({record.name}) has no open participation: left empty"
                )
                continue
            if stay.escrow != record.stack:
                report.corrections.append(
                    f"seat {record.seat} ({record.name}) had {record.stack} chips but its "
                    f"escrow holds {stay.escrow}: the escrow's amount is kept"
                )
                record = _with_stack(record, stay.escrow)
            if stay.player == "bot_ahiko":
                stays[stay.participation_id] = stay  # paid back below, with the others
                continue
            kept.append(record)
        changed = len(kept) != len(stored.seats) or any(
            record not in stored.seats for record in kept
        )
        leftovers = list(stays.values())
        if not leftovers and changed:
            with self.engine.begin() as conn:
                write_seats(conn, stored.id, kept)
        for n, stay in enumerate(leftovers):
            last = n == len(leftovers) - 1
            self._pay_back(stored.id, stay, kept if last else None)
            if stay.player == "bot_ahiko":
                report.bot_returned = True
            else:
                report.paid_out.append(stay.participation_id)
        return kept

    def _pay_back(self, room_id: str, stay: OpenStay, seats: list[SeatRecord] | None) -> None:
        """Close ``stay`` to its owner's wallet (or the reserve); ``seats``, when given, are
        written in the same transaction."""

        def write(conn: Connection, _receipt: Receipt) -> None:
            if seats is not None:
                write_seats(conn, room_id, seats)

        key = f"exit:{stay.participation_id}"
        if stay.player == "bot_ahiko":
            self.wallet.bot_return(stay.participation_id, key, write)
        else:
            self.wallet.cash_out(stay.participation_id, key, also=write)


TIER_KEYS = frozenset(tier.key for tier in TIERS)


def surplus_rooms(entries: list[dict[str, Any]]) -> list[str]:
    """The rooms of one tier's lobby ``entries`` (oldest first) to close: surplus empty rooms,
    newest first, while the tier keeps a free seat elsewhere and two rooms at least."""
    closing = []
    for entry in reversed(entries):
        if len(entries) <= ROOMS_PER_TIER:
            break
        if entry["seats_taken"] or entry["hand_no"] is not None:
            continue
        others = [e for e in entries if e is not entry]
        if any(e["free_seats"] for e in others):
            closing.append(str(entry["id"]))
            entries = others
    return closing


def _with_stack(record: SeatRecord, stack: int) -> SeatRecord:
    return SeatRecord(
        record.seat,
        record.occupant,
        record.name,
        stack,
        record.user_id,
        record.participation_id,
        record.extra,
    )
