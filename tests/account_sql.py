"""Watching the SQL a log-in issues: a throttled log-in must decide in memory, before any
account table is read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, event

# The tables a log-in reads or writes. The lobby keeper opens the Ahiko rooms in the
# background while a test runs (rooms, seats, the bot's escrow), so a statement about those
# is not the log-in's and is not counted.
ACCOUNT_TABLES = re.compile(r"\b(users|sessions|login_attempts)\b")


@contextmanager
def account_statements(*engines: Engine) -> Iterator[list[str]]:
    """Every SQL statement about an account table the engines execute inside the block, on
    any thread."""
    seen: list[str] = []

    def record(conn: object, cursor: object, statement: str, *args: object) -> None:
        if ACCOUNT_TABLES.search(statement):
            seen.append(statement)

    for engine in engines:
        event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", record)
