"""Sit & go's on a manual clock (issue 20): registration escrows the buy-in in the ledger, the
sit & go starts when full and the next queue opens at once, a withdrawal or a cancellation
refunds, the pool is paid by place with no fee, a player short of coins is refused with
nothing changed, and after 200 finished sit & go's (cancelled ones not counted) with random
registrations, withdrawals, cancellations, busts and leavers, interleaved, the ledger is clean,
the mint issued nothing and every coin is where a count done here says it must be."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select

from ahiko.competition.lifecycle import TournamentRefused, TournamentStatus
from ahiko.competition.sitgo import PAYOUTS, QUEUES, SitGo, SitGoLobby, SitGoSpec, prizes
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
        ("plo", 6),
    }
    people = [add_person(engine, f"p{n}") for n in range(8)]
    bank = SitGoBank(engine, clock)

    first = lobby.register("6max-100", people[0])
    assert (
        first.status is TournamentStatus.REGISTERING
        and coins(engine, people[0]) == SIGNUP_GRANT - 100
    )
    assert bank.pool_balance(first.id) == 100
    with pytest.raises(TournamentRefused) as twice:
        lobby.register("hu-free", people[0])
    assert twice.value.code == "already_registered"
    lobby.withdraw(first.id, people[0])  # refunded in full
    assert coins(engine, people[0]) == SIGNUP_GRANT and bank.pool_balance(first.id) == 0
    assert first.entrants == []
    lobby.register("6max-100", people[0])  # and may register again
    for p in people[1:6]:
        clock.advance(3)
        lobby.register("6max-100", p)
    assert first.status is TournamentStatus.RUNNING and started == [first]
    assert lobby.open["6max-100"] is not first and lobby.open["6max-100"].entrants == []
    assert bank.pool_balance(first.id) == 600
    with pytest.raises(TournamentRefused) as late:
        lobby.withdraw(first.id, people[1])
    assert late.value.code == "already_started"

    # A second one runs beside it.
    duel = lobby.register("hu-100", people[6])
    lobby.register("hu-100", people[7])
    assert duel.status is TournamentStatus.RUNNING and len(lobby.running()) == 2

    ranking = [people[3], people[0], people[5], people[1], people[2], people[4]]
    with pytest.raises(TournamentRefused):
        lobby.finish(first.id, ranking[:-1])  # every entrant must be ranked
    assert lobby.finish(first.id, ranking) == {people[3]: 390, people[0]: 210}
    assert coins(engine, people[3]) == SIGNUP_GRANT - 100 + 390
    assert coins(engine, people[4]) == SIGNUP_GRANT - 100
    assert bank.pool_balance(first.id) == 0 and first.status is TournamentStatus.FINISHED
    lobby.finish(duel.id, [people[7], people[6]])
    assert coins(engine, people[7]) == SIGNUP_GRANT + 100
    assert check_ledger(engine) == []

    # A cancelled sit & go refunds everyone; a free one moves no coin.
    waiting = lobby.register("9max-200", people[3])
    lobby.register("9max-200", people[4])
    lobby.cancel(waiting.id)
    assert waiting.status is TournamentStatus.CANCELLED and bank.pool_balance(waiting.id) == 0
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
    with pytest.raises(TournamentRefused) as unknown:
        lobby.register("nope", poor)
    assert unknown.value.code == "no_queue"
    assert check_ledger(engine) == []


@pytest.mark.slow
def test_R_TN_04_R_TN_05_the_ledger_is_clean_after_200_finished_sit_and_gos_with_leavers(
    engine: Engine,
) -> None:
    """Registrations, withdrawals before the start, cancellations (which do not count), and
    running sit & go's that lose one player at a time, busted or leaving, in random order and
    interleaved: a leaver is out at once (R-TN-05) and may sign up elsewhere while the one
    they left still runs. 200 of them finish; every coin is where a count done here says."""
    rng = random.Random(200)
    clock = ManualClock()
    lobby = SitGoLobby(SitGoBank(engine, clock), clock)
    people = [add_person(engine, f"j{n}") for n in range(40)]
    minted = _mint_balance(engine)
    expected = dict.fromkeys(people, SIGNUP_GRANT)  # counted here, move by move
    specs = {s.key: s for s in QUEUES}
    alive: dict[str, list[int]] = {}  # running sit & go -> its players still in
    out: dict[str, list[int]] = {}  # running sit & go -> its players out, in order
    finished = withdrawals = cancels = busts = leavers = 0
    gone_on: set[int] = set()  # leavers registered again while the one they left still ran
    while finished < 200:
        clock.advance(rng.randint(1, 90))
        roll = rng.random()
        sng = lobby.open[rng.choice(list(specs))]
        if alive and roll < 0.45:  # a running sit & go loses a player
            sng_id = rng.choice(sorted(alive))
            who = rng.choice(alive[sng_id])
            alive[sng_id].remove(who)
            out[sng_id].append(who)
            lobby.eliminate(sng_id, who)
            assert lobby.playing(who) is None  # free to go
            if rng.random() < 0.3:  # a leaver (R-TN-05), off to another queue at once
                leavers += 1
                other = lobby.open[rng.choice(list(specs))]
                if expected[who] >= other.spec.buy_in:
                    lobby.register(other.spec.key, who)
                    expected[who] -= other.spec.buy_in
                    gone_on.add(who)
                    _track_start(lobby, other, alive, out)
            else:
                busts += 1
            if len(alive[sng_id]) == 1:  # the last one standing: R-TN-04's ranking
                ranking = alive.pop(sng_id) + list(reversed(out.pop(sng_id)))
                ended = lobby.all[sng_id]
                for user, won in zip(ranking, prizes(ended.pool, ended.spec.seats), strict=False):
                    expected[user] += won
                assert lobby.finish(sng_id, ranking) == {
                    u: w
                    for u, w in zip(ranking, prizes(ended.pool, ended.spec.seats), strict=False)
                    if w
                }
                finished += 1
        elif 0.45 <= roll < 0.49 and sng.entrants:  # a registration withdrawn before the start
            who = rng.choice(sng.entrants)
            lobby.withdraw(sng.id, who)
            expected[who] += sng.spec.buy_in
            withdrawals += 1
        elif 0.49 <= roll < 0.51 and sng.entrants:  # the queue is cancelled: everyone refunded
            for who in sng.entrants:
                expected[who] += sng.spec.buy_in
            lobby.cancel(sng.id)
            cancels += 1
        else:
            free = [p for p in people if lobby.playing(p) is None]
            if not free:
                continue
            who = rng.choice(free)
            try:
                lobby.register(sng.spec.key, who)
            except InsufficientFunds:
                continue
            expected[who] -= sng.spec.buy_in
            _track_start(lobby, sng, alive, out)
        assert sum(expected.values()) + _held(lobby) == SIGNUP_GRANT * len(people)

    statuses = [s.status for s in lobby.all.values()]
    assert statuses.count(TournamentStatus.FINISHED) == finished == 200
    assert statuses.count(TournamentStatus.CANCELLED) == cancels > 3
    assert withdrawals > 20 and busts > 200 and leavers > 100 and len(gone_on) > 10
    assert check_ledger(engine) == []
    assert {p: coins(engine, p) for p in people} == expected
    with engine.connect() as conn:
        pools = conn.execute(
            select(func.count(), func.coalesce(func.sum(ledger_accounts.c.balance), 0)).where(
                ledger_accounts.c.kind == POOL_KIND, ledger_accounts.c.name.startswith(POOL_PREFIX)
            )
        ).one()
    assert pools[0] > 100
    assert pools[1] == _held(lobby)  # only the queues registering and those running hold coins
    # No coin created or lost: the mint issued nothing more, the rest is in wallets and pools.
    assert _mint_balance(engine) == minted
    assert sum(coins(engine, p) for p in people) + pools[1] == SIGNUP_GRANT * len(people)


def _track_start(
    lobby: SitGoLobby, sng: SitGo, alive: dict[str, list[int]], out: dict[str, list[int]]
) -> None:
    """Once ``sng`` filled and started, its players are followed until it ends."""
    if sng.status is TournamentStatus.RUNNING:
        assert lobby.open[sng.spec.key] is not sng  # the next one opened at once
        alive[sng.id] = list(sng.entrants)
        out[sng.id] = []


def _held(lobby: SitGoLobby) -> int:
    """The coins the pools hold: those of every sit & go registering or running."""
    return sum(
        s.pool
        for s in lobby.all.values()
        if s.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
    )


def _mint_balance(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(
            conn.execute(
                select(func.sum(ledger_accounts.c.balance)).where(ledger_accounts.c.kind == "mint")
            ).scalar_one()
        )
