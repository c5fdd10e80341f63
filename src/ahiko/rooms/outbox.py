"""What leaves a room: numbered, immutable, serialisable frames addressed by connection id.

The room never holds a subscriber object. It knows connections only as ids (with the player
id behind each) and hands every frame to one ``Deliver`` callable: in-process that is the
actor's ``Subscribers``; in a cluster (DESIGN.md principle 6) a relay publishing to each
connection's channel. A ``Frame`` is a value: built once per viewer seat, encoded to JSON at
most once (``text``), shared by every connection that sees the same thing.

The ``FrameBuffer`` keeps the last numbered frames, as each seat saw them, so a client that
reconnects with the number of the last frame it got is sent what it missed, in order
(lila-ws ``History``); when the gap is older than the buffer it gets a snapshot instead.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

#: How many numbered frames a room keeps for reconnecting clients (a few hands' worth).
FRAME_BUFFER_SIZE = 256


@dataclass(frozen=True, eq=False)
class Frame:
    """One outbound frame ``{"t": kind, "seq": n, ...body}``. Treat ``body`` as frozen."""

    t: str
    seq: int
    body: Mapping[str, Any]

    @cached_property
    def text(self) -> str:
        """The frame as compact JSON, encoded once however many connections it goes to."""
        return json.dumps(self.as_dict(), separators=(",", ":"))

    def as_dict(self) -> dict[str, Any]:
        return {"t": self.t, "seq": self.seq, **self.body}


Deliver = Callable[[str, Frame], None]
"""Hand ``frame`` to connection ``connection_id``; must not block or call into the room."""

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
    by_seat: Mapping[int | None, Frame]  # the frame as each viewer seat saw it
    seat_of: Mapping[str, int]  # player id -> the seat they viewed it from


class FrameBuffer:
    """The last ``size`` numbered frames of a room, for replay on reconnect."""

    def __init__(self, size: int = FRAME_BUFFER_SIZE) -> None:
        self._entries: deque[_Numbered] = deque(maxlen=size)

    def append(
        self, seq: int, by_seat: Mapping[int | None, Frame], seat_of: Mapping[str, int]
    ) -> None:
        self._entries.append(_Numbered(seq, by_seat, seat_of))

    def since(self, seq: int, player_id: str | None, last: int) -> list[Frame] | None:
        """The frames after ``seq`` up to ``last`` as ``player_id`` saw (or would have seen)
        them, or None when the buffer cannot fill the whole gap: a snapshot is due."""
        if seq > last or seq < 0:
            return None
        missed = [entry for entry in self._entries if entry.seq > seq]
        if len(missed) != last - seq or (missed and missed[0].seq != seq + 1):
            return None
        frames: list[Frame] = []
        for entry in missed:
            seat = None if player_id is None else entry.seat_of.get(player_id)
            frame = entry.by_seat.get(seat)
            if frame is None:  # nobody watched from that seat then: not kept
                return None
            frames.append(frame)
        return frames
