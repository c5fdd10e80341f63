"""A live server for end-to-end room tests: uvicorn on a free loopback port, in a thread,
with the rooms API and the table WebSocket; accounts are stood in for by an ``x-player``
header (the session lookup is one overridable dependency)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from random import Random
from typing import Any

import websockets
from fastapi import FastAPI, Request, WebSocket

from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.server import api_rooms, gateway, services
from live_server import SPEED, serving

# How long a player waits for the room's next frame while it plays: a bound on silence, not on
# the game, generous since CI shares its machine (a loaded one went 30 s without a frame).
SILENCE_S = 60


def header_player(headers: Any) -> services.Player | None:
    pid = headers.get("x-player")
    return None if not pid else services.Player(pid, pid.title())


async def ws_player(websocket: WebSocket) -> services.Player | None:
    return header_player(websocket.headers)


async def http_player(request: Request) -> services.Player | None:
    return header_player(request.headers)


def build_app() -> FastAPI:
    app = FastAPI()
    app.state.room_registry = RoomRegistry(clock=AsyncioClock(speed=SPEED))
    app.include_router(api_rooms.router)
    app.include_router(gateway.router)
    app.dependency_overrides[services.websocket_player] = ws_player
    app.dependency_overrides[services.http_player] = http_player
    return app


@contextmanager
def live_server() -> Iterator[tuple[str, FastAPI]]:
    app = build_app()
    with serving(app) as port:
        yield f"127.0.0.1:{port}", app


class Client:
    """A person at the table over a real WebSocket; plays checks, calls and small raises."""

    def __init__(self, address: str, room_id: str, pid: str | None, seed: int) -> None:
        self.url = f"ws://{address}/ws/rooms/{room_id}"
        self.pid = pid
        self.rng = Random(seed)
        self.frames: list[dict[str, Any]] = []
        self.ws: Any = None
        self._ids = 0
        self.seat: int | None = None

    async def open(self) -> None:
        headers = {"x-player": self.pid} if self.pid else {}
        self.ws = await websockets.connect(self.url, additional_headers=headers)

    async def send(self, t: str, **fields: Any) -> str:
        self._ids += 1
        frame_id = f"{self.pid}-{self._ids}"
        await self.ws.send(json.dumps({"t": t, "id": frame_id, **fields}))
        return frame_id

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        return frame

    async def until(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        while True:
            frame = await self.recv(timeout)
            if predicate(frame):
                return frame

    async def play(self, stop_kinds: tuple[str, ...] = ("closed", "tournament_over")) -> None:
        """Answer every turn of ours until the room ends."""
        while True:
            frame = await self.recv(SILENCE_S)
            if frame["t"] in stop_kinds:
                return
            if frame["t"] == "room":
                await self.maybe_reenter(frame["room"])
            if frame["t"] != "hand":
                continue
            view = frame["view"]
            legal = view.get("legal")
            if legal is None or view["to_act"] != view["viewer"]:
                continue
            await self.send("act", hand_no=frame["hand_no"], **self.choose(view, legal))

    async def maybe_reenter(self, room: dict[str, Any]) -> None:
        """R-RM-06: out of chips and out of the hand, ask for a new entry."""
        mine = next((s for s in room.get("seats", []) if s["player_id"] == self.pid), None)
        if (
            mine is not None
            and mine["stack"] == 0
            and room["hand_no"] is None
            and room["kind"] == "recreational"
        ):
            await self.send("new_entry")

    def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
        if legal["is_draw_phase"]:
            mine = next(s for s in view["seats"] if s["seat"] == view["viewer"])["cards"]
            return {
                "action": "discard",
                "cards": self.rng.sample(mine, self.rng.randint(0, legal["max_discards"])),
            }
        r = self.rng.random()
        if legal["bet_kind"] and r < 0.2:
            return {"action": legal["bet_kind"], "amount": legal["min_to"]}
        if r < 0.3 and legal["can_fold"] and not legal["can_check"]:
            return {"action": "fold"}
        return {"action": "check" if legal["can_check"] else "call"}

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
