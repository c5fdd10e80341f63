"""Engines for SQLite (the embedded default) and PostgreSQL, configured alike.

SQLite gets, per connection: foreign keys on, WAL, a busy timeout, and ``BEGIN IMMEDIATE``
for every transaction (SQLAlchemy's pysqlite recipe), so two writers never deadlock upgrading
a read lock to a write lock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

from ahiko.store.private_files import private_sqlite_file

SQLITE_FILE_NAME = "ahiko.sqlite3"
READ_ONLY_OPTION = "ahiko_read_only"
SQLITE_BUSY_TIMEOUT_MS = 30_000
#: PostgreSQL ends a session that holds a transaction open this long without a statement, and
#: so releases its locks. A cluster node paused mid-transaction (SIGSTOP, a frozen VM) would
#: otherwise hold its room's fence row (``check_fence``) for as long as it is paused, and the
#: node that took the room over could not claim it. Our transactions run their
#: statements back to back: none waits this long between two of them.
POSTGRES_IDLE_IN_TRANSACTION_MS = 5_000


def default_database_url(data_dir: Path) -> str:
    return f"sqlite:///{(Path(data_dir) / SQLITE_FILE_NAME).resolve()}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file is created 0600 (its folder 0700 if new)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(
            url,
            pool_pre_ping=True,
            pool_size=10,
            max_overflow=10,
            connect_args={
                "options": f"-c idle_in_transaction_session_timeout={POSTGRES_IDLE_IN_TRANSACTION_MS}"
            },
        )
    if parsed.database and parsed.database != ":memory:" and "mode=memory" not in url:
        private_sqlite_file(Path(parsed.database))
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        pool_size=10,
        max_overflow=10,
    )
    _configure_sqlite(engine)
    return engine


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # Readers (see ``reading``) take a plain BEGIN: under WAL they never block writers.
        read_only = connection.get_execution_options().get(READ_ONLY_OPTION, False)
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A connection for reads only: on SQLite its transaction does not take the write lock."""
    with engine.connect() as connection:
        yield connection.execution_options(**{READ_ONLY_OPTION: True})


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"
