"""What leaves a room: numbered, immutable, serialisable frames addressed by connection id.

The room never holds a subscriber object. It knows connections only as ids (with the player
id behind each) and hands every frame to one ``Deliver`` callable: in-process that is the
actor's ``Subscribers``; in a cluster (DESIGN.md principle 6) a relay publishing to each
connection's channel. A ``Frame`` is a value: built once per viewer seat (once per table for a
public frame), encoded to JSON at most once (``text``) and framed for the WebSocket at most
once (``wire``), shared by every connection that sees the same thing. A connection shares a
``Frame`` only with connections that view the table from the same seat (or, for a public
frame, with every one), so no card of another seat enters an encoding it receives.

The ``FrameBuffer`` keeps the last numbered frames, as each seat saw them, so a client that
reconnects with the number of the last frame it got is sent what it missed, in order
(lila-ws ``History``); when the gap is older than the buffer it gets a snapshot instead. It
keeps the frames as their wire bytes, not as the dicts: a hand frame is a tree of a few
hundred small objects, and a thousand players' rooms holding 256 frames per seat that way
took 750 MiB and slowed every collection of the garbage collector (the load bench's p99 went
from 17 to 42 ms); bytes are one object the collector never scans.
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import orjson

#: How many numbered frames a room keeps for reconnecting clients (a few hands' worth)...
FRAME_BUFFER_SIZE = 256
#: ...and at most this many bytes of them, every seat's copy counted: a reconnect after a
#: dropped connection (seconds) needs tens of frames; a longer gap gets a snapshot.
FRAME_BUFFER_BYTES = 256 * 1024


def new_epoch() -> str:
    """A token for one run of a room by one owner (11 URL-safe characters). ``seq`` starts
    again at 0 with every run, so a frame is named by ``(epoch, seq)``: a client that sees
    another epoch knows the room was reopened (a restart, a new owner), not that it missed
    frames, and a reconnect's ``since`` is only replayed within its own epoch."""
    return secrets.token_urlsafe(8)


