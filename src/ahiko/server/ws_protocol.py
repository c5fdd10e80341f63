"""uvicorn's ``websockets-sansio`` WebSocket protocol with one addition: a direct write of
already framed server messages, offered to the app in the ASGI scope (issue 21).

Through ASGI every message costs a ``websocket.send`` dict, the middleware chain, websockets'
framing in Python and one ``transport.write`` (one system call) per message and connection.
A room's frame is the same bytes for every connection of a viewer seat, so the gateway frames
it once (``ahiko.rooms.outbox.Frame.wire``) and writes what is queued for a connection
in one call: ``scope["extensions"][RAW_WRITE](data) -> bool``. The bytes on the wire are what
websockets itself writes for a text message without extensions (RFC 6455 §5.2: server frames
are unmasked); the write is refused (False) unless the connection is open, its handshake done,
no close sent and no extension (per-message deflate) negotiated, and then the caller uses the
ASGI path.

The read is direct too, once the app asks for it: ``scope["extensions"][RAW_READ](reader)``
hands every later text message to ``reader(text)`` as it is parsed, instead of queueing a
``websocket.receive`` event that the app's ``receive`` chain (middleware, Starlette, the
gateway's loop) awaits one message at a time. Through ASGI each message also pauses and
resumes the socket's reading (two ``epoll_ctl`` calls) and leaves a chain of waiting
coroutines per connection for the collector to walk. Binary messages, the close and the
disconnect still come through ``receive``; the reader applies the socket's frame limits
(``ahiko.server.security.FrameGuard``), which bound how much it can be handed before the
socket closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

RAW_WRITE = "ahiko.websocket.write_frames"
RAW_READ = "ahiko.websocket.read_text"


class AhikoWebSocketProtocol(WebSocketsSansIOProtocol):
    _text_reader: Callable[[str], None] | None = None

    async def run_asgi(self) -> None:
        extensions: dict[str, Any] = self.scope["extensions"]
        extensions[RAW_WRITE] = self.write_frames
        extensions[RAW_READ] = self.read_text
        await super().run_asgi()

    def read_text(self, reader: Callable[[str], None]) -> None:
        """From now on, text messages go to ``reader`` as they arrive, not to ``receive``."""
        self._text_reader = reader

    def send_receive_event_to_app(self) -> None:
        reader = self._text_reader
        if reader is None or self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        frames, self.frames = self.frames, []
        data = frames[0] if len(frames) == 1 else b"".join(frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:  # as the ASGI path answers it
            self.logger.exception("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        try:
            reader(text)
        except Exception:  # the reader's bug must not take the connection's parser with it
            self.logger.exception("The direct reader failed on a message.")

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
