"""Schema upgrades through Alembic, driven from code (``ahiko admin migrate``, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
DEFAULT_BOT_RESERVE = 100_000  # R-BA-01: the Bot Ahiko reserve the first migration creates


def alembic_config(engine: Engine | None = None, bot_reserve: int = DEFAULT_BOT_RESERVE) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["bot_reserve"] = bot_reserve
    if engine is not None:
        config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return config


def upgrade(engine: Engine, bot_reserve: int = DEFAULT_BOT_RESERVE) -> str | None:
    """Upgrades the database to the newest revision; returns that revision."""
    if bot_reserve < 0:
        raise ValueError(f"the bot reserve must not be negative, got {bot_reserve}")
    config = alembic_config(engine, bot_reserve)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    return current_revision(engine)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def schema_problem(engine: Engine) -> str | None:
    """Why a server must not start on this database (one line, naming the fix), or None
    when it is at the newest revision. ``ahiko serve`` refuses rather than migrating by
    itself: several servers starting at once never race to upgrade the schema."""
    try:
        current = current_revision(engine)
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)  # the driver's own words, without SQLAlchemy's
        reason = str(orig if orig is not None else exc).splitlines()[0]
        return f"cannot open the database ({reason}); check AHIKO_DATABASE_URL or --data-dir"
    head = head_revision()
    if current == head:
        return None
    state = "was never migrated" if current is None else f"is at revision {current}"
    return f"the database {state}, this version needs {head}: run `ahiko admin migrate` first"


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
