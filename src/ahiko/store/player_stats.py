"""Each player's stored figures: counts added as a hand is archived, in the
archive's own transaction, with atomic upserts (``x = x + :delta``), so hands archived at once
on several nodes all count; read back in one query per table.

Storage only: what one hand adds (``StatsDelta``) is computed in ``ahiko.competition``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from ahiko.store.engine import reading
from ahiko.store.schema import (
    player_daily_coins,
    player_stats,
    player_tier_results,
    player_tournament_rooms,
)

COUNTS = ("hands", "vpip", "pfr", "bets_raises", "calls", "showdowns", "showdowns_won")
TABLES = (player_stats, player_tier_results, player_daily_coins, player_tournament_rooms)


@dataclass(frozen=True, slots=True)
class TierCount:
    tier: str
    big_unit: int
    hands: int
    net: int


@dataclass(slots=True)
class StoredStats:
    """A player's counts, as stored (or as one hand adds them: ``StatsDelta``)."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    bets_raises: int = 0
    calls: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    tiers: dict[str, TierCount] = field(default_factory=dict)
    coins_by_day: dict[str, int] = field(default_factory=dict)
    tournament_rooms: set[str] = field(default_factory=set)

    def add(self, other: StoredStats) -> None:
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for label, tier in other.tiers.items():
            mine = self.tiers.get(label)
            self.tiers[label] = (
                tier
                if mine is None
                else TierCount(label, tier.big_unit, mine.hands + tier.hands, mine.net + tier.net)
            )
        for day, net in other.coins_by_day.items():
            self.coins_by_day[day] = self.coins_by_day.get(day, 0) + net
        self.tournament_rooms |= other.tournament_rooms


StatsDelta = StoredStats  # what one hand adds to one player


def _upsert(conn: Connection, table: Any, keys: Sequence[str], row: dict[str, Any]) -> None:
    """Insert ``row``, or add its other columns to the stored row with the same ``keys``."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(table).values(**row)
    added = {name: table.c[name] + statement.excluded[name] for name in row if name not in keys}
    if table is player_tier_results:
        added["big_unit"] = statement.excluded["big_unit"]
    conn.execute(statement.on_conflict_do_update(index_elements=list(keys), set_=added))


def add_stats(conn: Connection, user_id: int, delta: StoredStats) -> None:
    """Adds ``delta`` to ``user_id``'s stored counts (inside the caller's transaction)."""
    _upsert(
        conn,
        player_stats,
        ("user_id",),
        {"user_id": user_id, **{name: getattr(delta, name) for name in COUNTS}},
    )
    for tier in delta.tiers.values():
        row = {"user_id": user_id, "tier": tier.tier, "big_unit": tier.big_unit}
        _upsert(conn, player_tier_results, ("user_id", "tier"), row | _tier_sums(tier))
    for day, net in delta.coins_by_day.items():
        _upsert(
            conn,
            player_daily_coins,
            ("user_id", "day"),
            {"user_id": user_id, "day": day, "net": net},
        )
    for room_id in delta.tournament_rooms:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(
            dialect.insert(player_tournament_rooms)
            .values(user_id=user_id, room_id=room_id)
            .on_conflict_do_nothing()
        )


def _tier_sums(tier: TierCount) -> dict[str, int]:
    return {"hands": tier.hands, "net": tier.net}


def stored_stats(engine: Engine, user_id: int) -> StoredStats:
    """``user_id``'s counts: one read of each table, by primary key."""
    found = StoredStats()
    with reading(engine) as conn:
        row = conn.execute(select(player_stats).where(player_stats.c.user_id == user_id)).first()
        if row is None:
            return found
        for name in COUNTS:
            setattr(found, name, int(getattr(row, name)))
        t = player_tier_results
        for tier in conn.execute(select(t).where(t.c.user_id == user_id)):
            found.tiers[tier.tier] = TierCount(
                tier.tier, int(tier.big_unit), int(tier.hands), int(tier.net)
            )
        d = player_daily_coins
        for day in conn.execute(select(d.c.day, d.c.net).where(d.c.user_id == user_id)):
            found.coins_by_day[str(day.day)] = int(day.net)
        r = player_tournament_rooms
        found.tournament_rooms = set(
            conn.execute(select(r.c.room_id).where(r.c.user_id == user_id)).scalars()
        )
    return found


def replace_all_stats(conn: Connection, every: dict[int, StoredStats]) -> None:
    """Every player's counts replaced by ``every`` (a rebuild, in the caller's transaction)."""
    for table in TABLES:
        conn.execute(delete(table))
    for user_id in sorted(every):
        add_stats(conn, user_id, every[user_id])
