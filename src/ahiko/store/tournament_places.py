"""Tournament results as the room decided them: written once by the room's hook
when the tournament ends (``ahiko.competition.live_sitgo``), read back as they were stored,
never derived again from the hand archive."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, select

from ahiko.store.engine import reading
from ahiko.store.schema import tournament_places


@dataclass(frozen=True, slots=True)
class StoredPlace:
    room_id: str
    place: int
    player_id: str
    user_id: int | None
    name: str
    prize: int
    sitgo: str | None
    entrants: int
    finished_at: datetime

    def as_dict(self) -> dict[str, object]:
        return {
            "room_id": self.room_id,
            "place": self.place,
            "player_id": self.player_id,
            "user_id": self.user_id,
            "name": self.name,
            "prize": self.prize,
            "sitgo": self.sitgo,
            "entrants": self.entrants,
            "finished_at": self.finished_at.isoformat(),
        }


def write_places(conn: Connection, places: Sequence[StoredPlace]) -> None:
    """The final ranking of one room; a room already stored is left as it is."""
    if not places:
        return
    room_id = places[0].room_id
    found = conn.execute(
        select(tournament_places.c.place).where(tournament_places.c.room_id == room_id).limit(1)
    ).first()
    if found is not None:
        return
    conn.execute(
        tournament_places.insert(),
        [
            {
                "room_id": p.room_id,
                "place": p.place,
                "player_id": p.player_id,
                "user_id": p.user_id,
                "name": p.name[:64],
                "prize": p.prize,
                "sitgo": p.sitgo,
                "entrants": p.entrants,
                "finished_at": p.finished_at,
            }
            for p in places
        ],
    )


def places_of(engine: Engine, room_id: str) -> list[StoredPlace]:
    """One tournament's stored ranking, best first (empty when none was stored)."""
    with reading(engine) as conn:
        rows = conn.execute(
            select(tournament_places)
            .where(tournament_places.c.room_id == room_id)
            .order_by(tournament_places.c.place)
        ).all()
    return [_place(row) for row in rows]


def stored_places(engine: Engine, user_id: int | None = None) -> list[StoredPlace]:
    """Every stored place (of one account when ``user_id`` is given), by room and place."""
    query = select(tournament_places).order_by(
        tournament_places.c.room_id, tournament_places.c.place
    )
    if user_id is not None:
        query = query.where(tournament_places.c.user_id == user_id)
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [_place(row) for row in rows]


def _place(row: object) -> StoredPlace:
    m = row._mapping  # type: ignore[attr-defined]
    finished = m["finished_at"]
    if finished.tzinfo is None:  # SQLite keeps no zone; everything stored is UTC
        finished = finished.replace(tzinfo=UTC)
    return StoredPlace(
        m["room_id"],
        int(m["place"]),
        m["player_id"],
        None if m["user_id"] is None else int(m["user_id"]),
        m["name"],
        int(m["prize"]),
        m["sitgo"],
        int(m["entrants"]),
        finished,
    )
