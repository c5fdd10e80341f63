"""Leaderboards, weekly and monthly, per room kind, from the hand archive.

- **Ahiko rooms**: net coins won at the house tables in the period, hand by hand, minus the
  free coins the player claimed in the period (a claim counts against the player).
- **Tournaments**: points by finishing place (``Finish.points``: one per player finished
  ahead of, plus one), for tournaments whose last hand ended in the period.

Periods are UTC: a week starts on Monday 00:00, a month on its first day. Ranks are shared
by equal scores ("1, 2, 2, 4"); equal scores are listed by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from sqlalchemy import Engine

from ahiko.competition.tournaments import tournament_finishes, with_stored
from ahiko.store.archive_reads import archive_seats, claims_by_user, usernames
from ahiko.store.tournament_places import stored_places

Period = Literal["week", "month"]
Board = Literal["ahiko", "tournament"]
PERIODS: tuple[Period, ...] = ("week", "month")
BOARDS: tuple[Board, ...] = ("ahiko", "tournament")


def period_bounds(period: Period, now: datetime) -> tuple[datetime, datetime]:
    """``[start, end)`` of the week or month holding ``now`` (UTC)."""
    now = now.astimezone(UTC)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7)
    if period == "month":
        start = day.replace(day=1)
        end = (start + timedelta(days=32)).replace(day=1)
        return start, end
    raise ValueError(f"unknown period {period!r}; use week or month")


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    user_id: int
    name: str
    score: int
    played: int  # hands (Ahiko) or tournaments


def ranked(scores: dict[int, int], played: dict[int, int], names: dict[int, str]) -> list[Row]:
    order = sorted(scores, key=lambda u: (-scores[u], names.get(u, "").casefold(), u))
    rows: list[Row] = []
    for i, user in enumerate(order):
        tied = rows and rows[-1].score == scores[user]
        rank = rows[-1].rank if tied else i + 1
        rows.append(Row(rank, user, names.get(user, f"#{user}"), scores[user], played.get(user, 0)))
    return rows


def ahiko_scores(
    engine: Engine, start: datetime, end: datetime
) -> tuple[dict[int, int], dict[int, int]]:
    """Per user: net coins at Ahiko rooms in ``[start, end)`` less claims; hands played."""
    scores: dict[int, int] = {}
    hands: dict[int, int] = {}
    for line in archive_seats(engine, room_kind="ahiko"):
        if line.user_id is None or not start <= line.ended_at < end:
            continue
        scores[line.user_id] = scores.get(line.user_id, 0) + line.net
        hands[line.user_id] = hands.get(line.user_id, 0) + 1
    for user, claimed in claims_by_user(engine, start, end).items():
        scores[user] = scores.get(user, 0) - claimed
    return scores, hands


def tournament_scores(
    engine: Engine, start: datetime, end: datetime
) -> tuple[dict[int, int], dict[int, int]]:
    """Per user: points of the tournaments finished in ``[start, end)``; tournaments."""
    scores: dict[int, int] = {}
    played: dict[int, int] = {}
    archived = tournament_finishes(archive_seats(engine, room_kind="tournament"))
    for finish in with_stored(archived, stored_places(engine)):
        if finish.user_id is None or not start <= finish.ended_at < end:
            continue
        scores[finish.user_id] = scores.get(finish.user_id, 0) + finish.points()
        played[finish.user_id] = played.get(finish.user_id, 0) + 1
    return scores, played


def leaderboard(engine: Engine, board: Board, period: Period, now: datetime) -> dict[str, object]:
    """``{board, period, start, end, rows: [{rank, user_id, name, score, played}]}``."""
    start, end = period_bounds(period, now)
    if board == "ahiko":
        scores, played = ahiko_scores(engine, start, end)
    elif board == "tournament":
        scores, played = tournament_scores(engine, start, end)
    else:
        raise ValueError(f"unknown board {board!r}; use ahiko or tournament")
    rows = ranked(scores, played, usernames(engine, sorted(scores)))
    return {
        "board": board,
        "period": period,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "rows": [
            {
                "rank": r.rank,
                "user_id": r.user_id,
                "name": r.name,
                "score": r.score,
                "played": r.played,
            }
            for r in rows
        ],
    }
