"""The load benches' WebSocket client: the few calls of ``websockets``' asyncio client that
the simulated players use (``connect``, ``recv``, ``async for``, ``send``, ``close``), on a
plain ``asyncio.Protocol`` (RFC 6455: the opening handshake, masked text frames out,
unmasked frames in, ping answered, close).

Why not ``websockets`` itself: the players run beside the server on the same two cores, and
the library's general machinery (its sans-I/O parser generator, an assembler and a future per
message) cost the players more CPU per frame than the server spent making it. What the server
is measured against should be cheaper than the server. A closed connection raises
``websockets.ConnectionClosed`` (with the close code and reason received), a refused
handshake ``websockets.InvalidHandshake``, so the benches read the same errors either way.

>>> mask_payload(b"Hi!", b"\\x01\\x02\\x03\\x04")
b'Ik"'
>>> mask_payload(mask_payload(b"any text at all", b"abcd"), b"abcd")
b'any text at all'
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections import deque
from typing import Any, cast
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.frames import Close

OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
MAX_HEADER_BYTES = 16 * 1024


def mask_payload(payload: bytes, mask: bytes) -> bytes:
    """``payload`` XOR the 4-byte ``mask`` repeated (RFC 6455 §5.3), as one big integer."""
    size = len(payload)
    if size == 0:
        return payload
    key = (mask * (size // 4 + 1))[:size]
    masked = int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")
    return masked.to_bytes(size, "big")


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One final, masked frame, as a client must send it."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    mask = os.urandom(4)
    return head + mask + mask_payload(payload, mask)


class ClientConnection(asyncio.Protocol):
    """One client socket: its text messages queue as ``str`` until read."""

    def __init__(self, request: bytes) -> None:
        self._request = request
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._messages: deque[str] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._fragments: list[bytes] = []
        self._received_close: Close | None = None
        self._sent_close: Close | None = None
        self._closed = False

    # -- asyncio.Protocol ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self._transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._handshake.done():
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self._buffer) > MAX_HEADER_BYTES:
                    self._fail_handshake("the server's response headers are too long")
                return
            status_line = bytes(self._buffer[: self._buffer.find(b"\r\n")])
            if status_line.split(b" ", 2)[1:2] != [b"101"]:
                self._fail_handshake(f"the server answered {status_line.decode(errors='replace')}")
                return
            del self._buffer[: end + 4]
            self._handshake.set_result(None)
        self._read_frames()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        if not self._handshake.done():
            self._handshake.set_exception(exc or ConnectionResetError("closed in the handshake"))
        self._wake()

    # -- reading ------------------------------------------------------------------------

    def _read_frames(self) -> None:
        buffer = self._buffer
        start = 0
        while True:
            if len(buffer) - start < 2:
                break
            first, second = buffer[start], buffer[start + 1]
            size, head = second & 0x7F, 2
            if size == 126:
                if len(buffer) - start < 4:
                    break
                size, head = int.from_bytes(buffer[start + 2 : start + 4], "big"), 4
            elif size == 127:
                if len(buffer) - start < 10:
                    break
                size, head = int.from_bytes(buffer[start + 2 : start + 10], "big"), 10
            if second & 0x80:  # a server never masks its frames (RFC 6455 §5.1)
                self._protocol_error("the server sent a masked frame")
                return
            if len(buffer) - start < head + size:
                break
            payload = bytes(buffer[start + head : start + head + size])
            start += head + size
            self._on_frame(first & 0x0F, bool(first & 0x80), payload)
        if start:
            del buffer[:start]

    def _on_frame(self, opcode: int, final: bool, payload: bytes) -> None:
        if opcode in (OP_TEXT, OP_BINARY, OP_CONTINUATION):
            self._fragments.append(payload)
            if final:
                whole = b"".join(self._fragments)
                self._fragments = []
                self._messages.append(whole.decode())
                self._wake()
        elif opcode == OP_PING:
            self._write(client_frame(OP_PONG, payload))
        elif opcode == OP_CLOSE:
            self._received_close = Close.parse(payload) if payload else Close(1005, "")
            if self._sent_close is None:  # the server closed first: the close echoed
                self._sent_close = self._received_close
                self._write(client_frame(OP_CLOSE, payload))
            if self._transport is not None:
                self._transport.close()

    def _closed_error(self) -> ConnectionClosed:
        received, sent = self._received_close, self._sent_close
        if received is None or sent is None:
            return ConnectionClosed(received, sent)
        return ConnectionClosed(received, sent, rcvd_then_sent=sent is received)

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def recv(self) -> str:
        while not self._messages:
            if self._closed or self._received_close is not None:
                raise self._closed_error()
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._messages.popleft()

    def __aiter__(self) -> ClientConnection:
        return self

    async def __anext__(self) -> str:
        return await self.recv()

    # -- writing ------------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(data)

    async def send(self, text: str) -> None:
        if self._closed or self._sent_close is not None:
            raise self._closed_error()
        self._write(client_frame(OP_TEXT, text.encode()))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self._sent_close is None and not self._closed:
            self._sent_close = Close(code, reason)
            self._write(client_frame(OP_CLOSE, self._sent_close.serialize()))
        if self._transport is not None:
            self._transport.close()

    def _protocol_error(self, why: str) -> None:
        self._received_close = Close(1002, why)
        if self._transport is not None:
            self._transport.abort()

    def _fail_handshake(self, why: str) -> None:
        self._handshake.set_exception(InvalidHandshake(why))
        if self._transport is not None:
            self._transport.abort()


async def connect(
    url: str,
    *,
    additional_headers: dict[str, str] | None = None,
    open_timeout: float = 10.0,
    **_ignored: Any,  # websockets' options the benches pass (ping_interval=None: none sent)
) -> ClientConnection:
    """Open a ``ws://`` connection (no TLS: the benches talk to loopback servers)."""
    parts = urlsplit(url)
    host = parts.hostname
    if parts.scheme != "ws" or host is None:
        raise ValueError(f"not a ws:// URL: {url}")
    port = parts.port or 80
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in (additional_headers or {}).items()),
    ]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
    loop = asyncio.get_running_loop()

    async def opened() -> ClientConnection:
        _, connection = await loop.create_connection(lambda: ClientConnection(request), host, port)
        await connection._handshake
        return connection

    return await asyncio.wait_for(opened(), open_timeout)
