"""Fixtures for the room tests: a lobby of wallet-backed rooms on a manual clock, and the real
application behind a test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ahiko_helpers import Ahiko
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ahiko.server.app import create_app
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from live_server import FAST_HASHER, fast_app, serving


@pytest.fixture
def account_server(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[str, FastAPI]]:
    """The real app served on a loopback port, on its own SQLite database: (address, app)."""
    app = fast_app(Settings(data_dir=tmp_path / "data", database_url=sqlite_url))
    try:
        with serving(app) as port:
            yield f"127.0.0.1:{port}", app
    finally:
        app.state.services.engine.dispose()


@pytest.fixture
def ahiko(sqlite_url: str) -> Iterator[Ahiko]:
    engine = make_engine(sqlite_url)
    yield Ahiko(engine)
    engine.dispose()


@pytest.fixture
def client(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    """The real app (Ahiko rooms opened at start) with cheap password hashing."""
    settings = Settings(data_dir=tmp_path / "data", database_url=sqlite_url)
    app = create_app(settings, password_hasher=FAST_HASHER)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as test_client:
        yield test_client
    app.state.services.engine.dispose()
