"""The Ahiko rooms of this process (R-RM-10): two per tier at start; another opens when
every room of a tier is full; surplus empty rooms close down to two per tier.

On start the rooms a previous run left open are settled first: any hand it was playing is
cancelled (stacks back to the hand's start, ``recover_interrupted_hands``) and every open
participation is paid out — people to their wallets, the Bot Ahiko to its reserve."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from sqlalchemy import Connection, Engine, select

from ahiko.bots.protocol import Bot, load_bot
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.ahiko_table import AhikoTable, room_record
from ahiko.rooms.bot_ahiko import BotAhiko
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.room import Room
from ahiko.rooms.tiers import ROOMS_PER_TIER, TIERS, Tier, ahiko_config, tier_of
from ahiko.rooms.timing import AHIKO_ACTION_DEADLINE_S, Timing
from ahiko.store.rooms import load_rooms, recover_interrupted_hands, save_room, write_seats
from ahiko.store.schema import participations
from ahiko.wallet.operations import Receipt, Wallet


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
    ) -> None:
        self.registry = registry
        self.wallet = wallet
        self.engine = engine
        self.timing = timing or Timing()
        self.action_deadline_s = action_deadline_s
        self.bot_level = bot_level
        self.bot_factory = bot_factory
        self.run_id = run_id or secrets.token_hex(3)  # room ids are never reused across runs
        self._opened: dict[str, int] = {tier.key: 0 for tier in TIERS}
        self._rebalance_queued: set[str] = set()

    # --- opening and closing ----------------------------------------------------------------
    def start(self) -> None:
        self.settle_previous_runs()
        for tier in TIERS:
            for _ in range(ROOMS_PER_TIER):
                self.open_room(tier)

    def open_room(self, tier: Tier) -> RoomActor:
        self._opened[tier.key] += 1
        number = self._opened[tier.key]
        room_id = f"{tier.key}-{self.run_id}-{number}"
        config = ahiko_config(
            tier,
            f"{tier.name} {number}",
            action_deadline_s=self.action_deadline_s,
            timing=self.timing,
        )
        save_room(self.engine, room_id, "ahiko", room_record(config, tier))
        table = AhikoTable(
            self.wallet,
            self.engine,
            tier,
            bot=BotAhiko(self.bot_level, self.bot_factory),
            on_change=self._changed,
        )
        return self.registry.create(config, room_id=room_id, hooks=table)

    def rooms(self, tier: Tier | None = None) -> list[Room]:
        """Open Ahiko rooms (of one tier), oldest first."""
        found = [
            actor.room
            for actor in self.registry.actors()
            if actor.room.is_ahiko and actor.room.is_open
        ]
        return [r for r in found if tier is None or r.config.tier == tier.key]

    def _changed(self, room: Room) -> None:
        key = room.config.tier or ""
        if key in self._rebalance_queued:
            return
        self._rebalance_queued.add(key)

        def run() -> None:
            self._rebalance_queued.discard(key)
            self.rebalance(tier_of(key))

        room.later(run)

    def rebalance(self, tier: Tier) -> None:
        """Open a room when none of the tier has a free seat; close surplus empty rooms
        (newest first) while the tier keeps a free seat elsewhere and two rooms at least."""
        rooms = self.rooms(tier)
        if not any(r.seats.free_seats() for r in rooms):
            self.open_room(tier)
            return
        for room in reversed(rooms):
            if len(rooms) <= ROOMS_PER_TIER:
                return
            if room.seats.taken or room.hand is not None:
                continue
            others = [r for r in rooms if r is not room]
            if any(r.seats.free_seats() for r in others):
                room.close("surplus")
                self.registry.forget(room.room_id)
                rooms = others

    # --- a previous run -----------------------------------------------------------------------
    def settle_previous_runs(self) -> None:
        recover_interrupted_hands(self.engine)
        for stored in load_rooms(self.engine):
            if stored.kind != "ahiko":
                continue
            with self.engine.connect() as conn:
                rows = conn.execute(
                    select(participations.c.id, participations.c.player).where(
                        participations.c.room_id == stored.id,
                        participations.c.status == "open",
                    )
                ).all()
            room_id = stored.id

            def clear_seats(conn: Connection, _receipt: Receipt, room_id: str = room_id) -> None:
                write_seats(conn, room_id, [])

            for participation_id, player in rows:
                key = f"exit:{participation_id}"
                if player == "bot_ahiko":
                    self.wallet.bot_return(int(participation_id), key, clear_seats)
                else:
                    self.wallet.cash_out(int(participation_id), key, also=clear_seats)
            save_room(self.engine, stored.id, stored.kind, stored.config, "closed")
