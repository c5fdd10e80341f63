"""Participations (a person's or the Bot Ahiko's stay at an Ahiko table seat) and the room
and seat checks around them, on the caller's transaction."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import Connection, Row, insert, select, update

from ahiko.store.schema import participations, rooms
from ahiko.wallet.errors import (
    AlreadySeated,
    InvalidRequest,
    NotYourParticipation,
    ParticipationClosed,
    UnknownParticipation,
    UnknownRoom,
)


def require_open_room(conn: Connection, room_id: str) -> None:
    """Also locks the room row, so that concurrent buy-ins cannot take one seat twice."""
    query = select(rooms.c.status).where(rooms.c.id == room_id).with_for_update(key_share=True)
    status = conn.execute(query).scalar_one_or_none()
    if status is None:
        raise UnknownRoom("there is no such room")
    if status != "open":
        raise UnknownRoom("this room is closed")


def open_participation_in_room(
    conn: Connection, room_id: str, *, user_id: int | None = None, bot: bool = False
) -> int | None:
    query = select(participations.c.id).where(
        participations.c.room_id == room_id, participations.c.status == "open"
    )
    if bot:
        query = query.where(participations.c.player == "bot_ahiko")
    else:
        query = query.where(participations.c.user_id == user_id)
    found = conn.execute(query.limit(1)).scalar_one_or_none()
    return None if found is None else int(found)


def require_free_seat(conn: Connection, room_id: str, seat: int) -> None:
    query = select(participations.c.id).where(
        participations.c.room_id == room_id,
        participations.c.seat == seat,
        participations.c.status == "open",
    )
    if conn.execute(query.limit(1)).first() is not None:
        raise AlreadySeated("that seat is taken")


def open_participation(
    conn: Connection,
    now: datetime,
    room_id: str,
    seat: int,
    player: str,
    user_id: int | None,
    escrow_id: int,
    amount: int,
) -> int:
    statement = (
        insert(participations)
        .values(
            room_id=room_id,
            seat=seat,
            player=player,
            user_id=user_id,
            escrow_account_id=escrow_id,
            status="open",
            entry_amount=amount,
            reload_amount=0,
            reload_count=0,
            opened_at=now,
        )
        .returning(participations.c.id)
    )
    return int(conn.execute(statement).scalar_one())


def close_participation(
    conn: Connection, now: datetime, participation_id: int, amount: int
) -> None:
    conn.execute(
        update(participations)
        .where(participations.c.id == participation_id)
        .values(status="closed", exit_amount=amount, closed_at=now)
    )


def participation(
    conn: Connection,
    participation_id: int,
    user_id: int | None,
    *,
    allow_closed: bool = False,
) -> Row[tuple[object, ...]]:
    _require_number(participation_id)
    query = select(participations).where(participations.c.id == participation_id)
    return checked(conn.execute(query).first(), user_id, allow_closed=allow_closed)


def _require_number(participation_id: object) -> None:
    if isinstance(participation_id, bool) or not isinstance(participation_id, int):
        raise InvalidRequest("a participation is given by its number")


def checked(
    row: Row[tuple[object, ...]] | None, user_id: int | None, *, allow_closed: bool = False
) -> Row[tuple[object, ...]]:
    """``row`` (a participation's, None: unknown), or the refusal ``participation`` gives."""
    if row is None:
        raise UnknownParticipation("there is no such stay at a table")
    if user_id is not None and row.user_id != user_id:
        raise NotYourParticipation("this stay at a table is not yours")
    if row.status != "open" and not allow_closed:
        raise ParticipationClosed("this stay at a table is already closed")
    return row


def participations_of(
    conn: Connection, participation_ids: Collection[int]
) -> dict[int, Row[tuple[object, ...]] | None]:
    """The rows of ``participation_ids`` in one query (a settled hand names up to nine), in
    the order given, None for an unknown one; ``checked`` refuses as ``participation``."""
    for participation_id in participation_ids:
        _require_number(participation_id)
    query = select(participations).where(participations.c.id.in_(list(participation_ids)))
    found = {int(row.id): row for row in conn.execute(query)}
    return {participation_id: found.get(participation_id) for participation_id in participation_ids}


def recheck_all_open(conn: Connection, participation_ids: Collection[int]) -> None:
    """``recheck_open`` for several participations, in one query."""
    query = select(participations.c.id, participations.c.status).where(
        participations.c.id.in_(list(participation_ids))
    )
    status = {int(row.id): row.status for row in conn.execute(query)}
    if any(status.get(pid) != "open" for pid in participation_ids):
        raise ParticipationClosed("this stay at a table is already closed")


def recheck_open(conn: Connection, participation_id: int) -> None:
    """Once its escrow is locked nobody else can close a participation; a concurrent cash-out
    may have closed it before the lock, so look again."""
    query = select(participations.c.status).where(participations.c.id == participation_id)
    if conn.execute(query).scalar_one() != "open":
        raise ParticipationClosed("this stay at a table is already closed")
