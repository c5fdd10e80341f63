"""Backups that restore: ``ahiko admin backup DIR`` and ``ahiko admin restore DIR``.

A backup is the database *and* the two keys of the data folder: the deal-signing key (the
proofs players verify) and the archive key (the hand archive's hole cards and salts are
sealed with it: without it every download of an archived hand is lost). One without the
other does not restore a site.

- SQLite: the database is copied with SQLite's online backup (a consistent copy while the
  server runs), with both keys and a ``manifest.json``, into DIR (0700, files 0600).
- PostgreSQL: the keys and the manifest go into DIR; the database is dumped with
  ``pg_dump --format=custom`` into DIR/ahiko.pgdump when ``pg_dump`` is on the PATH, and
  restored with ``pg_restore --clean --if-exists`` (docs/deploy.md, "Backups").

``restore`` puts both back into an empty data folder (it refuses to overwrite a key that
differs, or a database that holds anything) and checks the ledger. ``refusal_without_key``
is ``ahiko serve``'s check: a database with archived hands and no archive key is refused in
one line instead of a new key being made and every download failing.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine, func, make_url, select

from ahiko.fairness.keys import ARCHIVE_KEY_FILE_NAME, KEY_FILE_NAME
from ahiko.store.private_files import private_folder
from ahiko.store.schema import archived_hands, users

SQLITE_COPY = "ahiko.sqlite3"
PG_DUMP = "ahiko.pgdump"
MANIFEST = "manifest.json"
KEYS = (KEY_FILE_NAME, ARCHIVE_KEY_FILE_NAME)


class BackupError(RuntimeError):
    """A backup or restore that cannot be done as asked; the message says why."""


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    return Path(parsed.database)


def _private_copy(source: Path, target: Path) -> None:
    target.write_bytes(source.read_bytes())
    target.chmod(0o600)


def backup(database_url: str, data_dir: Path, folder: Path) -> list[str]:
    """Write a backup into ``folder`` (new or empty); answers the files written."""
    if folder.exists() and any(folder.iterdir()):
        raise BackupError(f"{folder} is not empty: back up into a new folder")
    missing = [name for name in KEYS if not (data_dir / name).exists()]
    if missing:
        raise BackupError(f"{data_dir} has no {', '.join(missing)}: nothing to restore from")
    private_folder(folder)
    written = []
    for name in KEYS:
        _private_copy(data_dir / name, folder / name)
        written.append(name)
    path = _sqlite_path(database_url)
    if path is not None:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(folder / SQLITE_COPY)
        try:
            source.backup(target)  # online: a consistent copy while the server writes
        finally:
            target.close()
            source.close()
        (folder / SQLITE_COPY).chmod(0o600)
        written.append(SQLITE_COPY)
    elif shutil.which("pg_dump") is not None:
        dumped = subprocess.run(
            ["pg_dump", "--format=custom", f"--file={folder / PG_DUMP}", _libpq(database_url)],
            capture_output=True,
            text=True,
            check=False,
        )
        if dumped.returncode != 0:
            raise BackupError(f"pg_dump failed: {dumped.stderr.strip()}")
        (folder / PG_DUMP).chmod(0o600)
        written.append(PG_DUMP)
    else:
        raise BackupError("pg_dump is not on the PATH: install postgresql-client")
    manifest = {"made_at": datetime.now(UTC).isoformat(), "files": written}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    (folder / MANIFEST).chmod(0o600)
    return [*written, MANIFEST]


def restore(database_url: str, data_dir: Path, folder: Path) -> list[str]:
    """Put the backup in ``folder`` back: the keys into ``data_dir``, the database to
    ``database_url`` (which must be empty of accounts); answers the files restored."""
    if not (folder / MANIFEST).exists():
        raise BackupError(f"{folder} holds no backup ({MANIFEST} missing)")
    private_folder(data_dir)
    for name in KEYS:
        key = data_dir / name
        if key.exists() and key.read_bytes() != (folder / name).read_bytes():
            raise BackupError(f"{key} differs from the backup's: move it away first")
    path = _sqlite_path(database_url)
    restored = []
    if path is not None:
        if not (folder / SQLITE_COPY).exists():
            raise BackupError(f"{folder} holds no SQLite database ({SQLITE_COPY})")
        if path.exists() and path.stat().st_size > 0:
            raise BackupError(f"{path} exists: restore into an empty data folder")
        source = sqlite3.connect(f"file:{folder / SQLITE_COPY}?mode=ro", uri=True)
        target = sqlite3.connect(path)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        path.chmod(0o600)
        restored.append(SQLITE_COPY)
    else:
        if not (folder / PG_DUMP).exists():
            raise BackupError(f"{folder} holds no PostgreSQL dump ({PG_DUMP})")
        done = subprocess.run(
            ["pg_restore", "--clean", "--if-exists", "--no-owner",
             f"--dbname={_libpq(database_url)}", str(folder / PG_DUMP)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed: {done.stderr.strip()}")
        restored.append(PG_DUMP)
    for name in KEYS:
        _private_copy(folder / name, data_dir / name)
        restored.append(name)
    return restored


def _libpq(database_url: str) -> str:
    """The SQLAlchemy URL as libpq takes it (no ``+driver``)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def refusal_without_key(engine: Engine, data_dir: Path) -> str | None:
    """One line when the database holds archived hands but the data folder has no archive
    key (a new one would make every download of them fail)."""
    if (data_dir / ARCHIVE_KEY_FILE_NAME).exists():
        return None
    with engine.connect() as conn:
        archived = conn.execute(select(func.count()).select_from(archived_hands)).scalar_one()
        people = conn.execute(select(func.count()).select_from(users)).scalar_one()
    if not archived:
        return None
    return (
        f"the database holds {archived} archived hand(s) of {people} account(s) but "
        f"{data_dir} has no {ARCHIVE_KEY_FILE_NAME}: restore the keys with the database "
        "(ahiko admin restore DIR), or point --data-dir at the folder that has them"
    )
