"""A host cancels their MTT before its start, on a manual clock (issue 20): every registered
player's buy-in goes back exactly once (one refund per registration, a withdrawn and renewed
one included), the pool ends at zero and the ledger is clean; registering, leaving and
starting a cancelled MTT are refused; a non-host, the site's scheduled MTT and a started MTT
are refused with nothing changed; a cancel racing registrations (writes on worker threads)
leaves no coin in the pool; a cancel some of whose refunds failed is finished by its retry
without paying anyone twice, and a cancel again after that is refused."""

from __future__ import annotations

import asyncio

import pytest
from mtt_play import mtt_service, refused
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import OperationalError

from ahiko.competition.lifecycle import TournamentRefused, TournamentStatus
from ahiko.competition.live_mtt_lobby import MttService
from ahiko.competition.mtt_lobby import Mtt
from ahiko.competition.tournament_pools import TournamentStorage
from ahiko.rooms.clock import ManualClock
from ahiko.store.engine import reading
from ahiko.store.schema import ledger_transactions
from ahiko.store.writer import StoreWriter, ThreadWriter
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import Wallet
from ahiko.wallet.policy import SIGNUP_GRANT
from archive_factory import add_person

BUY_IN = 150


def coins(engine: Engine, user_id: int) -> int:
    return Wallet(engine).holdings(user_id).wallet


def postings(engine: Engine, mtt: Mtt, kind: str) -> dict[int, int]:
    """How many ``kind`` transactions each user has in ``mtt``'s pool."""
    with reading(engine) as conn:
        rows = conn.execute(
            select(ledger_transactions.c.user_id, func.count())
            .where(ledger_transactions.c.kind == kind, ledger_transactions.c.reason == mtt.id)
            .group_by(ledger_transactions.c.user_id)
        ).all()
    return {int(user): int(n) for user, n in rows}


def service_on(engine: Engine, clock: ManualClock, writer: StoreWriter | None = None) -> MttService:
    return mtt_service(engine, clock, 50, seed=11, run_id="c", writer=writer)


def test_the_host_cancels_and_every_buy_in_comes_back_once(engine: Engine) -> None:
    clock = ManualClock()
    service = service_on(engine, clock)
    host, *players = [add_person(engine, f"p{n}") for n in range(7)]

    async def scenario() -> None:
        service.start()
        (scheduled,) = service.lobby.listing()
        mtt = service.create(host, "Noite de sexta", BUY_IN, 30)
        for n, user in enumerate([host, *players]):
            assert (await service.register(mtt.id, user, f"P{n}", f"k{n}")).applied
        await service.withdraw(mtt.id, players[0])  # out and in again: two registrations
        assert (await service.register(mtt.id, players[0], "P1", "again")).applied
        assert service.bank.pool_balance(mtt.id) == BUY_IN * 7
        for user in [host, *players]:
            assert coins(engine, user) == SIGNUP_GRANT - BUY_IN

        await refused("not_host", service.cancel(mtt.id, players[1]))
        await refused("not_host", service.cancel(scheduled.id, host))  # the site's own
        await refused("no_mtt", service.cancel("nope", host))
        assert mtt.status is TournamentStatus.REGISTERING and len(mtt.entrants) == 7
        host_view = service.entry(mtt, host)
        assert host_view["host_me"] and not service.entry(mtt, players[1])["host_me"]

        done = await service.cancel(mtt.id, host)
        assert done.applied and sorted(done.refunded) == sorted([host, *players])
        assert mtt.status is TournamentStatus.CANCELLED and mtt.entrants == []
        assert service.bank.pool_balance(mtt.id) == 0
        for user in [host, *players]:
            assert coins(engine, user) == SIGNUP_GRANT
        holds = postings(engine, mtt, "sng_register")
        refunds = postings(engine, mtt, "sng_refund")
        assert holds == refunds and holds[players[0]] == 2 and holds[host] == 1
        assert check_ledger(engine) == []

        shown = service.entry(mtt, players[1])
        assert shown["status"] == "cancelled" and not shown["registered_me"]
        assert shown["registered"] == 0 and shown["pool"] == 0
        assert any(m["id"] == mtt.id for m in service.listing(None)["mtts"])
        # the same client key as before: refused, not "already registered"
        await refused("cancelled", service.register(mtt.id, players[1], "P2", "k2"))
        await refused("cancelled", service.register(mtt.id, add_person(engine, "new"), "N", "n"))
        await refused("cancelled", service.withdraw(mtt.id, players[1]))
        await refused("cancelled", service.start_now(mtt.id, host))
        await refused("already_cancelled", service.cancel(mtt.id, host))  # a retry
        clock.advance(31 * 60)  # its start time passes: nothing starts
        for _ in range(20):
            await asyncio.sleep(0)
        assert mtt.status is TournamentStatus.CANCELLED and mtt.id not in service.rooms
        assert postings(engine, mtt, "sng_refund") == refunds  # nothing paid twice
        for user in [host, *players]:
            assert coins(engine, user) == SIGNUP_GRANT
        assert check_ledger(engine) == []

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_started_mtt_is_not_cancelled(engine: Engine) -> None:
    clock = ManualClock()
    service = service_on(engine, clock)
    host, guest = add_person(engine, "host"), add_person(engine, "guest")

    async def scenario() -> None:
        mtt = service.create(host, "Já começou", BUY_IN, 30)
        for n, user in enumerate((host, guest)):
            await service.register(mtt.id, user, f"U{n}", f"k{n}")
        await service.start_now(mtt.id, host)
        assert mtt.status is TournamentStatus.RUNNING
        await refused("already_started", service.cancel(mtt.id, host))
        await refused("not_host", service.cancel(mtt.id, guest))
        assert mtt.status is TournamentStatus.RUNNING and sorted(mtt.entrants) == sorted(
            [host, guest]
        )
        assert service.bank.pool_balance(mtt.id) == 2 * BUY_IN
        assert postings(engine, mtt, "sng_refund") == {}
        assert check_ledger(engine) == []

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_cancel_racing_registrations_leaves_no_coin_in_the_pool(engine: Engine) -> None:
    """The ledger writes on worker threads, so registrations' buy-ins are in flight while the
    cancel comes: those admitted before it are refunded, those after it refused, none left."""
    clock = ManualClock()
    writer = ThreadWriter(threads=2)
    service = service_on(engine, clock, writer)
    host = add_person(engine, "host")
    players = [add_person(engine, f"r{n}") for n in range(16)]

    async def register(n: int, user: int) -> str:
        try:
            await service.register(mtt.id, user, f"R{n}", f"k{n}")
        except TournamentRefused as exc:
            return exc.code
        return "registered"

    async def cancel() -> str:
        await asyncio.sleep(0)  # behind the first registrations, ahead of the others
        return "cancelled" if (await service.cancel(mtt.id, host)).applied else "retry"

    async def scenario() -> list[str]:
        # the first of them are queued before the cancel, the rest come while it refunds
        early = [asyncio.ensure_future(register(n, u)) for n, u in enumerate(players[:8])]
        cancelling = asyncio.ensure_future(cancel())
        await asyncio.sleep(0)
        late = [asyncio.ensure_future(register(n + 8, u)) for n, u in enumerate(players[8:])]
        return list(await asyncio.gather(*early, cancelling, *late))

    mtt = service.create(host, "Corrida", BUY_IN, 30)
    try:
        answers = asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        writer.close()
    # the lock is first come, first served: those queued before the cancel are in (their
    # buy-ins in flight while it waited), then refunded; those after it are refused
    assert answers == ["registered"] * 8 + ["cancelled"] * 9
    registered = answers[:8]
    assert mtt.entrants == [] and service.bank.pool_balance(mtt.id) == 0
    for user in players:
        assert coins(engine, user) == SIGNUP_GRANT
    assert postings(engine, mtt, "sng_register") == postings(engine, mtt, "sng_refund")
    assert len(postings(engine, mtt, "sng_refund")) == len(registered)
    assert check_ledger(engine) == []


