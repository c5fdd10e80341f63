"""Frames encoded once however many connections receive them (issue 21).

A broadcast hands the same ``Frame`` object to every connection of one viewer seat (and one to
every connection for a public frame), so its JSON text — and the WebSocket bytes built from
it — are made once, not once per connection. The frames of one broadcast may also share
sub-objects (the new public events, the names, the board, the seats that show no card to the
viewer): registered with ``FrameGroup.share``, each is encoded once for the whole broadcast and
its text spliced into every frame that holds it.

The text of a frame is exactly ``json.dumps(frame, separators=(",", ":"))`` (the same bytes as
before; tests compare them), and a shared encoding never holds anything a viewer may not see:
only objects that are the *same object* in several viewers' frames are shared, and the frame
builders put a card in an object only for the viewers who may see it (``ahiko.poker.view``).

Frames are read-only once sent: a connection that wants to change one copies it.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii
from typing import Any

_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return str(encode_basestring_ascii(value))
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return _dumps(value)


class FrameGroup:
    """The frames of one broadcast and the sub-objects they share."""

    __slots__ = ("_shared", "_splice", "_texts")

    def __init__(self) -> None:
        self._shared: dict[int, Any] = {}  # id -> object (kept alive while the group lives)
        self._texts: dict[int, str] = {}
        self._splice: set[int] = set()

    def share(self, *objects: Any) -> None:
        """These objects appear in several frames of the broadcast: encode each once."""
        for obj in objects:
            self._shared[id(obj)] = obj

    def splice(self, *containers: Any) -> None:
        """These dicts or lists hold shared objects: encode them item by item so that the
        shared items' texts are reused."""
        for container in containers:
            self._shared[id(container)] = container  # alive while its id is a key here
            self._splice.add(id(container))

    def encode(self, obj: Any) -> str:
        key = id(obj)
        text = self._texts.get(key)
        if text is not None:
            return text
        if key in self._splice:
            if isinstance(obj, dict) and all(type(k) is str for k in obj):
                text = (
                    "{"
                    + ",".join(
                        f"{encode_basestring_ascii(k)}:{self.encode(v)}" for k, v in obj.items()
                    )
                    + "}"
                )
            elif type(obj) is list:
                text = "[" + ",".join(self.encode(v) for v in obj) + "]"
            else:
                text = _dumps(obj)
        elif type(obj) is dict or type(obj) is list:
            text = _dumps(obj)
        else:
            return _scalar(obj)
        if key in self._shared:
            self._texts[key] = text
        return text


class Frame(dict[str, Any]):
    """A frame sent to one or more connections; ``text()`` and ``wire()`` are computed once."""

    __slots__ = ("_group", "_text", "_wire")

    def __init__(self, payload: dict[str, Any], group: FrameGroup | None = None) -> None:
        super().__init__(payload)
        self._group = group
        self._text: str | None = None
        self._wire: bytes | None = None

    def text(self) -> str:
        """``json.dumps(self, separators=(",", ":"))``, made once."""
        if self._text is None:
            if self._group is None:
                self._text = _dumps(self)
            else:
                self._group.splice(self)
                self._text = self._group.encode(self)
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
