"""Reads of the hand archive for competition: the rows profiles, leaderboards and
tournament results are computed from.

``hands_played_by`` gives whole hands (events opened from their seal) of one user, oldest
first; ``archive_seats`` gives one line per seat of every hand, without the events (the cheap
read leaderboards and tournament places need); ``claims_by_user`` the free-coin claims of a
period. Storage only: the figures are computed in ``ahiko.competition``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, select

from ahiko.store.engine import reading
from ahiko.store.hand_archive import ArchivedHand, archived_hand_from, as_utc
from ahiko.store.schema import archived_hand_players, archived_hands, ledger_transactions, users

BATCH = 200


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of one archived hand, without the hand's events."""

    hand_id: int
    room_id: str
    room_kind: str
    room_name: str
    variant: str
    hand_no: int
    seat: int
    player_id: str
    user_id: int | None
    name: str
    occupant: str
    start_stack: int
    net: int
    ended_at: datetime


def hands_played_by(engine: Engine, user_id: int) -> Iterator[ArchivedHand]:
    """Every archived hand ``user_id`` was dealt into, oldest first, read in batches."""
    last = 0
    while True:
        with reading(engine) as conn:
            ids = [
                int(row.hand_id)
                for row in conn.execute(
                    select(archived_hand_players.c.hand_id)
                    .where(
                        archived_hand_players.c.user_id == user_id,
                        archived_hand_players.c.hand_id > last,
                    )
                    .order_by(archived_hand_players.c.hand_id)
                    .limit(BATCH)
                )
            ]
            if not ids:
                return
            rows = conn.execute(
                select(archived_hands)
                .where(archived_hands.c.id.in_(ids))
                .order_by(archived_hands.c.id)
            ).all()
            hands = _with_players(engine, conn, rows)
        yield from hands
        last = ids[-1]


def every_archived_hand(engine: Engine) -> Iterator[ArchivedHand]:
    """Every archived hand, oldest first, read in batches (events opened from their seal)."""
    last = 0
    while True:
        with reading(engine) as conn:
            rows = conn.execute(
                select(archived_hands)
                .where(archived_hands.c.id > last)
                .order_by(archived_hands.c.id)
                .limit(BATCH)
            ).all()
            if not rows:
                return
            hands = _with_players(engine, conn, rows)
        yield from hands
        last = int(rows[-1].id)


def _with_players(engine: Engine, conn: Connection, rows: Sequence[Any]) -> list[ArchivedHand]:
    """The archived hands of ``rows`` with their players (their deal records not opened)."""
    seats = conn.execute(
        select(archived_hand_players)
        .where(archived_hand_players.c.hand_id.in_([int(row.id) for row in rows]))
        .order_by(archived_hand_players.c.hand_id, archived_hand_players.c.seat)
    ).all()
    by_hand: dict[int, list[Any]] = {}
    for p in seats:
        by_hand.setdefault(int(p.hand_id), []).append(p)
    return [
        archived_hand_from(engine, row, by_hand.get(int(row.id), ()), with_deal=False)
        for row in rows
    ]


def archive_seats(
    engine: Engine,
    *,
    room_kind: str | None = None,
    room_ids: list[str] | None = None,
    user_id: int | None = None,
) -> list[SeatLine]:
    """Seat lines, in hand order, optionally only of one room kind, of some rooms, or of the
    rooms ``user_id`` played in (every seat of those rooms' hands)."""
    h, p = archived_hands, archived_hand_players
    query = select(
        h.c.id,
        h.c.room_id,
        h.c.room_kind,
        h.c.room_name,
        h.c.variant,
        h.c.hand_no,
        h.c.ended_at,
        p.c.seat,
        p.c.player_id,
        p.c.user_id,
        p.c.name,
        p.c.occupant,
        p.c.start_stack,
        p.c.net,
    ).join(p, p.c.hand_id == h.c.id)
    if room_kind is not None:
        query = query.where(h.c.room_kind == room_kind)
    if room_ids is not None:
        query = query.where(h.c.room_id.in_(room_ids))
    if user_id is not None:
        played = (
            select(h.c.room_id)
            .join(p, p.c.hand_id == h.c.id)
            .where(p.c.user_id == user_id)
            .distinct()
        )
        query = query.where(h.c.room_id.in_(played))
    query = query.order_by(h.c.room_id, h.c.hand_no, p.c.seat)
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        SeatLine(
            hand_id=int(r.id),
            room_id=r.room_id,
            room_kind=r.room_kind,
            room_name=r.room_name,
            variant=r.variant,
            hand_no=int(r.hand_no),
            seat=int(r.seat),
            player_id=r.player_id,
            user_id=None if r.user_id is None else int(r.user_id),
            name=r.name,
            occupant=r.occupant,
            start_stack=int(r.start_stack),
            net=int(r.net),
            ended_at=as_utc(r.ended_at),
        )
        for r in rows
    ]


def claims_by_user(engine: Engine, start: datetime, end: datetime) -> dict[int, int]:
    """Coins each user claimed free (the wallet's ``claim`` transactions) in ``[start, end)``.
    The period is applied here, on UTC moments (SQLite keeps them as text)."""
    t = ledger_transactions
    with reading(engine) as conn:
        rows = conn.execute(
            select(t.c.user_id, t.c.amount, t.c.created_at).where(
                t.c.kind == "claim", t.c.user_id.is_not(None)
            )
        ).all()
    totals: dict[int, int] = {}
    for user, amount, at in rows:
        if start <= as_utc(at) < end:
            totals[int(user)] = totals.get(int(user), 0) + int(amount)
    return totals


def usernames(engine: Engine, user_ids: list[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    with reading(engine) as conn:
        rows = conn.execute(select(users.c.id, users.c.username).where(users.c.id.in_(user_ids)))
        return {int(i): str(name) for i, name in rows}


def user_at_seat(engine: Engine, hand_id: int, seat: int) -> int | None:
    """The person (user id) dealt in at ``seat`` of archived hand ``hand_id``, if any."""
    with reading(engine) as conn:
        found = conn.execute(
            select(archived_hand_players.c.user_id).where(
                archived_hand_players.c.hand_id == hand_id, archived_hand_players.c.seat == seat
            )
        ).scalar_one_or_none()
    return None if found is None else int(found)
