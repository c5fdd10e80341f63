"""A player's page (issue 20): the numbers of ``stats``, tournaments played and best
finishes, read from the hand archive for any player the same way."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from ahiko.competition.player_figures import player_figures
from ahiko.competition.stats import PlayerStats
from ahiko.competition.tournaments import (
    MTT_TABLE_PREFIX,
    Finish,
    tournament_finishes,
    with_stored,
)
from ahiko.store.archive_reads import archive_seats
from ahiko.store.tournament_places import stored_places

BEST_FINISHES = 5


def stats_of(engine: Engine, user_id: int) -> tuple[PlayerStats, set[str]]:
    """The player's figures, and the tournament rooms they played in: one read of the stored
    counts (``player_figures``), however many hands they played."""
    return player_figures(engine, user_id)


def finishes_of(engine: Engine, user_id: int) -> list[Finish]:
    lines = archive_seats(engine, room_kind="tournament", user_id=user_id)
    finishes = with_stored(tournament_finishes(lines), stored_places(engine, user_id))
    return [f for f in finishes if f.user_id == user_id]


def profile(engine: Engine, user_id: int, name: str) -> dict[str, Any]:
    """``{user_id, name, hands, vpip, pfr, aggression, showdowns, showdown_win_rate, tiers,
    results, tournaments: {played, finished, best}}``."""
    stats, rooms = stats_of(engine, user_id)
    finishes = finishes_of(engine, user_id)
    best = sorted(finishes, key=lambda f: (f.place, -f.entrants, f.ended_at))[:BEST_FINISHES]
    return {
        "user_id": user_id,
        "name": name,
        **stats.to_json(),
        "tournaments": {
            "played": len(
                {r for r in rooms if not r.startswith(MTT_TABLE_PREFIX)}
                | {f.room_id for f in finishes}
            ),
            "finished": len(finishes),
            "wins": sum(1 for f in finishes if f.place == 1),
            "best": [f.to_json() for f in best],
        },
    }


def table_line(engine: Engine, user_id: int, name: str) -> dict[str, Any]:
    """The small public line shown at the table: hands, VPIP and PFR."""
    stats, _rooms = stats_of(engine, user_id)
    return {
        "user_id": user_id,
        "name": name,
        "hands": stats.hands,
        "vpip": stats.vpip.percent(),
        "pfr": stats.pfr.percent(),
    }
