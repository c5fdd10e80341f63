"""Store shortcuts only tests use (imported as ``store_helpers``): each opens its own
transaction around the connection-level function the rooms use (``ahiko.store.rooms``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine, select

from ahiko.store.engine import reading
from ahiko.store.rooms import SeatRecord, finish_hand, write_seats
from ahiko.store.schema import hands


def save_seats(engine: Engine, room_id: str, seated: Sequence[SeatRecord]) -> None:
    """Replaces the room's seats with ``seated`` (call at hand boundaries)."""
    with engine.begin() as conn:
        write_seats(conn, room_id, seated)


def record_hand(
    engine: Engine,
    room_id: str,
    hand_no: int,
    events: Sequence[Mapping[str, Any]] | None,
    status: str,
    cancel_reason: str | None = None,
) -> None:
    """Ends a hand: ``finished`` with its event log, or ``cancelled`` (R-FD-06, recovery)."""
    with engine.begin() as conn:
        finish_hand(conn, room_id, hand_no, events, status, cancel_reason)


def load_hand_events(engine: Engine, room_id: str, hand_no: int) -> list[dict[str, Any]] | None:
    query = select(hands.c.events).where(hands.c.room_id == room_id, hands.c.hand_no == hand_no)
    with reading(engine) as conn:
        found = conn.execute(query).scalar_one_or_none()
    return None if found is None else list(found)
