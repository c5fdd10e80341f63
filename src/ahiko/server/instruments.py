"""The measuring instruments the serving code bumps as it works, for ``GET /metrics``.

Each is made once, at import, and labelled children are bound once too: the hot path (a
frame written to a socket, a command answered) pays an integer addition or one histogram
observation, never a label lookup. ``ahiko.server.metrics`` registers them with the node's
scrape-time figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prometheus_client import Counter, Histogram

from ahiko.rooms.config import Variant
from ahiko.rooms.finished.archive import HandArchive

if TYPE_CHECKING:
    from ahiko.rooms.room_view import RoomView
    from ahiko.rooms.table_hand import TableHand

# A command is answered in well under a millisecond on a quiet node; a player notices 100 ms.
LATENCY_BUCKETS_S = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class SentTally:
    """Frames and bytes the node's table sockets were handed, as plain integers: bumped once
    per socket write on the event loop's thread (a lock per frame would cost every player)."""

    __slots__ = ("bytes", "frames")

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0

    def add(self, frames: int, size: int) -> None:
        self.frames += frames
        self.bytes += size


SENT = SentTally()

COMMAND_SECONDS = Histogram(
    "ahiko_command_seconds",
    "A table socket's command (act, sit, chat...): from its frame read to its answer queued",
    buckets=LATENCY_BUCKETS_S,
    registry=None,
)
ACTION_BROADCAST_SECONDS = Histogram(
    "ahiko_action_broadcast_seconds",
    "A player's action: from its frame read to the table's new state queued to every socket "
    "of the table (the acknowledgement is queued after the broadcast and rides with it)",
    buckets=LATENCY_BUCKETS_S,
    registry=None,
)
HANDS = Counter(
    "ahiko_hands", "Hands played to their end on this node, by variant", ["variant"], registry=None
)
HANDS_BY_VARIANT = {variant: HANDS.labels(variant.value) for variant in Variant}
LOG_IN_FAILURES = Counter(
    "ahiko_login_failures", "Log-ins refused for a wrong name or password", registry=None
)
LOG_IN_THROTTLED = Counter(
    "ahiko_login_throttled",
    "Log-ins refused unheard: too many failures from the address or for the account",
    registry=None,
)


class CountingArchive(HandArchive):
    """The hand archive that also counts each finished hand by its variant: a hand is
    archived exactly once when it ends, so the archive is where hands are already counted."""

    def hand_finished(self, room: RoomView, hand: TableHand) -> None:
        HANDS_BY_VARIANT[room.config.variant].inc()
        super().hand_finished(room, hand)
