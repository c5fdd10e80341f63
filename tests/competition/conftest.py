"""A migrated database with people in it, for the competition tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_site import PeopleSite
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from live_server import fast_app


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    found = make_engine(sqlite_url)
    yield found
    found.dispose()


@pytest.fixture
def site(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The real app on a fresh SQLite database, with the CSRF header every request needs."""
    app = fast_app(Settings(data_dir=tmp_path / "data", database_url=sqlite_url))
    with PeopleSite(app, headers={CSRF_HEADER: "1"}) as client:
        yield client
