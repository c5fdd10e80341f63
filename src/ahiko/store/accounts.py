"""Users and login sessions: storage only (rules live in ahiko.server)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, delete, insert, select

from ahiko.store.engine import reading
from ahiko.store.schema import sessions, users


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
