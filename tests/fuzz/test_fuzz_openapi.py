"""Schemathesis against ``/openapi.json`` (issue 9): for generated requests to every route,
signed in and with the CSRF header, no 5xx answer, every status is one the route documents
(its errors included: ``ahiko.server.errors.error_responses`` and ``document_errors``), and
every answer matches the schema documented for that status (JSON where JSON is promised, the
``{"error", "message"}`` body for errors). A short, derandomized run; the long one:
``FUZZ_EXAMPLES=300 pytest tests/fuzz/test_fuzz_openapi.py``."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import schemathesis
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ahiko.server.app import create_app
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.migrate import upgrade

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
_DATA = Path(tempfile.mkdtemp(prefix="ahiko-schemathesis-"))


def _app_with_session() -> tuple[Any, str]:
    settings_ = Settings(data_dir=_DATA)
    engine = make_engine(settings_.resolved_database_url)
    upgrade(engine, settings_.bot_reserve)
    engine.dispose()
    app = create_app(settings_, password_hasher=PasswordHasher(time_cost=1, memory_cost=1024))
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        response = client.post("/api/accounts", json={"username": "fuzz", "password": "fuzz-pass"})
        assert response.status_code == 201, response.text
        return app, str(response.cookies[SESSION_COOKIE])


APP, TOKEN = _app_with_session()
# The address rate limits would answer most sign-ups and log-ins with 429 before the route
# runs (tests/security covers them); here the routes themselves are fuzzed.
APP.state.security = replace(
    APP.state.security, sign_up=RateLimit(1_000_000, 1.0), log_in=RateLimit(1_000_000, 1.0)
)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
HEADERS = {CSRF_HEADER: "1", "Cookie": f"{SESSION_COOKIE}={TOKEN}"}
LOG_OUT = ("DELETE", "/api/session")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    content_type_conformance,
]


@SCHEMA.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_openapi_routes_answer_documented_statuses_and_schemas(case: Any) -> None:
    response = case.call_and_validate(headers=_headers_for(case), checks=CHECKS)
    assert response.status_code < 500


def _headers_for(case: Any) -> dict[str, str]:
    """The shared session, except for logging out: that ends a session of its own, or every
    case after it would run signed out."""
    if (case.method.upper(), case.path) != LOG_OUT:
        return HEADERS
    _user, token = APP.state.services.accounts.log_in("fuzz", "fuzz-pass", "fuzz-log-out")
    return {CSRF_HEADER: "1", "Cookie": f"{SESSION_COOKIE}={token}"}
