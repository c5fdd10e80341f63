"""A player's figures are stored as hands are archived (issue 40): after random play the
stored counts equal a rebuild from the archive, and the profile they give equals the figures
computed hand by hand from every archived hand, as profiles were before. On SQLite and
PostgreSQL (the upserts differ)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, delete

from ahiko.competition.player_figures import (
    figures_from_archive,
    hand_by_hand_figures,
    rebuild_player_figures,
)
from ahiko.competition.profiles import profile, stats_of, table_line
from ahiko.rooms.blinds import Stakes
from ahiko.store.engine import make_engine
from ahiko.store.player_stats import stored_stats
from ahiko.store.schema import player_stats as player_stats_table
from ahiko.store.schema import player_tier_results
from archive_factory import START, Sitter, add_person, cash_session, tournament

NAMES = ("ana", "bia", "caio", "davi", "eva")


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    found = make_engine(database_url)
    yield found
    found.dispose()


def random_play(engine: Engine, seed: int) -> dict[str, int]:
    """Cash hands in Ahiko and recreational rooms (hold'em and draw, several stakes, over
    several days) and tournaments, among random people and a bot."""
    rng = random.Random(seed)
    people = {name: add_person(engine, name) for name in NAMES}
    sitters = [Sitter(name, user) for name, user in people.items()] + [Sitter("robo")]
    for n in range(6):
        chosen = rng.sample(sitters, rng.randint(2, 4))
        kind, variant = rng.choice(
            [("ahiko", "holdem"), ("recreational", "holdem"), ("recreational", "draw")]
        )
        big = rng.choice([2, 10, 20])
        stakes = (
            Stakes(small_blind=big // 2, big_blind=big)
            if variant == "holdem"
            else Stakes(ante=1, small_bet=big, big_bet=2 * big)
        )
        cash_session(
            engine,
            rng,
            room_id=f"room-{seed}-{n}",
            room_kind=kind,
            variant=variant,
            sitters=dict(zip(rng.sample(range(8), len(chosen)), chosen, strict=True)),
            hands=rng.randint(5, 25),
            stakes=stakes,
            stack=100 * big,
            start=START + timedelta(days=rng.randint(0, 9), hours=n),
        )
    for n in range(2):
        chosen = rng.sample(sitters, rng.randint(2, 3))
        tournament(
            engine,
            rng,
            room_id=f"tour-{seed}-{n}",
            sitters=dict(enumerate(chosen)),
            ended_at=START + timedelta(days=n),
            max_hands=60,
        )
    return people


@pytest.mark.parametrize("seed", [1, 2])
def test_stored_figures_equal_a_rebuild_from_the_archive_after_random_play(
    engine: Engine, seed: int
) -> None:
    people = random_play(engine, seed)
    rebuilt = figures_from_archive(engine)
    assert set(rebuilt) <= set(people.values())
    for name, user_id in people.items():
        stored = stored_stats(engine, user_id)
        assert asdict(stored) == asdict(rebuilt.get(user_id, stored)), name
        stats, rooms = stats_of(engine, user_id)
        assert stats.to_json() == hand_by_hand_figures(engine, user_id).to_json(), name
        assert rooms == stored.tournament_rooms
        line = table_line(engine, user_id, name)
        assert line["hands"] == stats.hands == stored.hands
    assert sum(stored_stats(engine, u).hands for u in people.values()) > 50


def test_the_rebuild_restores_lost_or_wrong_counts(engine: Engine) -> None:
    people = random_play(engine, 3)
    before = {user: profile(engine, user, name) for name, user in people.items()}
    with engine.begin() as conn:  # a stored count gone wrong, another lost
        conn.execute(delete(player_tier_results))
        conn.execute(player_stats_table.update().values(hands=player_stats_table.c.hands + 7))
    assert profile(engine, people["ana"], "ana") != before[people["ana"]]
    assert rebuild_player_figures(engine) == len(figures_from_archive(engine))
    after = {user: profile(engine, user, name) for name, user in people.items()}
    assert after == before


def test_ahiko_admin_rebuild_stats(sqlite_url: str, tmp_path: Path) -> None:
    engine = make_engine(sqlite_url)
    people = random_play(engine, 4)
    expected = {user: asdict(stored_stats(engine, user)) for user in people.values()}
    with engine.begin() as conn:
        conn.execute(delete(player_stats_table))
    engine.dispose()
    done = subprocess.run(
        [sys.executable, "-m", "ahiko.cli", "admin", "rebuild-stats", "--database-url",
         sqlite_url, "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "player figures rebuilt from the archive" in done.stdout
    engine = make_engine(sqlite_url)
    assert {user: asdict(stored_stats(engine, user)) for user in people.values()} == expected
    engine.dispose()
