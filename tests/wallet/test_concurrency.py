"""Eight concurrent clients on one database (SQLite and PostgreSQL): random buy-ins, reloads,
cash-outs, claims and hand settlements, 5% of calls retried with the same key. No overdraft,
no double apply, check-ledger clean."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from sqlalchemy import func, select

from ahiko.store.schema import ledger_transactions, participations
from ahiko.wallet.check import check_ledger
from ahiko.wallet.errors import WalletError

CLIENTS = 8
OPS_PER_CLIENT = 30
RETRY_RATE = 0.05
ROOMS = ("iniciante-1", "iniciante-2")


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    applied: dict[str, int] = field(default_factory=dict)  # key -> transaction id
    retries: int = 0
    refused: int = 0
    unexpected: list[BaseException] = field(default_factory=list)


def _client(index, wallet, engine, users, tally, barrier):
    rng = random.Random(index)
    user = users[index % len(users)]  # two clients share each wallet: real contention
    calls = []  # (function, args) already made, for retries
    barrier.wait()
    for n in range(OPS_PER_CLIENT):
        if calls and rng.random() < RETRY_RATE:
            call, args, key = rng.choice(calls)
            retried = True
        else:
            call, args, key = _random_call(rng, wallet, engine, user, f"c{index}-{n}")
            retried = False
        try:
            receipt = call(*args)
        except WalletError:
            with tally.lock:
                tally.refused += 1
            continue
        except BaseException as error:  # anything else is a bug
            with tally.lock:
                tally.unexpected.append(error)
            continue
        calls.append((call, args, key))
        with tally.lock:
            if retried or not receipt.applied:
                tally.retries += 1
                assert not receipt.applied
                assert tally.applied[key] == receipt.transaction_id
            else:
                assert key not in tally.applied
                tally.applied[key] = receipt.transaction_id


def _random_call(rng, wallet, engine, user, key):
    open_ids = _open_participations(engine)
    # Mostly one's own seats; sometimes another's (refused: not yours).
    mine = [pid for pid, _, owner in open_ids if owner == user or rng.random() < 0.1]
    choice = rng.random()
    if choice < 0.30 or not mine:
        amount = rng.choice([100, 500, 1_500, 3_000])
        return wallet.buy_in, (user, rng.choice(ROOMS), rng.randrange(9), amount, key), key
    if choice < 0.45:
        return wallet.reload, (user, rng.choice(mine), rng.choice([50, 800]), key), key
    if choice < 0.65:
        return wallet.cash_out, (rng.choice(mine), key, user), key
    if choice < 0.75:
        return wallet.claim, (user, key), key
    room = rng.choice(ROOMS)
    here = [pid for pid, room_id, _ in open_ids if room_id == room]
    if len(here) < 2:
        return wallet.claim, (user, key), key
    winner, loser = rng.sample(here, 2)
    delta = rng.choice([10, 100, 2_000])
    return wallet.settle_hand, (room, [(winner, delta), (loser, -delta)], key), key


def _open_participations(engine):
    with engine.connect() as conn:
        return conn.execute(
            select(participations.c.id, participations.c.room_id, participations.c.user_id).where(
                participations.c.status == "open"
            )
        ).all()


def test_eight_concurrent_clients_keep_the_ledger_sound(engine, wallet, make_user, room):
    users = [make_user(f"player{i}") for i in range(CLIENTS // 2)]
    with engine.connect() as conn:
        before = conn.execute(select(func.count()).select_from(ledger_transactions)).scalar_one()
    tally = Tally()
    barrier = threading.Barrier(CLIENTS)
    threads = [
        threading.Thread(target=_client, args=(i, wallet, engine, users, tally, barrier))
        for i in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert tally.unexpected == []
    assert check_ledger(engine) == []
    with engine.connect() as conn:
        after = conn.execute(select(func.count()).select_from(ledger_transactions)).scalar_one()
    # Every applied call wrote exactly one transaction; retries wrote nothing.
    assert after - before == len(tally.applied)
    assert len(tally.applied) > CLIENTS * OPS_PER_CLIENT // 4
    assert tally.refused > 0  # overdrafts and seat clashes were tried and refused
    assert tally.retries > 0
