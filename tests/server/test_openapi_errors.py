"""``/openapi.json`` documents the errors the API really sends: every error answer of every
operation is the shared ``{"error", "message"}`` body (``ErrorBody``), FastAPI's own
``HTTPValidationError`` is gone, and the answers of the layers in front of the routes (the
security middleware, the CSRF header rule, FastAPI's body reading) are on every operation
they apply to."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ahiko.server.app import create_app
from ahiko.server.security import LOG_IN_ROUTE, SIGN_UP_ROUTE, UNSAFE_METHODS
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings

ERROR_REF = "#/components/schemas/ErrorBody"
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("openapi"))
    response = TestClient(create_app(settings)).get("/openapi.json")
    assert response.status_code == 200
    found: dict[str, Any] = response.json()
    return found


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_the_schema_has_the_api_operations(schema):
    found = {(method, path) for method, path, _ in operations(schema)}
    assert {SIGN_UP_ROUTE, LOG_IN_ROUTE, ("GET", "/api/me"), ("GET", "/api/hands")} <= found
    assert len(found) >= 20


def test_every_error_answer_is_the_shared_json_error_body(schema):
    for method, path, operation in operations(schema):
        errors = {s: r for s, r in operation["responses"].items() if s[0] in "45"}
        assert any(s.startswith("4") for s in errors), f"{method} {path} documents no 4xx"
        for status, response in errors.items():
            where = f"{method} {path} {status}"
            assert response.get("description"), where
            assert list(response["content"]) == ["application/json"], where
            assert response["content"]["application/json"]["schema"] == {"$ref": ERROR_REF}, where


def test_the_error_body_is_error_and_message(schema):
    body = schema["components"]["schemas"]["ErrorBody"]
    assert body["type"] == "object"
    assert set(body["required"]) == {"error", "message"}
    assert {name: p["type"] for name, p in body["properties"].items()} == {
        "error": "string",
        "message": "string",
    }


def test_no_operation_refers_to_fastapis_validation_error(schema):
    assert "HTTPValidationError" not in json.dumps(schema)
    assert "ValidationError" not in schema["components"]["schemas"]


def test_every_operation_that_validates_input_documents_422(schema):
    for method, path, operation in operations(schema):
        if operation.get("parameters") or operation.get("requestBody"):
            assert "422" in operation["responses"], f"{method} {path}"


def test_the_answers_in_front_of_the_routes_are_documented(schema):
    for method, path, operation in operations(schema):
        statuses = set(operation["responses"])
        where = f"{method} {path}"
        assert "413" in statuses, where  # body size, on every request
        assert ("403" in statuses) == (method in UNSAFE_METHODS), where  # origin, CSRF header
        assert "431" in statuses, where  # header size, on every request (issue 17)
        # Rate limits: the wall's on sign-up and log-in, room creation's own (issue 17),
        # player pages' (issue 40).
        limited = (method, path) in (
            SIGN_UP_ROUTE,
            LOG_IN_ROUTE,
            ("POST", "/api/rooms"),
            ("GET", "/api/players/{name}/profile"),
            ("GET", "/api/players/by-id/{user_id}/line"),
        )
        assert ("429" in statuses) == limited, where
        if (method, path) == ("POST", "/api/rooms"):  # a name the room refuses (invalid_text)
            assert "422" in statuses, where
            assert "invalid_text" in operation["responses"]["422"]["description"], where
        if "requestBody" in operation:
            assert "400" in statuses, where  # a JSON body that is not UTF-8


def test_rate_limited_answers_document_retry_after(schema):
    for route in (SIGN_UP_ROUTE, LOG_IN_ROUTE):
        method, path = route
        answer = schema["paths"][path][method.lower()]["responses"]["429"]
        assert answer["headers"]["Retry-After"]["schema"] == {"type": "integer"}


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("GET", "/api/me", {}, 401),
        ("POST", "/api/rooms", {"json": {"name": "x"}}, 403),  # no CSRF header
        ("POST", "/api/session", {"json": {}, "headers": {CSRF_HEADER: "1"}}, 422),
    ],
)
def test_what_is_sent_is_what_is_documented(tmp_path, schema, method, path, kwargs, status):
    client = TestClient(create_app(Settings(data_dir=tmp_path)))
    response = client.request(method, path, **kwargs)
    assert response.status_code == status
    assert set(response.json()) == {"error", "message"}
    assert str(status) in schema["paths"][path][method.lower()]["responses"]
