"""A player's page: the numbers of ``stats``, tournaments played and best
finishes, the same way for any player: the figures from their stored counts
(``player_figures``), the places from the tournament rooms those name."""

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
# Tournament rooms whose places are read from archived seat lines for one page (a room's
# places stored when it ended are read apart, whatever their number).
MAX_TOURNAMENT_ROOMS_READ = 200


def stats_of(engine: Engine, user_id: int) -> tuple[PlayerStats, set[str]]:
    """The player's figures, and the tournament rooms they played in: one read of the stored
    counts (``player_figures``), however many hands they played."""
    return player_figures(engine, user_id)


def finishes_of(engine: Engine, user_id: int, rooms: set[str] | None = None) -> list[Finish]:
    """The player's tournament places: stored ones (sit & go's, multi-table tournaments), and
    those read from the seat lines of the other tournament rooms they played (``rooms``: from
    the stored figures), at most ``MAX_TOURNAMENT_ROOMS_READ`` of them, so a page costs the
    same however many hands the player has."""
    if rooms is None:
        rooms = stats_of(engine, user_id)[1]
    chosen = sorted(r for r in rooms if not r.startswith(MTT_TABLE_PREFIX))
    chosen = chosen[-MAX_TOURNAMENT_ROOMS_READ:]
    lines = archive_seats(engine, room_kind="tournament", room_ids=chosen) if chosen else []
    finishes = with_stored(tournament_finishes(lines), stored_places(engine, user_id))
    return [f for f in finishes if f.user_id == user_id]


def profile(engine: Engine, user_id: int, name: str) -> dict[str, Any]:
    """``{user_id, name, hands, vpip, pfr, aggression, showdowns, showdown_win_rate, tiers,
    results, tournaments: {played, finished, best}}``."""
    stats, rooms = stats_of(engine, user_id)
    finishes = finishes_of(engine, user_id, rooms)
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
