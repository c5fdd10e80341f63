"""Double-entry postings on an open database transaction.

A posting is a transaction row (unique idempotency key, request fingerprint) plus entries
summing to zero; each entry updates its account's balance in the same database transaction,
guarded so no account except the mint goes below zero, in account-id order so that concurrent
writers lock rows in one order and cannot deadlock."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, Row, bindparam, func, insert, or_, select, update

from ahiko.store.schema import ledger_accounts, ledger_entries, ledger_transactions
from ahiko.wallet.errors import (
    InsufficientFunds,
    InvalidAmount,
    LedgerInvariantBroken,
    UnknownUser,
)
from ahiko.wallet.posting_kinds import PostingKind

Clock = Callable[[], datetime]
_KNOWN_KINDS = frozenset(PostingKind)
MINT = "mint"
BOT_RESERVE = "bot_reserve"


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands datetimes back without a zone; everything stored is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def require_chips(amount: object, what: str, *, allow_zero: bool = False) -> int:
    """``amount`` as a whole number of coins, or InvalidAmount naming the problem."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(f"{what} must be a whole number of coins, got {amount!r}")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise InvalidAmount(f"{what} must be positive, got {amount}")
    return amount


def request_hash(kind: str, request: Mapping[str, object]) -> str:
    canonical = json.dumps({"kind": kind, **request}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def find_transaction(conn: Connection, key: str) -> Row[tuple[object, ...]] | None:
    query = select(ledger_transactions).where(ledger_transactions.c.idempotency_key == key)
    return conn.execute(query).first()


def system_account(conn: Connection, name: str) -> int:
    query = select(ledger_accounts.c.id).where(ledger_accounts.c.name == name)
    account_id = conn.execute(query).scalar_one_or_none()
    if account_id is None:
        raise LedgerInvariantBroken(f"the {name} account is missing: run `ahiko admin migrate`")
    return int(account_id)


def wallet_account(conn: Connection, user_id: int) -> int:
    query = select(ledger_accounts.c.id).where(
        ledger_accounts.c.kind == "wallet", ledger_accounts.c.user_id == user_id
    )
    account_id = conn.execute(query).scalar_one_or_none()
    if account_id is None:
        raise UnknownUser("this account has no wallet")
    return int(account_id)


def create_account(conn: Connection, kind: str, now: datetime, user_id: int | None = None) -> int:
    statement = (
        insert(ledger_accounts)
        .values(kind=kind, user_id=user_id, balance=0, created_at=now)
        .returning(ledger_accounts.c.id)
    )
    return int(conn.execute(statement).scalar_one())


def lock_accounts(conn: Connection, account_ids: Iterable[int]) -> dict[int, int]:
    """Locks the accounts in id order (PostgreSQL; SQLite's BEGIN IMMEDIATE already holds the
    database) and returns their balances."""
    ordered = sorted(set(account_ids))
    query = (
        select(ledger_accounts.c.id, ledger_accounts.c.balance)
        .where(ledger_accounts.c.id.in_(ordered))
        .order_by(ledger_accounts.c.id)
        .with_for_update(key_share=True)
    )
    return {int(row.id): int(row.balance) for row in conn.execute(query)}


@dataclass(frozen=True, slots=True)
class PostingRequest:
    key: str
    kind: str
    request_hash: str
    amount: int
    user_id: int | None = None
    participation_id: int | None = None
    reason: str | None = None


#: One account's balance moved by ``amount``, unless it would go below zero (the mint's may):
#: built once (a hand's settlement runs it for every seat that won or lost).
_GUARDED_MOVE = (
    update(ledger_accounts)
    .where(
        ledger_accounts.c.id == bindparam("account"),
        or_(
            ledger_accounts.c.balance + bindparam("amount") >= 0,
            ledger_accounts.c.kind == "mint",
        ),
    )
    .values(balance=ledger_accounts.c.balance + bindparam("amount"))
)


def post(
    conn: Connection,
    request: PostingRequest,
    movements: Sequence[tuple[int, int]],
    now: datetime,
) -> int:
    """Writes one transaction moving coins between accounts; returns its id.

    ``movements`` are (account id, signed amount) and must sum to zero. Raises
    InsufficientFunds if an account other than the mint would go below zero; the caller's
    database transaction is then rolled back, so nothing is written."""
    if request.kind not in _KNOWN_KINDS:  # the statement must know how to show it
        raise LedgerInvariantBroken(f"{request.kind!r} is not a posting kind (PostingKind)")
    if sum(amount for _, amount in movements) != 0:
        raise LedgerInvariantBroken(f"entries of {request.kind} do not sum to zero: {movements}")
    merged: dict[int, int] = {}
    for account_id, amount in movements:
        merged[account_id] = merged.get(account_id, 0) + amount
    transaction_id = int(
        conn.execute(
            insert(ledger_transactions)
            .values(
                idempotency_key=request.key,
                kind=request.kind,
                request_hash=request.request_hash,
                user_id=request.user_id,
                participation_id=request.participation_id,
                amount=request.amount,
                reason=request.reason,
                created_at=now,
            )
            .returning(ledger_transactions.c.id)
        ).scalar_one()
    )
    entries = []
    for account_id in sorted(merged):
        amount = merged[account_id]
        if amount == 0:
            continue
        if conn.execute(_GUARDED_MOVE, {"account": account_id, "amount": amount}).rowcount != 1:
            raise InsufficientFunds(f"not enough coins to pay {-amount} for {request.kind}")
        entries.append(
            {"transaction_id": transaction_id, "account_id": account_id, "amount": amount}
        )
    if entries:  # one statement for all of them (a settled hand has up to nine)
        conn.execute(insert(ledger_entries), entries)
    return transaction_id


def balance(conn: Connection, account_id: int) -> int:
    query = select(ledger_accounts.c.balance).where(ledger_accounts.c.id == account_id)
    return int(conn.execute(query).scalar_one())


def entries_sum(conn: Connection, account_id: int) -> int:
    query = select(func.coalesce(func.sum(ledger_entries.c.amount), 0)).where(
        ledger_entries.c.account_id == account_id
    )
    return int(conn.execute(query).scalar_one())
