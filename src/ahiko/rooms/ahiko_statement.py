"""Read-only views of Ahiko participations: a person's stays at the tables (entry, reloads,
exit, net result; zero exits included, R-RM-15) and the Bot Ahiko reserve's own statement
(R-BA-02: every entry and return of the bot is recorded)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select

from ahiko.store.engine import reading
from ahiko.store.schema import ledger_accounts, ledger_entries, ledger_transactions, participations
from ahiko.wallet import ledger
from ahiko.wallet.ledger import as_utc


@dataclass(frozen=True, slots=True)
class Stay:
    """One participation: what went in, what came out."""

    participation_id: int
    room_id: str
    seat: int
    status: str
    entry: int
    reloads: int
    reload_count: int
    exit: int | None
    opened_at: datetime
    closed_at: datetime | None

    @property
    def net(self) -> int | None:
        return None if self.exit is None else self.exit - self.entry - self.reloads

    def as_dict(self) -> dict[str, Any]:
        return {
            "participation_id": self.participation_id,
            "room_id": self.room_id,
            "seat": self.seat,
            "status": self.status,
            "entry": self.entry,
            "reloads": self.reloads,
            "reload_count": self.reload_count,
            "exit": self.exit,
            "net": self.net,
            "opened_at": self.opened_at.isoformat(),
            "closed_at": None if self.closed_at is None else self.closed_at.isoformat(),
        }


def _stays(engine: Engine, where: Any) -> list[Stay]:
    query = select(participations).where(where).order_by(participations.c.id.desc())
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        Stay(
            participation_id=int(row.id),
            room_id=str(row.room_id),
            seat=int(row.seat),
            status=str(row.status),
            entry=int(row.entry_amount),
            reloads=int(row.reload_amount),
            reload_count=int(row.reload_count),
            exit=None if row.exit_amount is None else int(row.exit_amount),
            opened_at=as_utc(row.opened_at),
            closed_at=None if row.closed_at is None else as_utc(row.closed_at),
        )
        for row in rows
    ]


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
