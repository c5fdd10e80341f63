"""Signed-in players of a cluster's Ahiko rooms, for the tests and the failover drill: HTTP
with the session cookie (sign-up, buy-in, wallet) and the table WebSocket to any node, which
reconnects after a close as the browser client does (``?since=N&epoch=E``)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import websockets

from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE

Frame = dict[str, Any]
T = TypeVar("T")


class HousePlayer:
    def __init__(self, address: str, room_id: str) -> None:
        self.address = address  # the node its socket and HTTP calls go to
        self.room_id = room_id
        self.http = httpx.AsyncClient(headers={CSRF_HEADER: "1"}, timeout=15)
        self.ws: Any = None
        self.frames: list[Frame] = []
        self.user_id = ""
        self.name = ""
        self.seq: int | None = None
        self.epoch: str | None = None
        self.closes: list[int] = []  # close codes seen
        self._ids = 0

    def url(self, path: str) -> str:
        return f"http://{self.address}{path}"

    async def sign_up(self, name: str) -> None:
        response = await self.http.post(
            self.url("/api/accounts"), json={"username": name, "password": "a long pass phrase"}
        )
        assert response.status_code == 201, response.text
        self.user_id = str(response.json()["id"])
        self.name = name

    async def open(self, address: str | None = None) -> None:
        """Connect (or reconnect) the table socket, naming the last event applied."""
        self.address = address or self.address
        query = ""
        if self.seq is not None and self.epoch is not None:
            query = f"?since={self.seq}&epoch={self.epoch}"
        await self.connect(f"/ws/rooms/{self.room_id}{query}")

    async def connect(self, path: str) -> None:
        """The table socket at ``path`` (with its query) on ``address``, signed in."""
        headers = {
            "Cookie": f"{SESSION_COOKIE}={self.http.cookies[SESSION_COOKIE]}",
            "Origin": f"http://{self.address}",
        }
        # A loaded machine may take longer than websockets' 10 s to answer the handshake.
        self.ws = await websockets.connect(
            f"ws://{self.address}{path}", additional_headers=headers, open_timeout=60
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()

    async def post(self, route: str, body: dict[str, Any]) -> httpx.Response:
        return await self.http.post(self.url(f"/api/ahiko/rooms/{self.room_id}/{route}"), json=body)

    async def wallet_on(self, address: str) -> int:
        """The balance as node ``address`` answers it."""
        response = await self.http.get(f"http://{address}/api/wallet")
        assert response.status_code == 200, response.text
        return int(response.json()["balance"])

    async def statement_on(self, address: str) -> list[dict[str, Any]]:
        response = await self.http.get(f"http://{address}/api/wallet/statement")
        assert response.status_code == 200, response.text
        body = response.json()
        return list(body["lines"])

    async def send(self, t: str, **fields: Any) -> str:
        self._ids += 1
        frame_id = f"f{self._ids}"
        await self.ws.send(json.dumps({"t": t, "id": frame_id, **fields}))
        return frame_id

    async def recv(self, timeout: float = 30) -> Frame:
        frame: Frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(frame)
        if frame.get("epoch") is not None:
            if frame["t"] == "snapshot" or frame["epoch"] != self.epoch:
                self.epoch = frame["epoch"]
            if isinstance(frame.get("seq"), int):
                self.seq = frame["seq"]
        return frame

    async def until(
        self, predicate: Callable[[Frame], bool], *, play: bool = True, timeout: float = 60
    ) -> Frame:
        """Frames until ``predicate``; meanwhile our turns are played (check or call)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: the frame never came")
            frame = await self.recv(timeout=left)
            if predicate(frame):
                return frame
            if play:
                await self.play_turn(frame)

    async def play_turn(self, frame: Frame) -> None:
        if frame["t"] != "hand":
            return
        view = frame["view"]
        legal = view.get("legal")
        if legal is not None and view["to_act"] == view["viewer"] and view.get("result") is None:
            action = "check" if legal.get("can_check") else "call"
            await self.send("act", hand_no=frame["hand_no"], action=action)

    async def resume(self, timeout: float) -> tuple[Frame, float]:
        """After the socket closed: reconnect until a node serves the room again (the
        browser's loop); answers the first frame of the new run and when it came."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                await self.open()
                frame = await self.recv(timeout=max(0.1, deadline - time.monotonic()))
            except (OSError, websockets.ConnectionClosed, TimeoutError) as error:
                code = getattr(getattr(error, "rcvd", None), "code", None)
                if code is not None:
                    self.closes.append(code)
                await asyncio.sleep(0.05)
                continue
            if frame["t"] == "error":  # no room here yet: try again
                await asyncio.sleep(0.05)
                continue
            return frame, time.monotonic()
        raise AssertionError(f"{self.name}: the room was not served again within {timeout} s")

    async def drain_until_closed(self, timeout: float) -> int:
        """Frames until the server closes the socket; answers its close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                await self.recv(timeout=max(0.1, deadline - time.monotonic()))
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            self.closes.append(code)
            return code
        raise AssertionError(f"{self.name}: the socket stayed open {timeout} s")


def seat_of(room: Frame, user_id: str) -> dict[str, Any] | None:
    for seat in room.get("seats", []):
        if seat.get("player_id") == user_id:
            return dict(seat)
    return None


async def play_while(players: list[HousePlayer], work: Awaitable[T]) -> T:
    """``work`` (a ledger check, a node starting) while the players keep reading and playing
    their turns: a drill that stopped reading between rounds would find the table's clocks
    had played on without it, and read its frames late."""
    task = asyncio.ensure_future(work)

    async def keep_playing(player: HousePlayer) -> None:
        while not task.done():
            try:  # recv is safe to cancel in websockets: no frame is lost
                frame = await player.recv(timeout=0.2)
            except TimeoutError:
                continue
            await player.play_turn(frame)

    await asyncio.gather(*(keep_playing(p) for p in players))
    return task.result()
