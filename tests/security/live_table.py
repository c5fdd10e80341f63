"""A real Ahiko server process (``bench/load.py --serve``) and small synchronous clients."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import load_server as bench_load

PASSWORD = "correct horse"
CSRF = {"X-Ahiko-CSRF": "1"}
running_server = bench_load.running_server
ServerProcess = bench_load.ServerProcess


def sign_up(server: Any, username: str) -> str:
    """A new account; returns its session cookie."""
    response = httpx.post(
        f"{server.base}/api/accounts",
        json={"username": username, "password": PASSWORD},
        headers=CSRF,
    )
    assert response.status_code == 201, response.text
    return str(response.cookies["ahiko_session"])


def create_room(server: Any, cookie: str, **options: Any) -> str:
    response = httpx.post(
        f"{server.base}/api/rooms",
        json={"name": "Mesa", **options},
        headers={**CSRF, "Cookie": f"ahiko_session={cookie}"},
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def open_socket(
    server: Any, room_id: str, cookie: str | None = None, origin: str | None = None
) -> ClientConnection:
    headers = {"Cookie": f"ahiko_session={cookie}"} if cookie else {}
    url = f"ws://127.0.0.1:{server.port}/ws/rooms/{room_id}"
    return connect(
        url,
        additional_headers=headers,
        origin=None if origin is None else Origin(origin),
        open_timeout=10,
        proxy=None,
    )


def receive(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return found


def until(
    ws: ClientConnection, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    while True:
        frame = receive(ws, timeout)
        if predicate(frame):
            return frame
