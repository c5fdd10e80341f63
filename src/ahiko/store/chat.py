"""Table chat on disk: messages kept for moderation for ``CHAT_RETENTION_DAYS``, the reports
players file, and the operator's site-wide mutes (``ahiko admin chat …``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, and_, delete, insert, or_, select

from ahiko.store.engine import reading
from ahiko.store.schema import chat_messages, chat_reports, chat_site_mutes

CHAT_RETENTION_DAYS = 30  # messages (not reports) older than this are deleted


@dataclass(frozen=True, slots=True)
class StoredMessage:
    room_id: str
    msg_no: int
    player_id: str
    name: str
    kind: str
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StoredReport:
    id: int
    room_id: str
    msg_no: int
    reporter_id: str
    author_id: str
    author_name: str
    text: str
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SiteMute:
    player_id: str
    until: datetime | None
    reason: str


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back; every moment here is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def insert_message(engine: Engine, message: StoredMessage) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(chat_messages).values(
                room_id=message.room_id,
                msg_no=message.msg_no,
                player_id=message.player_id,
                name=message.name,
                kind=message.kind,
                text=message.text,
                at=message.at,
            )
        )


def purge_messages(engine: Engine, now: datetime, days: int = CHAT_RETENTION_DAYS) -> int:
    """Delete messages older than ``days``; returns how many went."""
    with engine.begin() as conn:
        result = conn.execute(
            delete(chat_messages).where(chat_messages.c.at < now - timedelta(days=days))
        )
    return int(result.rowcount or 0)


def messages_of(
    engine: Engine, room_id: str, player_id: str, start: datetime, end: datetime
) -> list[StoredMessage]:
    """``player_id``'s own messages in ``room_id`` between ``start`` and ``end`` (a hand)."""
    query = (
        select(chat_messages)
        .where(
            chat_messages.c.room_id == room_id,
            chat_messages.c.player_id == player_id,
            chat_messages.c.at >= start,
            chat_messages.c.at <= end,
        )
        .order_by(chat_messages.c.msg_no)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        StoredMessage(r.room_id, r.msg_no, r.player_id, r.name, r.kind, r.text, _aware(r.at))  # type: ignore[arg-type]
        for r in rows
    ]


def insert_report(engine: Engine, report: StoredReport) -> bool:
    """File a report; False when this reporter already reported this message."""
    with engine.begin() as conn:
        exists = conn.execute(
            select(chat_reports.c.id).where(
                chat_reports.c.room_id == report.room_id,
                chat_reports.c.msg_no == report.msg_no,
                chat_reports.c.reporter_id == report.reporter_id,
            )
        ).first()
        if exists is not None:
            return False
        conn.execute(
            insert(chat_reports).values(
                room_id=report.room_id,
                msg_no=report.msg_no,
                reporter_id=report.reporter_id,
                author_id=report.author_id,
                author_name=report.author_name,
                text=report.text,
                reason=report.reason,
                at=report.at,
            )
        )
    return True


def reports(engine: Engine, limit: int = 100) -> list[StoredReport]:
    query = select(chat_reports).order_by(chat_reports.c.id.desc()).limit(limit)
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        StoredReport(
            r.id,
            r.room_id,
            r.msg_no,
            r.reporter_id,
            r.author_id,
            r.author_name,
            r.text,
            r.reason,
            _aware(r.at),  # type: ignore[arg-type]
        )
        for r in rows
    ]


def set_site_mute(
    engine: Engine, player_id: str, until: datetime | None, reason: str, now: datetime
) -> None:
    with engine.begin() as conn:
        conn.execute(delete(chat_site_mutes).where(chat_site_mutes.c.player_id == player_id))
        conn.execute(
            insert(chat_site_mutes).values(player_id=player_id, until=until, reason=reason, at=now)
        )


def clear_site_mute(engine: Engine, player_id: str) -> bool:
    with engine.begin() as conn:
        result = conn.execute(
            delete(chat_site_mutes).where(chat_site_mutes.c.player_id == player_id)
        )
    return bool(result.rowcount)


def site_mutes(engine: Engine, now: datetime) -> dict[str, SiteMute]:
    """The mutes in force at ``now``, by player id."""
    query = select(chat_site_mutes).where(
        or_(chat_site_mutes.c.until.is_(None), and_(chat_site_mutes.c.until > now))
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return {r.player_id: SiteMute(r.player_id, _aware(r.until), r.reason) for r in rows}
