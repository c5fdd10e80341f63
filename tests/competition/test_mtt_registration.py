"""Multi-table tournaments from registration to payout, on a manual clock (issue 20): a paid
MTT registers (the buy-in into its pool, an idempotent key, unregistration refunds, double
registration, an unknown MTT and a short wallet refused with nothing changed), starts when
its time comes (one registered: its start moves on), opens the next one, seats a late
registration at the table with the fewest players, closes late registration after the first
levels, plays to one winner at live tables and pays the pool by place; the ledger is clean
at every step."""

from __future__ import annotations

import asyncio

import pytest
from mtt_play import mtt_service, play, refused
from sqlalchemy import Engine

from ahiko.competition.lifecycle import TournamentStatus
from ahiko.competition.mtt_lobby import mtt_prizes
from ahiko.rooms.clock import ManualClock
from ahiko.store.tournament_places import places_of
from ahiko.wallet.check import check_ledger
from ahiko.wallet.errors import InsufficientFunds
from ahiko.wallet.operations import Wallet
from ahiko.wallet.policy import SIGNUP_GRANT
from archive_factory import add_person


def coins(engine: Engine, user_id: int) -> int:
    return Wallet(engine).holdings(user_id).wallet


async def settle(until: object, turns: int = 200) -> None:
    for _ in range(turns):
        if callable(until) and until():
            return
        await asyncio.sleep(0)


def test_a_paid_mtt_from_registration_to_the_payout(engine: Engine) -> None:
    clock = ManualClock()
    service = mtt_service(engine, clock, 100, seed=5, run_id="t")
    registry = service.registry
    users = [add_person(engine, f"u{n}") for n in range(13)]

    async def scenario() -> None:
        service.start()
        (mtt,) = service.lobby.listing()
        assert mtt.status is TournamentStatus.REGISTERING and mtt.buy_in == 100
        await refused("no_mtt", service.register("nope", users[0], "U0", "k"))
        first = await service.register(mtt.id, users[0], "U0", "k0")
        assert first.applied and coins(engine, users[0]) == SIGNUP_GRANT - 100
        again = await service.register(mtt.id, users[0], "U0", "k0")  # a retry: nothing moves
        assert not again.applied and coins(engine, users[0]) == SIGNUP_GRANT - 100
        await refused("already_registered", service.register(mtt.id, users[0], "U0", "k1"))
        # the start time with one registered: the start moves on, the registration kept
        clock.advance(10 * 60)
        await settle(lambda: False, 20)
        assert mtt.status is TournamentStatus.REGISTERING and mtt.entrants == [users[0]]
        for n in range(1, 11):
            assert (await service.register(mtt.id, users[n], f"U{n}", f"k{n}")).applied
        await service.withdraw(mtt.id, users[10])  # unregistered: the buy-in back
        assert coins(engine, users[10]) == SIGNUP_GRANT
        await refused("not_registered", service.withdraw(mtt.id, users[10]))
        assert service.bank.pool_balance(mtt.id) == 1000
        rich = service.create(users[0], "Alta", SIGNUP_GRANT + 1, 5)  # a host's MTT
        with pytest.raises(InsufficientFunds):
            await service.register(rich.id, users[1], "U1", "r1")
        assert coins(engine, users[1]) == SIGNUP_GRANT - 100 and rich.entrants == []
        await refused("not_ready", service.start_now(rich.id, users[0]))
        await refused("not_host", service.start_now(rich.id, users[1]))
        assert check_ledger(engine) == []

        clock.advance(10 * 60)  # its (moved) start time: ten registered, two tables
        await settle(lambda: mtt.id in service.rooms and service.rooms[mtt.id].actors)
        await settle(lambda: len(service.rooms[mtt.id].seated) == 2)
        rooms = service.rooms[mtt.id]
        await settle(lambda: sum(len(s) for s in rooms.seated.values()) == 10)
        assert mtt.status is TournamentStatus.RUNNING
        assert sorted(len(t.seats) for t in rooms.model.tables.values()) == [5, 5]
        upcoming = [m for m in service.lobby.listing() if m.status is TournamentStatus.REGISTERING]
        assert any(m.spec == "mtt-100" and m.id != mtt.id for m in upcoming)  # the next one
        await refused("already_started", service.withdraw(mtt.id, users[0]))
        listing = service.listing(users[0])["mtts"]
        mine = next(e for e in listing if e["id"] == mtt.id)
        assert mine["room_id"] in rooms.room_ids().values() and mine["late"]

        # late registration in level 1: the table with the fewest players
        smallest = min(len(t.seats) for t in rooms.model.tables.values())
        assert (await service.register(mtt.id, users[10], "U10", "late")).applied
        late_table = rooms.model.table_of(str(users[10]))
        assert len(late_table.seats) == smallest + 1
        assert mtt.late == [users[10]] and service.bank.pool_balance(mtt.id) == 1100

        late_by_level = []

        def late_window() -> None:
            late_by_level.append((rooms.level, service.late_open(mtt)))

        await play(registry, clock, rooms, late_window)
        assert all(late == (level <= 2) for level, late in late_by_level[:-1])
        await refused("registration_closed", service.register(mtt.id, users[12], "U12", "x"))
        await settle(lambda: mtt.status is TournamentStatus.FINISHED)
        # the pool paid by place: 11 entrants, 50/30/20 of 1,100
        prizes = mtt_prizes(1100, 11)
        assert prizes == [550, 330, 220] and service.bank.pool_balance(mtt.id) == 0
        winners = mtt.places[:3]
        for user, prize in zip(winners, prizes, strict=True):
            assert mtt.paid[user] == prize
            assert coins(engine, user) == SIGNUP_GRANT - 100 + prize
        for user in mtt.places[3:]:
            assert coins(engine, user) == SIGNUP_GRANT - 100
        stored = places_of(engine, f"mtt-{mtt.id}")
        assert [p.user_id for p in stored] == mtt.places and stored[0].prize == 550
        assert check_ledger(engine) == []

    asyncio.run(asyncio.wait_for(scenario(), 300))
