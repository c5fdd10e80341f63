"""Frames encoded once however many connections receive them (issue 21).

A broadcast hands the same ``Frame`` object to every connection of one viewer seat (and one to
every connection for a public frame), so its JSON text — and the WebSocket bytes built from
it — are made once, not once per connection. A connection only ever shares a ``Frame`` with
connections that view the table from the same seat (or, for a public frame, with every one):
no card of another seat enters an encoding it receives.

The text of a frame is exactly ``json.dumps(frame, separators=(",", ":"))``: the same bytes as
before sharing. Frames are read-only once sent: a connection that wants to change one copies
it.
"""

from __future__ import annotations

import json
from typing import Any

_dumps = json.JSONEncoder(separators=(",", ":")).encode


class Frame(dict[str, Any]):
    """A frame sent to one or more connections; ``text()`` and ``wire()`` are computed once."""

    __slots__ = ("_text", "_wire")

    def __init__(self, payload: dict[str, Any]) -> None:
        super().__init__(payload)
        self._text: str | None = None
        self._wire: bytes | None = None

    def text(self) -> str:
        """``json.dumps(self, separators=(",", ":"))``, made once."""
        if self._text is None:
            self._text = _dumps(self)
        return self._text

    def wire(self) -> bytes:
        """``text_frame(self.text())``, made once for every connection that gets the frame."""
        if self._wire is None:
            self._wire = text_frame(self.text())
        return self._wire


def text_frame(text: str) -> bytes:
    """The unmasked WebSocket text frame a server sends for ``text`` (RFC 6455 §5.2): what
    ``websockets`` writes for a text message without extensions."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 65536:
        head = bytes((0x81, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + size.to_bytes(8, "big")
    return head + payload


def frame_text(frame: dict[str, Any]) -> str:
    """The JSON text of any frame: a ``Frame``'s cached one, else encoded now."""
    if isinstance(frame, Frame):
        return frame.text()
    return _dumps(frame)


def frame_wire(frame: dict[str, Any]) -> bytes:
    """The WebSocket bytes of any frame: a ``Frame``'s cached ones, else framed now."""
    if isinstance(frame, Frame):
        return frame.wire()
    return text_frame(_dumps(frame))