def test_a_cancel_whose_refund_failed_is_finished_by_its_retry(engine: Engine) -> None:
    clock = ManualClock()
    service = service_on(engine, clock)
    host = add_person(engine, "host")
    players = [add_person(engine, f"f{n}") for n in range(4)]
    unlucky = players[2]
    real_refund = service.bank.refund
    failures = {"left": 1}

    def flaky_refund(sng_id: str, user_id: int, amount: int, key: str) -> bool:
        if user_id == unlucky and failures["left"]:
            failures["left"] -= 1
            raise OperationalError("UPDATE", {}, Exception("database is locked"))
        return real_refund(sng_id, user_id, amount, key)

    service.bank.refund = flaky_refund  # type: ignore[method-assign]

    async def scenario() -> None:
        mtt = service.create(host, "Instável", BUY_IN, 30)
        for n, user in enumerate(players):
            await service.register(mtt.id, user, f"F{n}", f"k{n}")
        with pytest.raises(TournamentStorage) as caught:
            await service.cancel(mtt.id, host)
        assert caught.value.code == "storage_busy"
        # cancelled all the same: the others refunded, the unlucky one still listed
        assert mtt.status is TournamentStatus.CANCELLED and mtt.entrants == [unlucky]
        assert service.bank.pool_balance(mtt.id) == BUY_IN
        assert coins(engine, unlucky) == SIGNUP_GRANT - BUY_IN
        await refused("cancelled", service.register(mtt.id, host, "H", "h"))
        assert check_ledger(engine) == []

        again = await service.cancel(mtt.id, host)  # the host's retry finishes it
        assert not again.applied and again.refunded == [unlucky]
        await refused("already_cancelled", service.cancel(mtt.id, host))
        assert service.bank.pool_balance(mtt.id) == 0
        for user in players:
            assert coins(engine, user) == SIGNUP_GRANT
        assert postings(engine, mtt, "sng_refund") == {user: 1 for user in players}
        assert check_ledger(engine) == []

    asyncio.run(asyncio.wait_for(scenario(), 60))
