"""The data folder's keys when several servers start together on a fresh folder (the nodes of
a cluster, docs/deploy.md): each reads one whole key, the same one, never a file another is
still writing (``bench/cluster_load.py`` saw a node refuse to start: "does not hold a 32-byte
archive key")."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ahiko.fairness.keys import (
    load_or_create_archive_key,
    load_or_create_signing_key,
    public_key_bytes,
)

STARTS = 8
ROUNDS = 30


def _race(load: Callable[[Path], Any], folder: Path) -> list[Any]:
    barrier = threading.Barrier(STARTS)
    found: list[Any] = []
    errors: list[BaseException] = []

    def start() -> None:
        barrier.wait()
        try:
            found.append(load(folder))
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(STARTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return found


@pytest.mark.parametrize(
    "load",
    [
        load_or_create_archive_key,
        lambda folder: public_key_bytes(load_or_create_signing_key(folder)),
    ],
    ids=["archive key", "signing key"],
)
def test_servers_starting_together_on_a_fresh_folder_read_one_whole_key(
    load: Callable[[Path], bytes], tmp_path: Path
) -> None:
    for n in range(ROUNDS):
        folder = tmp_path / f"data{n}"
        keys = _race(load, folder)
        assert len(keys) == STARTS and len(set(keys)) == 1
        files = list(folder.iterdir())
        assert len(files) == 1, files  # no draft left behind
        assert files[0].stat().st_mode & 0o777 == 0o600
