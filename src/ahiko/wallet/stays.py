"""Read-only views of Ahiko participations: a person's stays at the tables (entry, reloads,
exit, net result; zero exits included, R-RM-15) and the Bot Ahiko reserve's own statement
(R-BA-02: every entry and return of the bot is recorded)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select

from ahiko.store.engine import reading
from ahiko.store.schema import (
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    participations,
    rooms,
)
from ahiko.wallet import ledger
from ahiko.wallet.ledger import as_utc
from ahiko.wallet.statement import (
    PARTICIPATION_COLUMNS,
    ROOM_OF_PARTICIPATION,
    ParticipationSummary,
    participation_summary,
)

# A stay at a table is a participation, summarised as in the wallet's statement.
Stay = ParticipationSummary


def _stays(engine: Engine, where: Any) -> list[Stay]:
    query = (
        select(participations.c.id, *PARTICIPATION_COLUMNS)
        .select_from(participations)
        .outerjoin(rooms, ROOM_OF_PARTICIPATION)
        .where(where)
        .order_by(participations.c.id.desc())
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [participation_summary(row, int(row.id)) for row in rows]


def stays_of(engine: Engine, user_id: int) -> list[Stay]:
    """A person's participations, newest first."""
    return _stays(engine, participations.c.user_id == user_id)


def bot_stays(engine: Engine) -> list[Stay]:
    """The Bot Ahiko's participations, newest first."""
    return _stays(engine, participations.c.player == "bot_ahiko")


@dataclass(frozen=True, slots=True)
class ReserveLine:
    transaction_id: int
    kind: str  # reserve_add, bot_fund, bot_return
    amount: int  # signed, as the reserve sees it
    participation_id: int | None
    reason: str | None
    created_at: datetime


def reserve_statement(engine: Engine) -> tuple[int, list[ReserveLine]]:
    """The reserve's balance and every movement of it, oldest first."""
    with reading(engine) as conn:
        reserve_id = ledger.system_account(conn, ledger.BOT_RESERVE)
        rows = conn.execute(
            select(
                ledger_transactions.c.id,
                ledger_transactions.c.kind,
                ledger_entries.c.amount,
                ledger_transactions.c.participation_id,
                ledger_transactions.c.reason,
                ledger_transactions.c.created_at,
            )
            .join(ledger_entries, ledger_entries.c.transaction_id == ledger_transactions.c.id)
            .where(ledger_entries.c.account_id == reserve_id)
            .order_by(ledger_transactions.c.id)
        ).all()
        balance = conn.execute(
            select(ledger_accounts.c.balance).where(ledger_accounts.c.id == reserve_id)
        ).scalar_one()
    lines = [
        ReserveLine(
            int(row.id),
            str(row.kind),
            int(row.amount),
            None if row.participation_id is None else int(row.participation_id),
            row.reason,
            as_utc(row.created_at),
        )
        for row in rows
    ]
    return int(balance), lines
