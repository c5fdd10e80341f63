"""R-FD-03 across the Pot-Limit Omaha migration (``0009_plo``): hands of both old variants
archived by a server at the revision before it still replay and their proofs still verify
after the upgrade, every player row kept (SQLite rebuilds the table to change its check);
and the upgraded archive takes Pot-Limit Omaha hands, which replay and verify the same way."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator

import pytest
from alembic import command
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError

from ahiko.fairness.verify import verify_text
from ahiko.poker.events import event_to_dict
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.finished.downloads import proof_for, rebuild_hand
from ahiko.store.engine import make_engine
from ahiko.store.hand_archive import ArchivedHand, archived_hand_from
from ahiko.store.migrate import alembic_config, head_revision, upgrade
from ahiko.store.schema import archived_hand_players, archived_hands
from archive_factory import START, Sitter, play_hand

BEFORE_OMAHA = "0008"
BOTS = {1: Sitter("Ana"), 3: Sitter("Bia"), 5: Sitter("Caio")}


def _at_revision(url: str, revision: str) -> Engine:
    engine = make_engine(url)
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return engine


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def old_archive(request: pytest.FixtureRequest, tmp_path) -> Iterator[Engine]:
    """A database migrated only up to the revision before Pot-Limit Omaha."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_cluster").create_database(
            f"before_omaha_{uuid.uuid4().hex[:8]}"
        )
    engine = _at_revision(url, BEFORE_OMAHA)
    yield engine
    engine.dispose()


def _play(engine: Engine, variant: str, hand_no: int, seed: int) -> ArchivedHand:
    stakes = (
        Stakes(ante=1, small_bet=10) if variant == "draw" else Stakes(small_blind=5, big_blind=10)
    )
    return play_hand(
        engine,
        random.Random(seed),
        room_id=f"old-{variant}",
        room_kind="recreational",
        variant=variant,
        hand_no=hand_no,
        sitters=BOTS,
        stacks=dict.fromkeys(BOTS, 500),
        stakes=stakes,
        button=1,
        ended_at=START,
    )


def _read(engine: Engine, hand_id: int) -> ArchivedHand:
    with engine.connect() as conn:
        row = conn.execute(select(archived_hands).where(archived_hands.c.id == hand_id)).one()
        players = conn.execute(
            select(archived_hand_players).where(archived_hand_players.c.hand_id == hand_id)
        ).all()
    return archived_hand_from(engine, row, players, with_deal=True)


def _replays_and_verifies(engine: Engine, played: ArchivedHand) -> None:
    stored = _read(engine, played.id or 0)
    assert [p.seat for p in stored.players] == sorted(BOTS)
    assert [event_to_dict(e) for e in rebuild_hand(stored).events] == list(played.events)
    for seat in BOTS:
        proof = proof_for(stored, seat)
        result = verify_text(json.dumps(proof))
        assert result.ok, (stored.variant, seat, result)
        assert proof["commitment"]["layout"] == played.commitment["layout"]


def _player_rows(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(
            conn.execute(select(func.count()).select_from(archived_hand_players)).scalar_one()
        )


def test_R_FD_03_hands_archived_before_omaha_replay_and_verify_after_the_upgrade(
    old_archive: Engine,
) -> None:
    old = [
        _play(old_archive, variant, n, seed=n)
        for n, variant in enumerate(["holdem", "draw"] * 2, 1)
    ]
    rows = _player_rows(old_archive)
    assert rows == len(old) * len(BOTS)

    assert upgrade(old_archive) == head_revision()

    assert _player_rows(old_archive) == rows  # the rebuild kept every player row
    for played in old:
        _replays_and_verifies(old_archive, played)
    omaha = _play(old_archive, "plo", 10, seed=10)
    assert omaha.commitment["layout"] == "omaha4-noburn-v1"
    _replays_and_verifies(old_archive, omaha)


def test_R_FD_03_the_archive_still_refuses_a_game_it_does_not_know(old_archive: Engine) -> None:
    upgrade(old_archive)
    with pytest.raises(IntegrityError), old_archive.begin() as conn:
        conn.execute(
            archived_hands.insert().values(
                room_id="r", room_kind="recreational", room_name="Mesa", variant="stud",
                max_seats=6, hand_no=1, commitment={}, events=[], deal={},
                started_at=START, ended_at=START,
            )
        )  # fmt: skip
