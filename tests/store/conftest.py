from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from ahiko.store.engine import make_engine


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()
