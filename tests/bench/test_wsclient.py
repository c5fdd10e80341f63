"""The load benches' own WebSocket client (``bench/wsclient.py``) against a real WebSocket
server (``websockets``' own, on a free loopback port): what it sends arrives masked and whole,
what it receives arrives as sent (large, fragmented, many in one read), a ping is answered, and
a close shows as ``websockets.ConnectionClosed`` with the server's code and reason."""

from __future__ import annotations

import asyncio
import doctest
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import websockets
from websockets.asyncio.server import ServerConnection, serve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import wsclient

Handler = Callable[[ServerConnection], Awaitable[None]]


@asynccontextmanager
async def server(handler: Handler) -> AsyncIterator[str]:
    async with serve(handler, "127.0.0.1", 0, ping_interval=None) as running:
        port = next(iter(running.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws/rooms/r1?since=3"


def test_its_doctests_pass() -> None:
    assert doctest.testmod(wsclient).failed == 0


def test_messages_both_ways_whole_and_in_order() -> None:
    seen: dict[str, object] = {}

    async def echo(ws: ServerConnection) -> None:
        seen["path"] = ws.request.path if ws.request else None
        seen["cookie"] = ws.request.headers.get("Cookie") if ws.request else None
        async for message in ws:
            if message == "end":
                break
            await ws.send(message)
        await ws.send("x" * 70_000)  # a 64-bit length
        await ws.send(["frag", "mented ", "ção"])  # fragments of one message
        await ws.wait_closed()

    async def main() -> list[str]:
        async with server(echo) as url:
            client = await wsclient.connect(url, additional_headers={"Cookie": "s=1"})
            sent = ["", "a", "é" * 100, "y" * 300, "z" * 66_000]
            for text in sent:
                await client.send(text)
            got = [await client.recv() for _ in sent]
            assert got == sent
            await client.send("end")
            last = [await client.recv(), await client.recv()]
            await client.close()
            return last

    big, fragmented = asyncio.run(main())
    assert big == "x" * 70_000 and fragmented == "fragmented ção"
    assert seen == {"path": "/ws/rooms/r1?since=3", "cookie": "s=1"}


def test_a_ping_is_answered_and_a_close_names_its_code() -> None:
    async def pinging(ws: ServerConnection) -> None:
        pong = await ws.ping(b"are you there")
        await asyncio.wait_for(pong, 5)
        await ws.send("pong came")
        await ws.close(4409, "the table moved")

    async def main() -> tuple[list[str], websockets.ConnectionClosed]:
        async with server(pinging) as url:
            client = await wsclient.connect(url)
            got: list[str] = []
            with pytest.raises(websockets.ConnectionClosed) as closed:
                async for message in client:
                    got.append(message)
            return got, closed.value

    got, closed = asyncio.run(main())
    assert got == ["pong came"]
    assert closed.rcvd is not None and closed.rcvd.code == 4409
    assert "the table moved" in str(closed)


def test_a_refused_handshake_is_an_invalid_handshake_naming_the_answer() -> None:
    async def refusing() -> None:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            writer.close()

        plain = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = plain.sockets[0].getsockname()[1]
        async with plain:
            with pytest.raises(websockets.InvalidHandshake, match="403"):
                await wsclient.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5)

    asyncio.run(refusing())
