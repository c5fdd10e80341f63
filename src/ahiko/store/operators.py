"""Operators and what they did: storage only (the console's rules are in
``ahiko.server.admin_console``). The audit log is written here and never changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update

from ahiko.store.engine import reading
from ahiko.store.schema import (
    account_suspensions,
    chat_messages,
    chat_report_resolutions,
    operator_audit,
    operators,
    reaction_times,
    sessions,
    table_addresses,
    users,
)

CONTEXT_LINES = 3  # chat lines shown before and after a reported one


@dataclass(frozen=True, slots=True)
class OperatorRecord:
    user_id: int
    code_hash: str | None  # the one-time code still to give (None: given)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: datetime
    operator_id: int
    operator_name: str
    action: str
    target: str
    reason: str
    detail: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "operator_id": self.operator_id,
            "operator": self.operator_name,
            "action": self.action,
            "target": self.target,
            "reason": self.reason,
            "detail": self.detail,
        }


def add_operator(engine: Engine, user_id: int, code_hash: str, now: datetime) -> None:
    """Make ``user_id`` an operator whose console asks ``code_hash``'s code once (again, for an
    operator already: a new code, the old one void)."""
    with engine.begin() as conn:
        found = conn.execute(select(operators.c.user_id).where(operators.c.user_id == user_id))
        if found.first() is None:
            conn.execute(
                insert(operators).values(user_id=user_id, added_at=now, code_hash=code_hash)
            )
        else:
            conn.execute(
                update(operators)
                .where(operators.c.user_id == user_id)
                .values(code_hash=code_hash, activated_at=None)
            )


def operator_of(engine: Engine, user_id: int) -> OperatorRecord | None:
    with reading(engine) as conn:
        row = conn.execute(select(operators).where(operators.c.user_id == user_id)).first()
    return None if row is None else OperatorRecord(row.user_id, row.code_hash)


def activate(engine: Engine, user_id: int, now: datetime) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(operators)
            .where(operators.c.user_id == user_id)
            .values(code_hash=None, activated_at=now)
        )


def append_audit(
    conn: Connection,
    at: datetime,
    operator: tuple[int, str],
    action: str,
    target: str,
    reason: str,
    detail: Any = None,
) -> int:
    """One line of the audit log, in the caller's transaction (with the action it records)."""
    operator_id, operator_name = operator
    inserted = conn.execute(
        insert(operator_audit).values(
            at=at,
            operator_id=operator_id,
            operator_name=operator_name,
            action=action,
            target=target[:128],
            reason=reason,
            detail=detail,
        )
    )
    return int(inserted.inserted_primary_key[0])  # type: ignore[index]


def audit_log(engine: Engine, limit: int = 200) -> list[AuditEntry]:
    query = select(operator_audit).order_by(operator_audit.c.id.desc()).limit(limit)
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        AuditEntry(
            r.id, r.at, r.operator_id, r.operator_name, r.action, r.target, r.reason, r.detail
        )
        for r in rows
    ]


def search_users(engine: Engine, text: str, limit: int = 20) -> list[dict[str, Any]]:
    """Accounts whose name contains ``text`` (without regard to case), or whose id it is."""
    key = text.strip().casefold()
    query = select(users.c.id, users.c.username, users.c.created_at).order_by(users.c.id)
    if key.isdigit():
        query = query.where(users.c.id == int(key))
    else:
        escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(users.c.username_key.like(f"%{escaped}%", escape="\\"))
    with reading(engine) as conn:
        rows = conn.execute(query.limit(limit)).all()
    return [
        {"id": r.id, "username": r.username, "created_at": r.created_at.isoformat()} for r in rows
    ]


def suspension_of(engine: Engine, user_id: int) -> dict[str, Any] | None:
    with reading(engine) as conn:
        row = conn.execute(
            select(account_suspensions).where(account_suspensions.c.user_id == user_id)
        ).first()
    if row is None:
        return None
    return {"reason": row.reason, "operator_id": row.operator_id, "at": row.at.isoformat()}


def suspend(conn: Connection, user_id: int, reason: str, operator_id: int, now: datetime) -> bool:
    """Suspend ``user_id`` and end its sessions; False when it already was."""
    found = conn.execute(
        select(account_suspensions.c.user_id).where(account_suspensions.c.user_id == user_id)
    ).first()
    if found is not None:
        return False
    conn.execute(
        insert(account_suspensions).values(
            user_id=user_id, reason=reason, operator_id=operator_id, at=now
        )
    )
    conn.execute(delete(sessions).where(sessions.c.user_id == user_id))
    return True


def lift(conn: Connection, user_id: int) -> bool:
    gone = conn.execute(delete(account_suspensions).where(account_suspensions.c.user_id == user_id))
    return bool(gone.rowcount)


def resolve_report(
    conn: Connection, report_id: int, operator_id: int, action: str, note: str, now: datetime
) -> bool:
    """Record how a report was resolved; False when it already was."""
    found = conn.execute(
        select(chat_report_resolutions.c.report_id).where(
            chat_report_resolutions.c.report_id == report_id
        )
    ).first()
    if found is not None:
        return False
    conn.execute(
        insert(chat_report_resolutions).values(
            report_id=report_id, operator_id=operator_id, action=action, note=note, at=now
        )
    )
    return True


def resolutions(engine: Engine, report_ids: list[int]) -> dict[int, dict[str, Any]]:
    query = select(chat_report_resolutions).where(
        chat_report_resolutions.c.report_id.in_(report_ids)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return {r.report_id: {"action": r.action, "note": r.note, "at": r.at.isoformat()} for r in rows}


def lines_around(engine: Engine, room_id: str, msg_no: int) -> list[dict[str, Any]]:
    """The chat of ``room_id`` around message ``msg_no``: ``CONTEXT_LINES`` either side."""
    query = (
        select(chat_messages)
        .where(
            chat_messages.c.room_id == room_id,
            chat_messages.c.msg_no >= msg_no - CONTEXT_LINES,
            chat_messages.c.msg_no <= msg_no + CONTEXT_LINES,
        )
        .order_by(chat_messages.c.msg_no)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        {"no": r.msg_no, "player_id": r.player_id, "name": r.name, "text": r.text} for r in rows
    ]


def remember_address(
    engine: Engine, room_id: str, user_id: int, address_hash: str, now: datetime
) -> None:
    """That ``user_id`` sat at ``room_id`` from the address of ``address_hash`` (once)."""
    key = (
        table_addresses.c.room_id == room_id,
        table_addresses.c.user_id == user_id,
        table_addresses.c.address_hash == address_hash,
    )
    with engine.begin() as conn:
        if conn.execute(select(table_addresses.c.room_id).where(*key)).first() is None:
            conn.execute(
                insert(table_addresses).values(
                    room_id=room_id, user_id=user_id, address_hash=address_hash, seen_at=now
                )
            )


def add_reactions(
    engine: Engine, user_id: int, actions: int, fast: int, total_ms: int, now: datetime
) -> None:
    """Adds a batch of an account's action timings to its running totals."""
    with engine.begin() as conn:
        found = conn.execute(
            update(reaction_times)
            .where(reaction_times.c.user_id == user_id)
            .values(
                actions=reaction_times.c.actions + actions,
                fast=reaction_times.c.fast + fast,
                total_ms=reaction_times.c.total_ms + total_ms,
                updated_at=now,
            )
        )
        if not found.rowcount:
            conn.execute(
                insert(reaction_times).values(
                    user_id=user_id, actions=actions, fast=fast, total_ms=total_ms, updated_at=now
                )
            )
