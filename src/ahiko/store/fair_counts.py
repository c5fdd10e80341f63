"""What the fair deal's second version leaves to be counted (docs/fairness.md, pokerfair/2):
the secrets each account committed and did not reveal before the cards, for operators, and
the hands cancelled after their cards were dealt, for everyone.

A withheld secret never cancels a hand (its public fallback stands in), so a habit of it is
only worth an operator's look. Once the cards are out a hand ends played or, when the node
playing it crashed, cancelled at the next start (``recover_interrupted_hands``): nothing else
may stop it, and the public count says how often that happened."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.dialects import postgresql, sqlite

from ahiko.store.engine import reading
from ahiko.store.rooms import CRASH_CANCEL_REASON
from ahiko.store.schema import fair_withholds, hands, users


def add_withholds(conn: Connection, user_ids: Iterable[int], at: datetime) -> None:
    """One more withheld secret for each of ``user_ids`` (an account twice: two), on the
    caller's transaction (the one archiving the hand)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    for user_id in user_ids:
        statement = dialect.insert(fair_withholds).values(user_id=user_id, withheld=1, last_at=at)
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=["user_id"],
                set_={"withheld": fair_withholds.c.withheld + 1, "last_at": at},
            )
        )


def withholds_of(engine: Engine, user_id: int) -> int:
    with reading(engine) as conn:
        found = conn.execute(
            select(fair_withholds.c.withheld).where(fair_withholds.c.user_id == user_id)
        ).scalar()
    return int(found or 0)


def most_withheld(engine: Engine, limit: int = 100) -> list[dict[str, Any]]:
    """The accounts that withheld most, most first: ``{user_id, username, withheld, last_at}``."""
    query = (
        select(fair_withholds, users.c.username)
        .join(users, users.c.id == fair_withholds.c.user_id)
        .order_by(fair_withholds.c.withheld.desc(), fair_withholds.c.user_id)
        .limit(limit)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        {
            "user_id": int(row.user_id),
            "username": row.username,
            "withheld": int(row.withheld),
            "last_at": row.last_at.isoformat(),
        }
        for row in rows
    ]


def crash_cancellations(engine: Engine) -> int:
    """Hands cancelled after their cards were dealt: a node crashed while playing them."""
    query = select(func.count()).where(
        hands.c.status == "cancelled", hands.c.cancel_reason == CRASH_CANCEL_REASON
    )
    with reading(engine) as conn:
        return int(conn.execute(query).scalar_one())
