"""JSON errors: every error the API sends is ``{"error": code, "message": text}``.

The same body is what ``/openapi.json`` documents: ``ErrorBody`` is its schema, routers and
routes declare the answers they give with ``error_responses(...)``, and ``document_errors``
puts what a route cannot declare itself into the schema: the answers of the layers in front
of every route (``answers_before_routes``: the security middleware, the CSRF header rule),
FastAPI's 400 for a JSON body that is not UTF-8, and our ``invalid_request`` body in place of
FastAPI's own 422 ``HTTPValidationError``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ahiko.wallet.errors import WalletError

log = logging.getLogger(__name__)
WS_INTERNAL_ERROR = 1011
WS_REFUSED_BY_ERROR = 1008  # closed before the accept: the server answers the upgrade 403

ERROR_SCHEMA_REF = "#/components/schemas/ErrorBody"
# What each error status means on this API, with the codes it comes with; a route whose
# answer says more names it with ``error_responses(..., notes={status: text})``.
ERROR_DESCRIPTIONS: Mapping[int, str] = {
    400: (
        "The JSON body could not be read: it is not UTF-8 text (`http_error`) or it nests "
        "deeper than 32 levels (`too_deep`)."
    ),
    401: "Not signed in (`not_signed_in`): no valid session cookie.",
    403: (
        "Refused before the route ran: a cross-site request (`bad_origin`: a foreign `Origin` "
        "or `Sec-Fetch-Site`) or one without the `X-Ahiko-CSRF: 1` header (`csrf`)."
    ),
    404: "Not found.",
    409: "Refused: it conflicts with the current state.",
    413: (
        "The request body is larger than the server accepts (64 KiB by default), or its "
        "`Content-Length` is not a number (`too_large`)."
    ),
    431: (
        "The request headers together are larger than the server accepts (8 KiB by default, "
        "`headers_too_large`); refused before any of them is parsed."
    ),
    422: "Invalid request (`invalid_request`): a parameter or the body failed validation.",
    429: (
        "Too many attempts from this address (`rate_limited`, with `Retry-After` in seconds), "
        "too many failed logins (`too_many_attempts`), or too many sign-ins being checked at "
        "once (`busy`, with `Retry-After`)."
    ),
    500: "The server failed (`internal`; the details are in the server's log).",
    503: "Not available on this server (`unavailable`).",
}
RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again (with `rate_limited`).",
        "schema": {"type": "integer"},
    }
}


class ErrorBody(BaseModel):
    """The body of every error answer."""

    error: str = Field(description="A stable, machine-readable code, e.g. `not_signed_in`.")
    message: str = Field(description="What went wrong, for people.")


def error_responses(
    *statuses: int, notes: Mapping[int, str] | None = None
) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route or router that answers ``statuses`` with an ``ErrorBody``;
    ``notes`` replace the generic description of a status."""
    notes = notes or {}
    found: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {
            "model": ErrorBody,
            "description": notes.get(status) or ERROR_DESCRIPTIONS[status],
        }
        if status == 429:
            entry["headers"] = RETRY_AFTER
        found[status] = entry
    return found


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})

    def to_json(self) -> dict[str, Any]:
        """The refusal as plain JSON, to travel between nodes (``from_json`` on arrival)."""
        return {
            "status": self.status,
            "code": self.code,
            "message": self.message,
            "headers": self.headers,
        }

    @classmethod
    def from_json(cls, fields: Mapping[str, Any]) -> ApiError:
        return cls(fields["status"], fields["code"], fields["message"], fields["headers"])


def error_response(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


class AnswerBugsInJson:
    """Innermost ASGI middleware: an exception no route handled becomes a JSON 500
    ``internal`` that says nothing of it (a message could carry cards or secrets; the
    details go to the log, once). Inside the security middleware, so the answer carries
    the same headers as any other."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, send_tracked)
        except Exception:
            log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if started:  # too late to answer: the server closes the connection
                raise
            answer = error_response(500, "internal", "the server failed; the error is logged")
            await answer(scope, receive, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A socket whose handler raised is closed with 1011 (or refused, before it was
        accepted) and the error logged once; the middleware itself never fails."""
        state = {"accepted": False, "closed": False}

        async def send_tracked(message: Message) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] in ("websocket.close", "websocket.http.response.start"):
                state["closed"] = True
            await send(message)

        try:
            await self.app(scope, receive, send_tracked)
        except Exception:
            log.exception("unhandled error on socket %s", scope.get("path"))
            if state["closed"]:
                return
            code = WS_INTERNAL_ERROR if state["accepted"] else WS_REFUSED_BY_ERROR
            with contextlib.suppress(Exception):  # the client may be gone already
                await send({"type": "websocket.close", "code": code, "reason": "internal"})


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.code, error.message, error.headers)

    @app.exception_handler(WalletError)
    async def _wallet_error(_request: Request, error: WalletError) -> JSONResponse:
        return error_response(error.http_status, error.code, error.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        details = "; ".join(
            f"{'.'.join(str(part) for part in item['loc'][1:]) or 'body'}: {item['msg']}"
            for item in error.errors()
        )
        return error_response(422, "invalid_request", details or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return error_response(error.status_code, code, str(error.detail))


AnswersBeforeRoutes = Callable[[str, str], Iterable[int]]


def document_errors(app: FastAPI, answers_before_routes: AnswersBeforeRoutes) -> None:
    """Completes ``app``'s OpenAPI schema: every operation also documents the error statuses
    ``answers_before_routes(METHOD, path)`` says the layers in front of it may answer, one
    with a request body FastAPI's 400 for a body it cannot decode, and FastAPI's 422
    (``HTTPValidationError``, a body we never send) becomes our ``invalid_request``
    ``ErrorBody``."""
    build_schema = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _complete(build_schema(), answers_before_routes)
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]


def _complete(schema: dict[str, Any], answers_before_routes: AnswersBeforeRoutes) -> None:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    components.setdefault(
        "ErrorBody", ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    )
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            invalid = responses.get("422")
            if invalid is not None and _is_fastapi_validation_error(invalid):
                responses["422"] = _documented(422)
            statuses = set(answers_before_routes(method.upper(), path))
            if "requestBody" in operation:
                statuses.add(400)
            for status in statuses:
                responses.setdefault(str(status), _documented(status))
            operation["responses"] = dict(sorted(responses.items()))


def _is_fastapi_validation_error(response: Mapping[str, Any]) -> bool:
    content = response.get("content", {}).get("application/json", {})
    return bool(content.get("schema", {}).get("$ref", "").endswith("/HTTPValidationError"))


def _documented(status: int) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "description": ERROR_DESCRIPTIONS[status],
        "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA_REF}}},
    }
    if status == 429:
        entry["headers"] = RETRY_AFTER
    return entry
