from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ahiko.server.app import create_app
from ahiko.server.services import CSRF_HEADER, Services
from ahiko.server.settings import Settings
from live_server import FAST_HASHER
from wall_clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=database_url)


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, password_hasher=FAST_HASHER)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as test_client:
        yield test_client
    services: Services = app.state.services
    services.engine.dispose()


@pytest.fixture
def services(client: TestClient) -> Services:
    found: Services = client.app.state.services  # type: ignore[attr-defined]
    return found


@pytest.fixture
def sign_up(client: TestClient) -> Callable[..., dict[str, Any]]:
    def sign(username: str = "ana", password: str = "correct horse") -> dict[str, Any]:
        response = client.post("/api/accounts", json={"username": username, "password": password})
        assert response.status_code == 201, response.text
        found: dict[str, Any] = response.json()
        return found

    return sign
