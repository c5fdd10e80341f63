"""Files at rest are for the server's user only: the data folder is 0700 and what it holds
(the SQLite database and its WAL, the signing and archive keys) 0600, so a copy of the
machine's other users' view reveals no hand, key or password hash."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def private_folder(path: Path) -> Path:
    """Creates ``path`` (and its parents) if needed; ``path`` itself ends up 0700 and the
    regular files directly inside it 0600."""
    path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    os.chmod(path, FOLDER_MODE)
    for child in path.iterdir():
        if child.is_file() and not child.is_symlink():
            os.chmod(child, FILE_MODE)
    return path


def private_file(path: Path) -> None:
    """Creates ``path`` empty with mode 0600 if it is missing, else narrows it to 0600."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        os.chmod(path, FILE_MODE)


def private_sqlite_file(path: Path) -> None:
    """The database file 0600 before SQLite first opens it: SQLite gives its WAL and shared
    memory files the database file's mode. Existing companions are narrowed too."""
    if not path.parent.exists():
        path.parent.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    private_file(path)
    for suffix in SQLITE_COMPANIONS:
        with contextlib.suppress(FileNotFoundError):
            os.chmod(f"{path}{suffix}", FILE_MODE)
