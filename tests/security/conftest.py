"""Fixtures for the security tests (in-process app, TestClient)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from security_app import PASSWORD, make_app

from ahiko.server.services import CSRF_HEADER, Services


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path) -> Iterator[FastAPI]:
    found = make_app(sqlite_url, tmp_path)
    yield found
    services: Services = found.state.services
    services.engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A same-site client: it sends the CSRF header the web client sends."""
    with TestClient(app, headers={CSRF_HEADER: "1"}) as test_client:
        yield test_client


@pytest.fixture
def sign_up(client: TestClient) -> Callable[[str], dict[str, Any]]:
    def sign(username: str) -> dict[str, Any]:
        response = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
        assert response.status_code == 201, response.text
        found: dict[str, Any] = response.json()
        return found

    return sign
