"""uvicorn's ``websockets-sansio`` WebSocket protocol with one addition: a direct write of
already framed server messages, offered to the app in the ASGI scope.

Through ASGI every message costs a ``websocket.send`` dict, the middleware chain, websockets'
framing in Python and one ``transport.write`` (one system call) per message and connection.
A room's frame is the same bytes for every connection of a viewer seat, so the gateway frames
it once (``ahiko.rooms.outbox.Frame.wire``) and writes what is queued for a connection
in one call: ``scope["extensions"][RAW_WRITE](data) -> bool``. The bytes on the wire are what
websockets itself writes for a text message without extensions (RFC 6455 §5.2: server frames
are unmasked); the write is refused (False) unless the connection is open, its handshake done,
no close sent and no extension (per-message deflate) negotiated, and then the caller uses the
ASGI path.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

RAW_WRITE = "ahiko.websocket.write_frames"


class AhikoWebSocketProtocol(WebSocketsSansIOProtocol):
    async def run_asgi(self) -> None:
        extensions: dict[str, Any] = self.scope["extensions"]
        extensions[RAW_WRITE] = self.write_frames
        await super().run_asgi()

    def write_frames(self, data: bytes) -> bool:
        """Write already framed server messages; False when only the ASGI path may."""
        conn: Any = self.conn
        if (
            not self.handshake_complete
            or self.close_sent
            or conn.state is not State.OPEN
            or conn.extensions
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(data)
        return True
