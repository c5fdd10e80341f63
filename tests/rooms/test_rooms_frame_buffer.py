"""The per-room buffer of numbered frames (lila-ws ``History``): kept as wire bytes, bounded by
count and by bytes, replayed as the very bytes each seat received, and refusing (a snapshot is
due) any gap it no longer holds whole."""

from __future__ import annotations

import gc
import json

import pytest

from ahiko.rooms.outbox import FRAME_BUFFER_BYTES, Frame, FrameBuffer, text_frame


def _frame(seq: int, seat: int | None, pad: int = 10) -> Frame:
    return Frame("hand", seq, {"seat": seat, "pad": "x" * pad, "names": {0: "Zoë"}}, "ep")


def _fill(buffer: FrameBuffer, first: int, last: int, pad: int = 10) -> None:
    for seq in range(first, last + 1):
        by_seat = {0: _frame(seq, 0, pad), 1: _frame(seq, 1, pad), None: _frame(seq, None, pad)}
        buffer.append(seq, by_seat, {"ana": 0, "bia": 1})


@pytest.mark.parametrize("pad", [0, 90, 200, 65_400, 65_600, 70_000])
def test_a_frame_read_back_from_its_wire_bytes_is_the_same_frame(pad: int) -> None:
    """Sizes on both sides of the WebSocket header's 126 and 65,536 byte steps."""
    original = _frame(7, 1, pad)
    wire = original.wire()
    again = Frame.from_wire(wire)
    # what a client reads (JSON: the names' seat keys are text), as the relay delivers it
    assert again == json.loads(original.text()) and again.epoch == "ep" and again.seq == 7
    assert again.wire() is wire  # not encoded again
    assert again.text() == original.text()
    assert text_frame(again.text()) == wire
    assert again.json() == original.text().encode()


def test_a_reconnect_gets_the_bytes_its_own_seat_received_in_order() -> None:
    buffer = FrameBuffer()
    _fill(buffer, 1, 10)
    for player, seat in (("ana", 0), ("bia", 1), (None, None)):
        missed = buffer.since(4, player, 10)
        assert missed is not None
        assert [f.seq for f in missed] == list(range(5, 11))
        assert [f.wire() for f in missed] == [_frame(s, seat).wire() for s in range(5, 11)]
    assert buffer.since(10, "ana", 10) == []  # up to date: nothing to send
    assert buffer.since(11, "ana", 10) is None  # a number never sent: a snapshot
    watcher = buffer.since(4, "cai", 10)  # not in the hand: what a spectator saw
    assert watcher is not None and {f["seat"] for f in watcher} == {None}
    seated_only = FrameBuffer()
    seated_only.append(1, {0: _frame(1, 0)}, {"ana": 0, "bia": 1})
    assert seated_only.since(0, "bia", 1) is None  # nobody saw it from bia's seat: not kept


def test_the_buffer_is_bounded_by_count() -> None:
    buffer = FrameBuffer(size=5)
    _fill(buffer, 1, 12)
    assert len(buffer) == 5
    assert buffer.since(7, "ana", 12) is not None
    assert buffer.since(6, "ana", 12) is None  # frame 7 was dropped: the gap is not whole


def test_the_buffer_is_bounded_by_bytes_every_seats_copy_counted() -> None:
    buffer = FrameBuffer(size=10_000)
    _fill(buffer, 1, 2_000, pad=400)
    assert buffer.bytes_held <= FRAME_BUFFER_BYTES
    kept = len(buffer)
    per_frame = buffer.bytes_held / kept
    assert FRAME_BUFFER_BYTES - per_frame < buffer.bytes_held  # full, not over-trimmed
    assert buffer.since(2_000 - kept, "bia", 2_000) is not None
    assert buffer.since(2_000 - kept - 1, "bia", 2_000) is None


def test_one_frame_larger_than_the_byte_bound_is_still_kept() -> None:
    """The newest frame stays even alone over the bound, so a one-frame gap replays."""
    buffer = FrameBuffer(max_bytes=100)
    _fill(buffer, 1, 3, pad=1_000)
    assert len(buffer) == 1
    missed = buffer.since(2, "ana", 3)
    assert missed is not None and [f.seq for f in missed] == [3]


def test_buffered_frames_hold_nothing_the_garbage_collector_scans() -> None:
    """Why the buffer keeps bytes: 256 frames of dicts per seat per room were a million
    tracked objects at a thousand players, and every full collection walked them all."""
    buffer = FrameBuffer()
    _fill(buffer, 1, 100)
    entry = buffer._entries[-1]
    assert all(not gc.is_tracked(wire) for wire in entry.by_seat.values())
