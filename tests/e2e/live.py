"""A real Ahiko server in a thread for the end-to-end tests: fresh SQLite database, the real
app, rooms whose between-hands pause is shortened (the 2 s commitment display is kept) and
whose finished hands are archived for "Minhas mãos", as in production."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn

from ahiko.fairness.keys import load_or_create_signing_key
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.hand_archive import HandArchive
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.timing import Timing
from ahiko.server.app import create_app
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.migrate import upgrade

from .conftest import CSP

FAST = Timing(next_hand_delay_s=1.0)


class FastRooms(RoomRegistry):
    def create(self, config: RoomConfig, *args: Any, **kwargs: Any) -> RoomActor:
        return super().create(dataclasses.replace(config, timing=FAST), *args, **kwargs)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live_server(data_dir: Path) -> Iterator[str]:
    settings = Settings.from_env({}, data_dir=data_dir, port=_free_port())
    engine = make_engine(settings.resolved_database_url)
    upgrade(engine, settings.bot_reserve)
    engine.dispose()
    app = create_app(settings)

    @app.middleware("http")
    async def _csp(request, call_next):  # type: ignore[no-untyped-def]
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        return response

    app.state.room_registry = FastRooms(
        signing_key=load_or_create_signing_key(data_dir),
        room_options={"archive": HandArchive(app.state.services.engine)},
    )
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=settings.port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
