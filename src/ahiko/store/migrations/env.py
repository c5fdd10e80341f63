"""Alembic environment: run by ``ahiko.store.migrate``, which hands over a connection."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from ahiko.store.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as fresh:
        _run(fresh)
    engine.dispose()


run_migrations_online()
