"""Migrations on SQLite and PostgreSQL: schema, named constraints, the initial reserve."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect

from ahiko.store.engine import make_engine
from ahiko.store.migrate import current_revision, head_revision, upgrade
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import Wallet

TABLES = {
    "users",
    "sessions",
    "login_attempts",
    "ledger_accounts",
    "ledger_transactions",
    "ledger_entries",
    "participations",
    "rooms",
    "seats",
    "hands",
}


def test_migrated_database_has_every_table_at_head(engine):
    assert set(inspect(engine).get_table_names()) >= TABLES
    assert current_revision(engine) == head_revision()


def test_upgrade_twice_changes_nothing(engine):
    upgrade(engine)
    upgrade(engine)
    assert Wallet(engine).reserve_balance() == 100_000
    assert check_ledger(engine) == []


def test_constraints_are_named(engine):
    inspector = inspect(engine)
    unique = inspector.get_unique_constraints("ledger_transactions")
    assert {"uq_ledger_transactions_idempotency_key"} <= {c["name"] for c in unique}
    foreign = inspector.get_foreign_keys("ledger_entries")
    assert all(fk["name"] and fk["name"].startswith("fk_ledger_entries_") for fk in foreign)


def test_chip_columns_are_bigint(engine):
    columns = {c["name"]: c["type"] for c in inspect(engine).get_columns("ledger_accounts")}
    assert "BIGINT" in str(columns["balance"]).upper()


def test_R_BA_01_reserve_size_is_configurable(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    upgrade(engine, bot_reserve=2_500)
    assert Wallet(engine).reserve_balance() == 2_500
    assert check_ledger(engine) == []
    engine.dispose()


@pytest.mark.postgres
def test_migrates_a_fresh_postgres_database(postgres_cluster):
    url = postgres_cluster.create_database("fresh_migration")
    engine = make_engine(url)
    assert upgrade(engine) == head_revision()
    assert check_ledger(engine) == []
    engine.dispose()


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5_000
    engine.dispose()
