"""A table socket that keeps the browser client's heartbeat rule (src/ahiko/web/js/
connection.js): it asks for ``ping`` frames (``?heartbeat=1``), and a socket on which nothing
was heard for ``SILENCE_FACTOR`` ping intervals is given up and opened again. The site's
addresses stand for its balancer: a socket given up is opened at the next one, as a balancer
sends a new connection to a node that answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import websockets

from ahiko.server.heartbeat import HEARTBEAT_S, SILENCE_FACTOR
from ahiko.server.services import SESSION_COOKIE

Frame = dict[str, Any]


class HeartbeatClient:
    def __init__(self, addresses: list[str], room_id: str, session: str) -> None:
        self.addresses = addresses
        self.room_id = room_id
        self.session = session
        self.at = 0  # index of the address the socket is on
        self.ws: Any = None
        self.silence_s = HEARTBEAT_S * SILENCE_FACTOR  # until a ping names its interval
        self.heard_at = 0.0
        self.pings = 0

    @property
    def address(self) -> str:
        return self.addresses[self.at]

    async def open(self) -> None:
        """Connect at the current address; connecting counts as hearing (as in the browser,
        whose watch starts when the socket is made)."""
        self.heard_at = time.monotonic()
        headers = {
            "Cookie": f"{SESSION_COOKIE}={self.session}",
            "Origin": f"http://{self.address}",
        }
        url = f"ws://{self.address}/ws/rooms/{self.room_id}?heartbeat=1"
        self.ws = await asyncio.wait_for(
            websockets.connect(url, additional_headers=headers, ping_interval=None),
            self.silence_s,
        )

    async def next_frame(self) -> Frame | None:
        """The next frame other than a ping; None once the socket was silent past the bound
        (it is then given up)."""
        while True:
            left = self.heard_at + self.silence_s - time.monotonic()
            try:
                text = await asyncio.wait_for(self.ws.recv(), max(0.0, left))
            except TimeoutError:
                await self.give_up()
                return None
            self.heard_at = time.monotonic()
            frame: Frame = json.loads(text)
            if frame["t"] == "ping":
                self.pings += 1
                self.silence_s = float(frame["every"]) * SILENCE_FACTOR
                continue
            return frame

    async def until_silent(self) -> float:
        """Read frames until the socket is given up; answers when (``time.monotonic``)."""
        while await self.next_frame() is not None:
            pass
        return time.monotonic()

    async def give_up(self) -> None:
        ws, self.ws = self.ws, None
        self.at = (self.at + 1) % len(self.addresses)
        # A frozen peer never answers the close: do not wait for it.
        closing = asyncio.create_task(ws.close())
        with contextlib.suppress(TimeoutError, Exception):
            await asyncio.wait_for(asyncio.shield(closing), 0.1)
        if not closing.done():
            ws.transport.abort()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
