"""Issue 41: backups that restore. ``ahiko admin backup DIR`` copies a live SQLite database
(SQLite's online backup) with both keys of the data folder; after the data folder is wiped,
``ahiko admin restore DIR`` puts everything back: the same wallets, the same archived hands
(their sealed hole cards and salts open again: the same downloads), a clean ledger. And
``ahiko serve`` refuses, in one line, a database with archived hands but no archive key."""

from __future__ import annotations

import os
import random
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ahiko.cli import main
from ahiko.fairness.keys import (
    ARCHIVE_KEY_FILE_NAME,
    load_or_create_archive_key,
    load_or_create_signing_key,
)
from ahiko.rooms.blinds import Stakes
from ahiko.store.engine import default_database_url, make_engine
from ahiko.store.hand_archive import archived_hand_for, hands_of_user, install_sealer
from ahiko.wallet.operations import Wallet
from archive_factory import Sitter, add_person, cash_session
from pg import PostgresCluster


def _site(data: Path, database_url: str | None = None) -> tuple[list[int], dict[int, Any]]:
    """Two people with archived hands on a fresh site in ``data`` (SQLite there, unless
    ``database_url`` names another database)."""
    assert main(["admin", "migrate", "--data-dir", str(data), *_on(database_url)]) == 0
    engine = make_engine(database_url or default_database_url(data))
    install_sealer(engine, load_or_create_archive_key(data))
    people = [add_person(engine, "ana"), add_person(engine, "bia")]
    cash_session(
        engine,
        random.Random(7),
        room_id="iniciante-b-1",
        room_kind="ahiko",
        variant="holdem",
        sitters={0: Sitter("ana", people[0]), 3: Sitter("bia", people[1])},
        hands=12,
        stakes=Stakes(small_blind=1, big_blind=2),
        stack=200,
        every=timedelta(minutes=3),
        signing_key=load_or_create_signing_key(data),
    )
    seen = _what_players_see(engine, people)
    engine.dispose()
    return people, seen


def _on(database_url: str | None) -> list[str]:
    return [] if database_url is None else ["--database-url", database_url]


def _what_players_see(engine: Any, people: list[int]) -> dict[int, Any]:
    """Each person's wallet, and the archived hands their downloads are built from (opened
    with the archive key: hole cards and salts in clear)."""
    wallet = Wallet(engine)
    seen: dict[int, Any] = {}
    for person in people:
        page = hands_of_user(engine, person, per_page=100)
        hands = [archived_hand_for(engine, row.id, person) for row in page.items]
        seen[person] = (wallet.holdings(person), hands)
    return seen


def test_a_backup_restores_the_same_wallets_and_downloads_after_a_wipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, kept = tmp_path / "data", tmp_path / "backup"
    people, before = _site(data)
    assert all(hands for _, hands in before.values())
    assert main(["admin", "backup", str(kept), "--data-dir", str(data)]) == 0
    assert sorted(p.name for p in kept.iterdir()) == [
        "ahiko.sqlite3", ARCHIVE_KEY_FILE_NAME, "fairness_ed25519.key", "manifest.json"
    ]  # fmt: skip
    assert kept.stat().st_mode & 0o777 == 0o700
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in kept.iterdir())
    shutil.rmtree(data)  # the disk is lost
    assert main(["admin", "restore", str(kept), "--data-dir", str(data)]) == 0
    assert main(["admin", "check-ledger", "--data-dir", str(data)]) == 0
    engine = make_engine(default_database_url(data))
    install_sealer(engine, load_or_create_archive_key(data))
    assert _what_players_see(engine, people) == before
    engine.dispose()
    capsys.readouterr()
    # a second restore over the restored folder is refused, changing nothing
    assert main(["admin", "restore", str(kept), "--data-dir", str(data)]) == 2
    assert "restore into an empty data folder" in capsys.readouterr().err
    # and a backup into a folder that holds something
    assert main(["admin", "backup", str(kept), "--data-dir", str(data)]) == 2
    assert "is not empty" in capsys.readouterr().err


def test_serve_refuses_in_one_line_a_database_with_archived_hands_and_no_archive_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    _site(data)
    (data / ARCHIVE_KEY_FILE_NAME).unlink()  # restored the database, forgot the keys
    capsys.readouterr()
    assert main(["serve", "--data-dir", str(data), "--port", "0"]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert len(err) == 1, err
    assert "12 archived hand(s)" in err[0] and ARCHIVE_KEY_FILE_NAME in err[0]
    assert "ahiko admin restore" in err[0]
    assert not (data / ARCHIVE_KEY_FILE_NAME).exists()  # no new key was made


def test_a_postgresql_backup_restores_the_same_wallets_and_downloads_after_a_wipe(
    tmp_path: Path, postgres_cluster: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """The documented PostgreSQL path (docs/deploy.md): ``pg_dump --format=custom`` and the
    keys; the database dropped and the data folder wiped; an empty database made again and
    ``pg_restore`` with the keys put back."""
    name = f"restore_drill_{os.getpid()}"
    url = postgres_cluster.create_database(name)
    data, kept = tmp_path / "data", tmp_path / "backup"
    try:
        people, before = _site(data, url)
        assert all(hands for _, hands in before.values())
        assert main(["admin", "backup", str(kept), "--data-dir", str(data), *_on(url)]) == 0
        assert sorted(p.name for p in kept.iterdir()) == [
            "ahiko.pgdump", ARCHIVE_KEY_FILE_NAME, "fairness_ed25519.key", "manifest.json"
        ]  # fmt: skip
        assert all(p.stat().st_mode & 0o777 == 0o600 for p in kept.iterdir())
        postgres_cluster.drop_database(name)  # the database server is lost ...
        shutil.rmtree(data)  # ... and the node's disk with it
        url = postgres_cluster.create_database(name)  # a new, empty database
        assert main(["admin", "restore", str(kept), "--data-dir", str(data), *_on(url)]) == 0
        assert main(["admin", "check-ledger", "--data-dir", str(data), *_on(url)]) == 0
        engine = make_engine(url)
        install_sealer(engine, load_or_create_archive_key(data))
        assert _what_players_see(engine, people) == before
        engine.dispose()
        capsys.readouterr()
    finally:
        postgres_cluster.drop_database(name)
