"""Shared helpers for the Ahiko room tests (imported as ``ahiko_helpers``): a lobby of
wallet-backed rooms on a manual clock over a fresh SQLite (or PostgreSQL) database, people
with wallets, and ways to drive hands."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from random import Random
from typing import Any

from rooms_helpers import Recorder
from sqlalchemy import Engine

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.house.lobby import AhikoLobby
from ahiko.rooms.house.table import AhikoTable
from ahiko.rooms.house.tiers import TIERS_BY_KEY, Tier
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.room import Room
from ahiko.rooms.timing import Timing
from ahiko.store.accounts import insert_user
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import Wallet, open_wallet
from ahiko.wallet.policy import SIGNUP_GRANT

_keys = itertools.count(1)


def new_key() -> str:
    return f"k{next(_keys)}"


@dataclass
class Ahiko:
    """A lobby of Ahiko rooms, its database and a manual clock."""

    engine: Engine
    bot_level: str = "easy"
    clock: ManualClock = field(default_factory=ManualClock)
    conns: dict[str, Recorder] = field(default_factory=dict)
    timing: Timing | None = None  # None: the rules' durations, bots answering at once

    def __post_init__(self) -> None:
        self.wallet = Wallet(self.engine)
        self.initial_reserve = self.wallet.reserve_balance()
        self.registry = RoomRegistry(clock=self.clock)
        self.lobby = AhikoLobby(
            self.registry,
            self.wallet,
            self.engine,
            bot_level=self.bot_level,
            run_id="t",
            timing=self.timing,
        )
        self.lobby.start()

    # --- people -------------------------------------------------------------------------
    def person(self, name: str) -> str:
        with self.engine.begin() as conn:
            user_id = insert_user(conn, name, "not-a-real-hash", datetime.now(UTC))
            open_wallet(conn, user_id, datetime.now(UTC))
        return str(user_id)

    def wallet_of(self, pid: str) -> int:
        return self.wallet.holdings(int(pid)).wallet

    # --- rooms --------------------------------------------------------------------------
    def rooms(self, tier: Tier | None = None) -> list[Room]:
        """The lobby's open rooms (of one tier), looked inside (a test may; nothing else does)."""
        return [actor.room for actor in self.lobby.rooms(tier)]

    def room(self, tier: str, index: int = 0) -> Room:
        return self.lobby.rooms(TIERS_BY_KEY[tier])[index].room  # a test may look inside

    def connect(self, room: Room, pid: str) -> Recorder:
        rec = Recorder(pid)
        actor = self.registry.get(room.room_id)
        assert actor is not None
        actor.subscribe(rec.connection_id, rec.deliver)
        assert room.submit(c.Connect(rec.connection_id, pid)).ok
        self.conns[f"{room.room_id}:{pid}"] = rec
        return rec

    def disconnect(self, room: Room, pid: str) -> None:
        rec = self.conns.pop(f"{room.room_id}:{pid}")
        assert room.submit(c.Disconnect(rec.connection_id)).ok

    def sit(self, room: Room, pid: str, seat: int, amount: int, key: str | None = None) -> c.Reply:
        if f"{room.room_id}:{pid}" not in self.conns:
            self.connect(room, pid)
        return room.submit(c.BuyIn(pid, f"P{pid}", seat, amount, key or new_key()))

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def check(self) -> None:
        assert check_ledger(self.engine) == []


def table(room: Room) -> AhikoTable:
    assert isinstance(room.hooks, AhikoTable)
    return room.hooks


def to_hand(ahiko: Ahiko, room: Room) -> None:
    """Past the 8 s start wait and the 2 s commitment: the cards are dealt."""
    ahiko.advance(room.config.timing.next_hand_delay_s)
    ahiko.advance(room.config.timing.commitment_display_s)
    assert room.dealer.hand is not None and room.dealer.hand.phase.value == "dealt"


def act_passively(room: Room) -> c.Reply:
    hand = room.dealer.hand
    assert hand is not None and hand.to_act is not None
    legal = hand.legal()
    action = Action.check() if legal.can_check else Action.call()
    return room.submit(c.Act(hand.players[hand.to_act], hand.hand_no, action))


def play_out(room: Room, rng: Random | None = None, limit: int = 400) -> None:
    """People act (passively, or at random with ``rng``) until the current hand ends; bots
    answer by themselves."""
    hand = room.dealer.hand
    for _ in range(limit):
        if room.dealer.hand is not hand or hand is None or hand.is_over or hand.to_act is None:
            return
        seat = hand.to_act
        if rng is None:
            act_passively(room)
        else:
            action = random_action(rng, hand.legal())
            reply = room.submit(c.Act(hand.players[seat], hand.hand_no, action))
            assert reply.ok, reply
    raise AssertionError("the hand did not end")


def random_action(rng: Random, legal: Any) -> Action:
    r = rng.random()
    if legal.bet_kind is not None and r < 0.2:
        to = rng.choice([legal.min_to, legal.max_to, (legal.min_to + legal.max_to) // 2])
        return Action(legal.bet_kind, to)
    if r < 0.35 and legal.can_fold and not legal.can_check:
        return Action.fold()
    return Action.check() if legal.can_check else Action.call()


GRANT = SIGNUP_GRANT
