"""The node's log: text by default, one JSON object a line with ``AHIKO_LOG_FORMAT=json``.

Both formats carry the same events at the same levels; each line names what it is about,
from ``ahiko.rooms.log_context``: the request (an HTTP request's or a table socket's id,
``X-Request-ID`` when the balancer sends one), the command (the id the client gave its
frame), the room, the account, and the node. A client's mistake (a refused request, a frame
that fails validation, a closed socket) is logged as one line with what was wrong: its
traceback says nothing about the server and is left out. A bug keeps its traceback.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import socket
import sys
import time
from typing import Any, TextIO

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from ahiko.poker.actions import IllegalAction
from ahiko.rooms.config import RoomConfigError
from ahiko.rooms.log_context import close_scope, current_scope, open_scope
from ahiko.server.errors import ApiError

FORMAT_ENV = "AHIKO_LOG_FORMAT"
LEVEL_ENV = "AHIKO_LOG_LEVEL"
FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
REQUEST_HEADER = b"x-request-id"
_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:-]{1,64}")  # a balancer's id, else ours
SCOPE_FIELDS = ("request", "command", "room", "account")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s%(where)s"
access_log = logging.getLogger("ahiko.access")

# Exceptions a client causes: what was wrong is in their message, never in the server's code.
CLIENT_MISTAKES: tuple[type[BaseException], ...] = (
    RequestValidationError,
    ValidationError,
    WebSocketDisconnect,
    ClientDisconnect,
    IllegalAction,
    RoomConfigError,
    json.JSONDecodeError,
)


def is_client_mistake(error: BaseException) -> bool:
    if isinstance(error, ApiError):
        return error.status < 500
    return isinstance(error, CLIENT_MISTAKES)


def log_format(env: Any = None) -> str:
    """``AHIKO_LOG_FORMAT`` (``text`` by default); a ValueError naming the choices else."""
    chosen = (os.environ if env is None else env).get(FORMAT_ENV, "").strip().lower() or "text"
    if chosen not in FORMATS:
        raise ValueError(f"{FORMAT_ENV} must be one of {', '.join(FORMATS)}, not {chosen!r}")
    return chosen


def log_level(env: Any = None) -> str:
    """``AHIKO_LOG_LEVEL`` (``INFO`` by default); a ValueError naming the choices else."""
    chosen = (os.environ if env is None else env).get(LEVEL_ENV, "").strip().upper() or "INFO"
    if chosen not in LEVELS:
        raise ValueError(f"{LEVEL_ENV} must be one of {', '.join(LEVELS)}, not {chosen!r}")
    return chosen


class ScopeFilter(logging.Filter):
    """Adds the current ``LogScope``'s fields and the node's name to every record, and takes
    the traceback off a client's mistake (its kind and message are kept as ``mistake``)."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        scope = current_scope()
        fields = {} if scope is None else scope.fields()
        for name in SCOPE_FIELDS:
            setattr(record, name, fields.get(name))
        record.node = self.node
        record.mistake = None
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and is_client_mistake(error):
            record.mistake = f"{type(error).__name__}: {error}"
            record.exc_info, record.exc_text = None, None
        where = " ".join(
            f"{name}={value}"
            for name in (*SCOPE_FIELDS, "mistake")
            if (value := getattr(record, name)) is not None
        )
        record.where = f" @ {where}" if where else ""
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the scope's
    fields that are known, the node, and ``traceback`` for a bug."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "node": getattr(record, "node", None),
        }
        for name in (*SCOPE_FIELDS, "mistake"):
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def startup_line(chosen: str, node: str, level: str, message: str) -> str:
    """A line the command prints before the log is set up (a warning, a refusal to start):
    ``level: message`` in text, as it always was; an object like the log's in JSON."""
    if chosen != "json":
        return f"{level}: {message}"
    moment = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = {"time": moment, "level": level.upper(), "logger": "ahiko.cli", "message": message}
    return json.dumps({**line, "node": node}, ensure_ascii=False)


def node_label(port: int | None) -> str:
    host = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname())
    return host if port is None else f"{host}:{port}"


def configure_logging(
    chosen: str, node: str, level: str = "INFO", stream: TextIO | None = None
) -> logging.Handler:
    """The root logger writes ``chosen``'s lines to ``stream`` (stderr); uvicorn's loggers
    go through it too (``uvicorn.run(..., log_config=None)``). Returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(ScopeFilter(node))
    handler.setFormatter(JsonFormatter() if chosen == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    return handler


class LogScopeMiddleware:
    """Opens a ``LogScope`` for each request and table socket (its id from the balancer's
    ``X-Request-ID`` when it is a plain token, else a new one, sent back in the same header),
    and writes one access line per HTTP request once it is answered: method, path, status,
    time taken."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = _request_id(scope["headers"])
        token = open_scope(request=request_id)
        try:
            if scope["type"] == "websocket":
                await self.app(scope, receive, send)
                return
            await self._answered(scope, receive, send, request_id)
        finally:
            close_scope(token)

    async def _answered(self, scope: Scope, receive: Receive, send: Send, request_id: str) -> None:
        started = time.perf_counter()
        status = 500  # an answer never started is a bug the error middleware logged

        async def with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", []),
                    (REQUEST_HEADER, request_id.encode()),
                ]
            await send(message)

        try:
            await self.app(scope, receive, with_id)
        finally:
            took_ms = (time.perf_counter() - started) * 1000
            access_log.info("%s %s %d %.1f ms", scope["method"], scope["path"], status, took_ms)


def _request_id(headers: list[tuple[bytes, bytes]]) -> str:
    for name, value in headers:
        if name == REQUEST_HEADER and _REQUEST_ID.fullmatch(value):
            return value.decode("ascii")
    return secrets.token_hex(8)
