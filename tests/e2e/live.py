"""A real Ahiko server in a thread for the end-to-end tests: fresh SQLite database, the real
app, rooms whose between-hands pause is shortened (the 2 s commitment display is kept) and
whose finished hands are archived for "Minhas mãos", as in production."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ahiko.fairness.keys import load_or_create_signing_key
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.finished.archive import HandArchive
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.timing import Timing
from ahiko.server.app import create_app
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.migrate import upgrade
from live_server import free_port, serving

from .conftest import CSP

FAST = Timing(next_hand_delay_s=1.0)


class FastRooms(RoomRegistry):
    def create(self, config: RoomConfig, *args: Any, **kwargs: Any) -> RoomActor:
        return super().create(dataclasses.replace(config, timing=FAST), *args, **kwargs)


@contextmanager
def live_server(data_dir: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    with live_app(data_dir, env) as (url, _app):
        yield url


@contextmanager
def live_app(data_dir: Path, env: dict[str, str] | None = None) -> Iterator[tuple[str, Any]]:
    """``live_server`` that also yields the app: a test may look at its rooms, or run
    coroutines on the server's loop (``app.state.test_loop``, known once a request came)."""
    settings = Settings.from_env(env or {}, data_dir=data_dir, port=free_port())
    engine = make_engine(settings.resolved_database_url)
    upgrade(engine, settings.bot_reserve)
    engine.dispose()
    app = create_app(settings)

    @app.middleware("http")
    async def _csp(request, call_next):  # type: ignore[no-untyped-def]
        app.state.test_loop = asyncio.get_running_loop()
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        return response

    app.state.room_registry = FastRooms(
        signing_key=load_or_create_signing_key(data_dir),
        room_options={"archive": HandArchive(app.state.services.engine)},
    )
    with serving(app, port=settings.port, ws="auto"):
        yield f"http://127.0.0.1:{settings.port}", app
