from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine, func, select

from ahiko.store.accounts import insert_user
from ahiko.store.engine import make_engine
from ahiko.store.rooms import save_room
from ahiko.store.schema import ledger_accounts, ledger_entries, ledger_transactions, participations
from ahiko.wallet import Wallet
from ahiko.wallet.operations import open_wallet
from wall_clock import ManualClock


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def wallet(engine: Engine, clock: ManualClock) -> Wallet:
    return Wallet(engine, clock)


@pytest.fixture
def make_user(engine: Engine, clock: ManualClock) -> Callable[[str], int]:
    def make(name: str) -> int:
        with engine.begin() as conn:
            user_id = insert_user(conn, name, "not-a-real-hash", clock())
            open_wallet(conn, user_id, clock())
        return user_id

    return make


@pytest.fixture
def room(engine: Engine) -> str:
    save_room(engine, "iniciante-1", "ahiko", {"tier": "iniciante", "blinds": [1, 2]})
    save_room(engine, "iniciante-2", "ahiko", {"tier": "iniciante", "blinds": [1, 2]})
    return "iniciante-1"


@pytest.fixture
def snapshot(engine: Engine) -> Callable[[], tuple[object, ...]]:
    return lambda: ledger_snapshot(engine)


def ledger_snapshot(engine: Engine) -> tuple[object, ...]:
    """Everything an operation could change: compared before and after a refused one."""
    with engine.connect() as conn:
        balances = conn.execute(
            select(ledger_accounts.c.id, ledger_accounts.c.balance).order_by(ledger_accounts.c.id)
        ).all()
        counts = tuple(
            conn.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (ledger_transactions, ledger_entries, participations)
        )
        states = conn.execute(
            select(participations.c.id, participations.c.status, participations.c.reload_amount)
        ).all()
    return (tuple(balances), counts, tuple(states))
