"""What fair re-entry in Ahiko rooms reads: a person's latest exit from a room of
one tier, from the participations the wallet closes (``exit_amount``, ``closed_at``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, select

from ahiko.store.engine import reading
from ahiko.store.schema import participations, rooms


@dataclass(frozen=True, slots=True)
class LastExit:
    room_id: str
    amount: int
    closed_at: datetime


def last_exit(engine: Engine, user_id: int, tier: str, since: datetime) -> LastExit | None:
    """The person's most recent exit at ``tier`` closed after ``since``, if any."""
    query = (
        select(
            participations.c.room_id,
            participations.c.exit_amount,
            participations.c.closed_at,
            rooms.c.config,
        )
        .join(rooms, rooms.c.id == participations.c.room_id)
        .where(
            participations.c.user_id == user_id,
            participations.c.status == "closed",
            participations.c.closed_at >= since,
        )
        .order_by(participations.c.closed_at.desc(), participations.c.id.desc())
    )
    with reading(engine) as conn:
        for row in conn.execute(query):
            if (row.config or {}).get("tier") == tier and row.exit_amount is not None:
                closed = row.closed_at
                closed = closed if closed.tzinfo is not None else closed.replace(tzinfo=UTC)
                return LastExit(row.room_id, int(row.exit_amount), closed)
    return None