def _dumps(frame: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON, the bytes ``json.dumps(frame, separators=(",", ":"),
    ensure_ascii=False)`` would give, about ten times faster (the standard library's
    encoder was 30 of the 50 µs of CPU each delivered frame cost). Frames' keys are text, and
    orjson's option for other keys (a seat number, written as ``"3"`` like ``json.dumps``)
    made every encoding 2.7 times slower (13.8 -> 5.2 µs a hand frame): it is used only for
    the frame that needs it."""
    try:
        return orjson.dumps(frame)
    except TypeError:  # a key that is not text (or a value orjson cannot encode: raises again)
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS)


#: The compact JSON encoder for other messages of the server (the cluster relay's).
encode_json = _dumps


class Frame(dict[str, Any]):
    """One outbound frame ``{"t": kind, "seq": n, "epoch": e, ...body}`` (``epoch`` when the
    frame comes from a room: ``new_epoch``): a JSON object that refuses to
    change (treat the values inside as frozen too). It is a ``dict`` so the C JSON encoder
    takes it as it is; ``text()`` is compact JSON (``_dumps``) and, with ``wire()``, is made
    once however many connections get the frame. ``for_anyone`` is set by the room on a frame
    built for no seat (a public frame, or the spectators' view): it holds nothing a viewer's
    own seat adds, so a relay may carry it on a channel many connections share
    (``ahiko.server.cluster.relay``); every other frame stays on its connection's own."""

    __slots__ = ("_text", "_wire", "for_anyone")

    def __init__(self, t: str, seq: int, body: Mapping[str, Any], epoch: str | None = None) -> None:
        super().__init__(t=t, seq=seq)
        if epoch is not None:
            dict.__setitem__(self, "epoch", epoch)
        dict.update(self, body)
        self._text: str | None = None
        self._wire: bytes | None = None
        self.for_anyone = False

    @classmethod
    def from_json(cls, payload: bytes | memoryview) -> Frame:
        """The frame whose ``json()`` is ``payload`` (a frame relayed from another node: its
        bytes go on to the socket as they came, not encoded again)."""
        fields = orjson.loads(payload)
        t, seq, epoch = fields.pop("t"), fields.pop("seq"), fields.pop("epoch", None)
        frame = cls(t, seq, fields, epoch)
        frame._wire = utf8_text_frame(bytes(payload))
        return frame

    @classmethod
    def from_wire(cls, wire: bytes) -> Frame:
        """The frame whose ``wire()`` is ``wire`` (a frame kept by the ``FrameBuffer``)."""
        fields = orjson.loads(memoryview(wire)[_head_size(len(wire)) :])
        t, seq, epoch = fields.pop("t"), fields.pop("seq"), fields.pop("epoch", None)
        frame = cls(t, seq, fields, epoch)
        frame._wire = wire
        return frame

    @property
    def t(self) -> str:
        return str(self["t"])

    @property
    def seq(self) -> int:
        return int(self["seq"])

    @property
    def epoch(self) -> str | None:
        epoch = self.get("epoch")
        return None if epoch is None else str(epoch)

    def json(self) -> bytes:
        """The frame as compact UTF-8 JSON (encoded once: the payload of ``wire()``)."""
        wire = self.wire()
        return wire[_head_size(len(wire)) :]

    def text(self) -> str:
        """The frame as compact JSON text, encoded once."""
        if self._text is None:
            wire = self.wire()
            self._text = str(memoryview(wire)[_head_size(len(wire)) :], "utf-8")
        return self._text

    def wire(self) -> bytes:
        """``text_frame(self.text())``, made once for every connection that gets the frame."""
        if self._wire is None:
            self._wire = utf8_text_frame(_dumps(self))
        return self._wire

    def as_dict(self) -> dict[str, Any]:
        """A plain, mutable copy."""
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        body = {k: v for k, v in self.items() if k not in ("t", "seq", "epoch")}
        return (Frame, (self["t"], self["seq"], body, self.epoch))

    def _immutable(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a Frame is immutable: copy it (as_dict) to change it")

    __setitem__ = __delitem__ = __ior__ = _immutable
    update = pop = popitem = clear = setdefault = _immutable


def text_frame(text: str) -> bytes:
    """The unmasked WebSocket text frame a server sends for ``text`` (RFC 6455 §5.2): what
    ``websockets`` writes for a text message without extensions."""
    return utf8_text_frame(text.encode())


def _head_size(wire_size: int) -> int:
    """How many bytes of a server's text frame of ``wire_size`` bytes are its header."""
    if wire_size < 2 + 126:
        return 2
    return 4 if wire_size < 4 + 65536 else 10


def utf8_text_frame(payload: bytes) -> bytes:
    """``text_frame`` for text already encoded as UTF-8."""
    size = len(payload)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 65536:
        head = bytes((0x81, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + size.to_bytes(8, "big")
    return head + payload


Deliver = Callable[[str, Frame], None]
"""Hand ``frame`` to connection ``connection_id``; must not block or call into the room."""


def deliver_nowhere(connection_id: str, frame: Frame) -> None:
    """The outbox of a room nobody subscribes to (a ``Deliver`` that drops every frame)."""


Sink = Callable[[Frame], None]


class Subscribers:
    """The in-process end of a room's frames: connection id -> the sink that takes them."""

    def __init__(self) -> None:
        self._sinks: dict[str, Sink] = {}

    def add(self, connection_id: str, sink: Sink) -> None:
        self._sinks[connection_id] = sink

    def remove(self, connection_id: str) -> None:
        self._sinks.pop(connection_id, None)

    def deliver(self, connection_id: str, frame: Frame) -> None:
        sink = self._sinks.get(connection_id)
        if sink is not None:
            sink(frame)


@dataclass(frozen=True, slots=True)
class _Numbered:
    seq: int
    by_seat: Mapping[int | None, bytes]  # the frame's wire bytes as each viewer seat saw it
    seat_of: Mapping[str, int]  # player id -> the seat they viewed it from
    public: bool  # one frame (``by_seat[None]``) for everyone
    size: int  # bytes held


class FrameBuffer:
    """The last numbered frames of a room (at most ``size`` of them and ``max_bytes`` of
    their wire bytes), for replay on reconnect."""

    def __init__(self, size: int = FRAME_BUFFER_SIZE, max_bytes: int = FRAME_BUFFER_BYTES) -> None:
        self._entries: deque[_Numbered] = deque()
        self._size = size
        self._max_bytes = max_bytes
        self._bytes = 0

    @property
    def bytes_held(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def append(
        self,
        seq: int,
        by_seat: Mapping[int | None, Frame],
        seat_of: Mapping[str, int],
        *,
        public: bool = False,
    ) -> None:
        kept = {seat: frame.wire() for seat, frame in by_seat.items()}
        entry = _Numbered(seq, kept, seat_of, public, sum(map(len, kept.values())))
        self._entries.append(entry)
        self._bytes += entry.size
        while len(self._entries) > self._size or (
            self._bytes > self._max_bytes and len(self._entries) > 1
        ):
            self._bytes -= self._entries.popleft().size

    def since(self, seq: int, player_id: str | None, last: int) -> list[Frame] | None:
        """The frames after ``seq`` up to ``last`` as ``player_id`` saw (or would have seen)
        them, or None when the buffer cannot fill the whole gap: a snapshot is due."""
        if seq > last or seq < 0:
            return None
        missed = [entry for entry in self._entries if entry.seq > seq]
        if len(missed) != last - seq or (missed and missed[0].seq != seq + 1):
            return None
        wires: list[bytes] = []
        for entry in missed:
            seat = None if player_id is None or entry.public else entry.seat_of.get(player_id)
            wire = entry.by_seat.get(seat)
            if wire is None:  # nobody watched from that seat then: not kept
                return None
            wires.append(wire)
        return [Frame.from_wire(wire) for wire in wires]
