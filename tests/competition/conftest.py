"""A migrated database with people in it, for the competition tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from ahiko.store.engine import make_engine


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    found = make_engine(sqlite_url)
    yield found
    found.dispose()
