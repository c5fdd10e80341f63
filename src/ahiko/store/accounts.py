"""Users, login sessions and login attempts: storage only (rules live in ahiko.server)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, text, update

from ahiko.store.engine import is_sqlite, reading
from ahiko.store.schema import login_attempts, sessions, users


@dataclass(frozen=True, slots=True)
class UserRecord:
    id: int
    username: str
    password_hash: str
    created_at: datetime


def username_key(username: str) -> str:
    """What makes a username unique: without regard to case or accents ("João" = "joao")."""
    plain = unicodedata.normalize("NFKD", username)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def insert_user(conn: Connection, username: str, password_hash: str, now: datetime) -> int:
    """Raises IntegrityError if the username is taken, whatever its case or accents."""
    statement = (
        insert(users)
        .values(
            username=username,
            username_key=username_key(username),
            password_hash=password_hash,
            created_at=now,
        )
        .returning(users.c.id)
    )
    return int(conn.execute(statement).scalar_one())


def _user(row: object) -> UserRecord:
    return UserRecord(row.id, row.username, row.password_hash, row.created_at)  # type: ignore[attr-defined]


def find_user_by_name(engine: Engine, username: str) -> UserRecord | None:
    query = select(users).where(users.c.username_key == username_key(username))
    with reading(engine) as conn:
        row = conn.execute(query).first()
    return None if row is None else _user(row)


def find_user(engine: Engine, user_id: int) -> UserRecord | None:
    with reading(engine) as conn:
        row = conn.execute(select(users).where(users.c.id == user_id)).first()
    return None if row is None else _user(row)


def insert_session(
    engine: Engine, token_hash: str, user_id: int, now: datetime, expires_at: datetime
) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(sessions).values(
                token_hash=token_hash, user_id=user_id, created_at=now, expires_at=expires_at
            )
        )


def session_user(engine: Engine, token_hash: str, now: datetime) -> UserRecord | None:
    """The user of a live session, or None if unknown or expired."""
    query = (
        select(users)
        .join(sessions, sessions.c.user_id == users.c.id)
        .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > now)
    )
    with reading(engine) as conn:
        row = conn.execute(query).first()
    return None if row is None else _user(row)


def delete_session(engine: Engine, token_hash: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))


def _failures(username: str, ip: str, since: datetime) -> tuple[Any, Any]:
    failed = login_attempts.c.succeeded.is_(False)
    recent = login_attempts.c.at >= since
    name_key = username_key(username)[:64]
    by_name = select(func.count()).where(failed, recent, login_attempts.c.username_key == name_key)
    by_ip = select(func.count()).where(failed, recent, login_attempts.c.ip == ip[:64])
    return by_name, by_ip


def _allowed(conn: Connection, by_name: Any, by_ip: Any, max_name: int, max_ip: int) -> bool:
    from_ip = int(conn.execute(by_ip).scalar_one())
    if from_ip >= max_ip:
        return False
    return not (from_ip > 0 and int(conn.execute(by_name).scalar_one()) >= max_name)


def login_allowed(
    engine: Engine, username: str, ip: str, since: datetime, max_per_username: int, max_per_ip: int
) -> bool:
    """A read-only look at the counts ``begin_login_attempt`` decides on (it may be stale by
    the attempts in flight: only a refusal is final)."""
    by_name, by_ip = _failures(username, ip, since)
    with reading(engine) as conn:
        return _allowed(conn, by_name, by_ip, max_per_username, max_per_ip)


def begin_login_attempt(
    engine: Engine,
    username: str,
    ip: str,
    now: datetime,
    since: datetime,
    max_per_username: int,
    max_per_ip: int,
) -> int | None:
    """Counts the recent failures and records this attempt as one, in one serialised
    transaction (SQLite's BEGIN IMMEDIATE; a self-exclusive table lock on PostgreSQL), so
    concurrent attempts see each other. None (nothing recorded) when refused: the address has
    ``max_per_ip`` failures, or the account has ``max_per_username`` and this address has
    been failing too. Returns the attempt's id, for ``mark_login_succeeded``."""
    by_name, by_ip = _failures(username, ip, since)
    with engine.begin() as conn:
        if not is_sqlite(engine):
            conn.execute(text("LOCK TABLE login_attempts IN SHARE ROW EXCLUSIVE MODE"))
        if not _allowed(conn, by_name, by_ip, max_per_username, max_per_ip):
            return None
        statement = (
            insert(login_attempts)
            .values(username_key=username_key(username)[:64], ip=ip[:64], succeeded=False, at=now)
            .returning(login_attempts.c.id)
        )
        return int(conn.execute(statement).scalar_one())


def mark_login_succeeded(engine: Engine, attempt_id: int) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(login_attempts).where(login_attempts.c.id == attempt_id).values(succeeded=True)
        )
