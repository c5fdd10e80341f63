"""``ahiko admin check-ledger``: every invariant of the ledger, as a list of violations."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, func, select

from ahiko.store.engine import reading
from ahiko.store.schema import (
    hands,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    participations,
    seats,
)


def check_ledger(engine: Engine) -> list[str]:
    """Human-readable violations; an empty list means the ledger is sound."""
    with reading(engine) as conn:
        if conn.dialect.name == "postgresql":
            # One snapshot for every query, so concurrent postings cannot look like violations.
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        return [
            *_transactions_balance(conn),
            *_balances_match_entries(conn),
            *_no_negative_balances(conn),
            *_everything_sums_to_zero(conn),
            *_escrows_match_participations(conn),
            *_seats_match_escrows(conn),
            *_one_open_participation_per_seat(conn),
        ]


def _transactions_balance(conn: Connection) -> list[str]:
    query = (
        select(
            ledger_transactions.c.id, ledger_transactions.c.kind, func.sum(ledger_entries.c.amount)
        )
        .join(ledger_entries, ledger_entries.c.transaction_id == ledger_transactions.c.id)
        .group_by(ledger_transactions.c.id, ledger_transactions.c.kind)
        .having(func.sum(ledger_entries.c.amount) != 0)
    )
    return [
        f"transaction {tx_id} ({kind}) entries sum to {total}, not 0"
        for tx_id, kind, total in conn.execute(query)
    ]


def _balances_match_entries(conn: Connection) -> list[str]:
    sums = (
        select(ledger_entries.c.account_id, func.sum(ledger_entries.c.amount).label("total"))
        .group_by(ledger_entries.c.account_id)
        .subquery()
    )
    query = (
        select(
            ledger_accounts.c.id, ledger_accounts.c.kind, ledger_accounts.c.balance, sums.c.total
        )
        .outerjoin(sums, sums.c.account_id == ledger_accounts.c.id)
        .where(ledger_accounts.c.balance != func.coalesce(sums.c.total, 0))
    )
    return [
        f"account {account_id} ({kind}) balance {balance} != sum of its entries {total or 0}"
        for account_id, kind, balance, total in conn.execute(query)
    ]


def _no_negative_balances(conn: Connection) -> list[str]:
    query = select(ledger_accounts.c.id, ledger_accounts.c.kind, ledger_accounts.c.balance).where(
        ledger_accounts.c.balance < 0, ledger_accounts.c.kind != "mint"
    )
    violations = [
        f"account {account_id} ({kind}) is negative: {balance}"
        for account_id, kind, balance in conn.execute(query)
    ]
    mints = conn.execute(select(func.count()).where(ledger_accounts.c.kind == "mint")).scalar_one()
    if mints != 1:
        violations.append(f"there are {mints} mint accounts, expected exactly 1")
    return violations


def _everything_sums_to_zero(conn: Connection) -> list[str]:
    total = conn.execute(select(func.coalesce(func.sum(ledger_accounts.c.balance), 0))).scalar_one()
    return (
        [] if total == 0 else [f"mint + every account = {total}, not 0: coins were created or lost"]
    )


def _escrows_match_participations(conn: Connection) -> list[str]:
    """Every escrow belongs to one participation; a closed participation's escrow is empty
    and paid out exactly its exit amount."""
    violations = []
    orphan = (
        select(ledger_accounts.c.id)
        .outerjoin(participations, participations.c.escrow_account_id == ledger_accounts.c.id)
        .where(ledger_accounts.c.kind == "escrow", participations.c.id.is_(None))
    )
    violations += [
        f"escrow account {account_id} has no participation"
        for (account_id,) in conn.execute(orphan)
    ]
    closed = (
        select(participations.c.id, ledger_accounts.c.balance)
        .join(ledger_accounts, ledger_accounts.c.id == participations.c.escrow_account_id)
        .where(participations.c.status == "closed", ledger_accounts.c.balance != 0)
    )
    violations += [
        f"closed participation {pid} still holds {balance} coins in escrow"
        for pid, balance in conn.execute(closed)
    ]
    return violations


def _seats_match_escrows(conn: Connection) -> list[str]:
    """Coins in seats equal the escrow balances of their open participations, checked for
    rooms at a hand boundary (within a hand chips move in memory and settle at its end)."""
    in_hand = select(hands.c.room_id).where(hands.c.status == "in_progress")
    query = (
        select(
            seats.c.room_id,
            seats.c.seat,
            seats.c.stack,
            participations.c.status,
            ledger_accounts.c.balance,
        )
        .join(participations, participations.c.id == seats.c.participation_id)
        .join(ledger_accounts, ledger_accounts.c.id == participations.c.escrow_account_id)
        .where(seats.c.room_id.not_in(in_hand))
    )
    violations = []
    for room_id, seat, stack, status, balance in conn.execute(query):
        if status != "open":
            violations.append(f"room {room_id} seat {seat} points to a closed participation")
        elif stack != balance:
            violations.append(
                f"room {room_id} seat {seat} has {stack} chips but its escrow holds {balance}"
            )
    return violations


def _one_open_participation_per_seat(conn: Connection) -> list[str]:
    query = (
        select(participations.c.room_id, participations.c.seat, func.count())
        .where(participations.c.status == "open")
        .group_by(participations.c.room_id, participations.c.seat)
        .having(func.count() > 1)
    )
    return [
        f"room {room_id} seat {seat} has {count} open participations"
        for room_id, seat, count in conn.execute(query)
    ]
