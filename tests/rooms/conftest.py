"""Fixtures for the Ahiko room tests: a lobby of wallet-backed rooms on a manual clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ahiko_helpers import Ahiko

from ahiko.store.engine import make_engine


@pytest.fixture
def ahiko(sqlite_url: str) -> Iterator[Ahiko]:
    engine = make_engine(sqlite_url)
    yield Ahiko(engine)
    engine.dispose()
