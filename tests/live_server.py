"""The real application for tests: a cheap password hasher, rooms whose clocks run fast, and
a uvicorn server on a free loopback port in a thread. Importable from every test directory
(``tests/`` is on ``sys.path`` through the root conftest)."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from argon2 import PasswordHasher
from fastapi import FastAPI

from ahiko.rooms.clock import AsyncioClock
from ahiko.server.app import archiving_registry, create_app
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.server.ws_protocol import AhikoWebSocketProtocol

# argon2id still, with a cost low enough for tests; production uses the library defaults.
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
SPEED = 300.0  # the rule durations 300 times faster: fast, yet robust on a loaded 2-core machine


def fast_app(settings: Settings) -> FastAPI:
    """The real app whose rooms archive their hands and run SPEED times faster."""
    app = create_app(settings, password_hasher=FAST_HASHER)
    app.state.room_registry = archiving_registry(app, clock=AsyncioClock(speed=SPEED))
    # The room clocks run faster than the rules' durations, so a player's frames arrive much
    # faster than a person's: scale the per-socket frame allowance.
    app.state.security = dataclasses.replace(app.state.security, ws_frames=RateLimit(100_000, 1.0))
    return app


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(app: Any, port: int | None = None, ws: Any = AhikoWebSocketProtocol) -> Iterator[int]:
    """Serve ``app`` with uvicorn on 127.0.0.1 until the block ends; yields the port. The
    WebSocket protocol is that of ``ahiko serve`` (websockets-sansio with the direct write)."""
    port = free_port() if port is None else port
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws=ws,
            ws_per_message_deflate=False,  # as `ahiko serve`: the gateway's direct write applies
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def create_account(base_url: str, username: str, password: str) -> httpx.Response:
    """Create an account over HTTP; the answer carries the new session cookie."""
    response = httpx.post(
        f"{base_url}/api/accounts",
        json={"username": username, "password": password},
        headers={CSRF_HEADER: "1"},
    )
    assert response.status_code == 201, response.text
    return response
