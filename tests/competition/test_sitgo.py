"""Sit & go's on a manual clock (issue 20): registration escrows the buy-in in the ledger, the
sit & go starts when full and the next queue opens at once, a withdrawal or a cancellation
refunds, the pool is paid by place with no fee, a player short of coins is refused with
nothing changed, and after 200 sit & go's with random registrations, withdrawals,
cancellations, busts and leavers the ledger is clean and every coin is where a count done
here says it must be."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from ahiko.competition.sitgo import (
    PAYOUTS,
    QUEUES,
    SitGo,
    SitGoLobby,
    SitGoRefused,
    SitGoSpec,
    Status,
    prizes,
)
from ahiko.store.schema import ledger_accounts
from ahiko.wallet.check import check_ledger
from ahiko.wallet.errors import InsufficientFunds
from ahiko.wallet.operations import Wallet
from ahiko.wallet.policy import SIGNUP_GRANT
from ahiko.wallet.sitgo import POOL_KIND, POOL_PREFIX, SitGoBank
from archive_factory import START, add_person


class ManualClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def coins(engine: Engine, user_id: int) -> int:
    return Wallet(engine).holdings(user_id).wallet


def test_payout_tables_pay_the_whole_pool_with_no_fee() -> None:
    for seats, shares in PAYOUTS.items():
        assert sum(shares) == 100
        for pool in (0, 1, 7, 200, 900, 1801):
            split = prizes(pool, seats)
            assert sum(split) == pool and split == sorted(split, reverse=True)
    assert prizes(600, 6) == [390, 210] and prizes(1800, 9) == [900, 540, 360]
    with pytest.raises(ValueError, match="seats"):
        SitGoSpec("x", "x", "holdem", 7)


def test_registration_start_when_full_withdrawal_refund_and_payouts(engine: Engine) -> None:
    clock = ManualClock()
    started: list[SitGo] = []
    lobby = SitGoLobby(SitGoBank(engine, clock), clock, on_start=started.append)
    assert {q.spec.key for q in lobby.queues()} == {s.key for s in QUEUES}
    assert {(q.spec.variant, q.spec.seats) for q in lobby.queues()} == {
        ("holdem", 2),
        ("holdem", 6),
        ("holdem", 9),
        ("draw", 6),
    }
    people = [add_person(engine, f"p{n}") for n in range(8)]
    bank = SitGoBank(engine, clock)

    first = lobby.register("6max-100", people[0])
    assert first.status is Status.REGISTERING and coins(engine, people[0]) == SIGNUP_GRANT - 100
    assert bank.pool_balance(first.id) == 100
    with pytest.raises(SitGoRefused) as twice:
        lobby.register("hu-free", people[0])
    assert twice.value.code == "already_registered"
    lobby.withdraw(first.id, people[0])  # refunded in full
    assert coins(engine, people[0]) == SIGNUP_GRANT and bank.pool_balance(first.id) == 0
    assert first.entrants == []
    lobby.register("6max-100", people[0])  # and may register again
    for p in people[1:6]:
        clock.advance(3)
        lobby.register("6max-100", p)
    assert first.status is Status.RUNNING and started == [first]
    assert lobby.open["6max-100"] is not first and lobby.open["6max-100"].entrants == []
    assert bank.pool_balance(first.id) == 600
    with pytest.raises(SitGoRefused) as late:
        lobby.withdraw(first.id, people[1])
    assert late.value.code == "already_started"

    # A second one runs beside it.
    duel = lobby.register("hu-100", people[6])
    lobby.register("hu-100", people[7])
    assert duel.status is Status.RUNNING and len(lobby.running()) == 2

    ranking = [people[3], people[0], people[5], people[1], people[2], people[4]]
    with pytest.raises(SitGoRefused):
        lobby.finish(first.id, ranking[:-1])  # every entrant must be ranked
    assert lobby.finish(first.id, ranking) == {people[3]: 390, people[0]: 210}
    assert coins(engine, people[3]) == SIGNUP_GRANT - 100 + 390
    assert coins(engine, people[4]) == SIGNUP_GRANT - 100
    assert bank.pool_balance(first.id) == 0 and first.status is Status.FINISHED
    lobby.finish(duel.id, [people[7], people[6]])
    assert coins(engine, people[7]) == SIGNUP_GRANT + 100
    assert check_ledger(engine) == []

    # A cancelled sit & go refunds everyone; a free one moves no coin.
    waiting = lobby.register("9max-200", people[3])
    lobby.register("9max-200", people[4])
    lobby.cancel(waiting.id)
    assert waiting.status is Status.CANCELLED and bank.pool_balance(waiting.id) == 0
    assert coins(engine, people[4]) == SIGNUP_GRANT - 100
    assert lobby.open["9max-200"] is not waiting
    free = lobby.register("hu-free", people[0])
    lobby.register("hu-free", people[1])
    before = coins(engine, people[0])
    lobby.finish(free.id, [people[1], people[0]])
    assert coins(engine, people[0]) == before and check_ledger(engine) == []


def test_a_player_short_of_coins_is_refused_and_nothing_changes(engine: Engine) -> None:
    clock = ManualClock()
    lobby = SitGoLobby(SitGoBank(engine, clock), clock)
    poor = add_person(engine, "pobre")
    spec = SitGoSpec("big", "Big", "holdem", 2, SIGNUP_GRANT + 1)
    lobby = SitGoLobby(SitGoBank(engine, clock), clock, specs=[spec])
    with pytest.raises(InsufficientFunds):
        lobby.register("big", poor)
    assert lobby.open["big"].entrants == [] and coins(engine, poor) == SIGNUP_GRANT
    with pytest.raises(SitGoRefused) as unknown:
        lobby.register("nope", poor)
    assert unknown.value.code == "no_queue"
    assert check_ledger(engine) == []


@pytest.mark.slow
def test_the_ledger_is_clean_after_200_sit_and_gos_with_busts_and_leavers(engine: Engine) -> None:
    rng = random.Random(200)
    clock = ManualClock()
    lobby = SitGoLobby(SitGoBank(engine, clock), clock)
    people = [add_person(engine, f"j{n}") for n in range(40)]
    expected = dict.fromkeys(people, SIGNUP_GRANT)  # counted here, move by move
    specs = {s.key: s for s in QUEUES}
    ended = refusals = withdrawals = cancels = 0
    while ended < 200:
        clock.advance(rng.randint(1, 90))
        queue = rng.choice(list(specs))
        free = [p for p in people if lobby.playing(p) is None]
        sng = lobby.open[queue]
        roll = rng.random()
        if roll < 0.1 and sng.entrants:  # a withdrawal
            who = rng.choice(sng.entrants)
            lobby.withdraw(sng.id, who)
            expected[who] += sng.spec.buy_in
            withdrawals += 1
        elif roll < 0.13 and sng.entrants:  # the queue is cancelled
            for who in sng.entrants:
                expected[who] += sng.spec.buy_in
            lobby.cancel(sng.id)
            cancels += 1
            ended += 1
        elif free:
            who = rng.choice(free)
            try:
                started = lobby.register(queue, who)
            except InsufficientFunds:
                refusals += 1
                continue
            expected[who] -= specs[queue].buy_in
            if started.status is Status.RUNNING:
                order = list(started.entrants)
                rng.shuffle(order)  # busts and leavers, in the order they go out
                for out in order[:-1]:
                    clock.advance(rng.randint(10, 600))
                    lobby.eliminate(started.id, out)
                ranking = list(reversed(order))  # R-TN-04: reverse order of elimination
                for user, won in zip(
                    ranking, prizes(started.pool, started.spec.seats), strict=False
                ):
                    expected[user] += won
                lobby.finish(started.id, ranking)
                ended += 1
    assert check_ledger(engine) == []
    assert {p: coins(engine, p) for p in people} == expected
    with engine.connect() as conn:
        pools = conn.execute(
            select(func.count(), func.coalesce(func.sum(ledger_accounts.c.balance), 0)).where(
                ledger_accounts.c.kind == POOL_KIND, ledger_accounts.c.name.startswith(POOL_PREFIX)
            )
        ).one()
    open_pools = sum(lobby.open[k].pool for k in specs)
    assert pools[1] == open_pools  # only the queues still registering hold coins
    assert pools[0] > 50 and withdrawals > 5 and cancels > 3
    assert sum(expected.values()) + open_pools == SIGNUP_GRANT * len(people)
    assert sum(1 for s in lobby.all.values() if s.status is Status.FINISHED) > 100
    assert refusals >= 0
