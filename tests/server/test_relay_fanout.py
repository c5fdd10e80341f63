"""Issue 14: the owner's fan-out keeps every connection's frames in order. Frames for anyone
(``Frame.for_anyone``) to several connections of one edge node go out once, on the node's fan
channel; every other frame on its connection's own channel. Here a publisher that only
records stands in for Redis (which hands one publisher's messages to one subscriber in the
order published, whatever the channel): the edge's dispatch, fed the recorded publishes in
order, gives each connection exactly the frames the room handed it, in the same order."""

from __future__ import annotations

import random
from typing import Any

import hiredis

from ahiko.rooms.outbox import Frame
from ahiko.server.cluster.relay import RelayEdge, _FanOut, connection_channel, fan_channel


class RecordingPublisher:
    """``RespPublisher``'s surface: ``put``, ``put_later``, ``flushes``; ``flush`` ends a turn."""

    def __init__(self) -> None:
        self.flushes = 0
        self._buffer: list[Any] = []
        self.sent: list[tuple[bytes, bytes]] = []

    def put(self, channel: bytes, payload: bytes) -> None:
        self._buffer.append((channel, payload))

    def put_later(self, item: Any) -> None:
        self._buffer.append(item)

    def flush(self) -> None:
        self.flushes += 1
        reader = hiredis.Reader()
        for item in self._buffer:
            if isinstance(item, tuple):
                self.sent.append(item)
                continue
            reader.feed(item.resp())
            verb, channel, payload = reader.gets()
            assert verb == b"PUBLISH"
            self.sent.append((channel, payload))
        self._buffer = []


def _frame(seq: int, anyone: bool) -> Frame:
    frame = Frame("hand", seq, {"cards": [] if anyone else ["As", "Kd"]}, "e")
    frame.for_anyone = anyone
    return frame


def test_fanned_and_private_frames_reach_each_connection_in_the_order_handed_out() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        publisher = RecordingPublisher()
        fanout = _FanOut(publisher)  # type: ignore[arg-type]
        cids = [f"ws-{n}" for n in range(5)]
        far = "ws-far"  # on another edge node
        sinks = {cid: fanout.sink(cid, "b", 3) for cid in cids}
        sinks[far] = fanout.sink(far, "c", 3)
        handed: dict[str, list[int]] = {cid: [] for cid in sinks}
        live: list[Frame] = []  # the frames being handed out, interleaved at random
        for seq in range(1, 400):
            if len(live) < 3 or rng.random() < 0.2:
                live.append(_frame(seq, rng.random() < 0.6))  # for anyone, or a seat's own
                if len(live) > 3:
                    live.pop(0)
            frame = rng.choice(live)
            cid = rng.choice(list(sinks))
            if frame.seq in handed[cid]:
                continue
            sinks[cid](frame)
            handed[cid].append(frame.seq)
            if rng.random() < 0.05:
                publisher.flush()
        publisher.flush()

        edge = RelayEdge(None, "b", publisher)  # type: ignore[arg-type]
        got: dict[str, list[int]] = {cid: [] for cid in cids}
        epochs: set[int] = set()
        for cid in cids:
            edge._sinks[cid] = (lambda f, into=got[cid]: into.append(f.seq), epochs.add)
        fans = 0
        for channel, payload in publisher.sent:
            assert channel in {fan_channel("b").encode(), fan_channel("c").encode()} or (
                channel.startswith(connection_channel("").encode())
            )
            if channel.startswith(b"ahiko:fan:"):
                fans += 1
                assert b"As" not in payload  # a seat's own cards never on a fan channel
                assert payload.split(b":")[1].count(b",") >= 1  # one connection: its own
            if channel != fan_channel("c").encode() and channel != connection_channel(far).encode():
                edge._dispatch(channel, payload)
        assert got == {cid: handed[cid] for cid in cids}, seed
        assert epochs == {3}
        assert fans > 0 and edge.fanned > fans
