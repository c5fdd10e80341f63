"""A room's frames going out: numbered events to every subscriber, built once per viewer
seat (``ahiko.rooms.frames`` builds the payloads, through ``view``), kept in the frame
buffer for reconnects; a player's own notices; snapshots and catch-up on connect.

The broadcaster owns the frames' numbering: ``seq`` (the last numbered frame) and the
``epoch`` (this run of the room). It is given the viewers (``presence``), the hand on show
(whose seats see what), the table's bots (never kept for a reconnect), the snapshot's
builder and the chat said since a frame."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ahiko.rooms.frame_types import (
    ChatLine,
    NumberedBody,
    NumberedKind,
    Snapshot,
    UnnumberedBody,
    UnnumberedKind,
)
from ahiko.rooms.outbox import Deliver, Frame, FrameBuffer

if TYPE_CHECKING:
    from ahiko.rooms.table_hand import TableHand

#: A numbered frame's body as one viewer seat (None: anyone) sees it.
Build = Callable[[int | None], NumberedBody]
#: The body of a frame for some connections only. A plain mapping is taken too: two
#: handlers still build theirs by hand (the gateway's check covers them in tests).
Told = UnnumberedBody | Mapping[str, Any]


class Viewers(Protocol):
    """Who is subscribed: (connection id, player id) pairs, oldest first."""

    def connections(self) -> list[tuple[str, str | None]]: ...
    def connections_of(self, player_id: str) -> list[str]: ...


class HandOnShow(Protocol):
    """The dealer, as the broadcaster asks it which seat each viewer holds."""

    @property
    def hand_on_show(self) -> TableHand | None: ...


class Broadcast:
    def __init__(
        self,
        deliver: Deliver,
        epoch: str,
        *,
        viewers: Viewers,
        hands: HandOnShow,
        bots: Container[str],
        snapshot: Callable[[str | None], Snapshot],
        said_since: Callable[[int, str | None], list[ChatLine]],
    ) -> None:
        self.seq = 0  # the last numbered frame of this run
        self.epoch = epoch  # this run: frames are named by (epoch, seq)
        self._deliver = deliver
        self._viewers = viewers
        self._hands = hands
        self._bots = bots
        self._snapshot = snapshot
        self._said_since = said_since
        self.frames = FrameBuffer()  # the last numbered frames, for reconnects

    def emit(self, kind: NumberedKind, build: Build, *, public: bool = False) -> None:
        """One numbered frame to every connection, built once per viewer seat (once for all
        when ``public``: it shows nothing a seat may not see), every connection of a seat
        getting the same ``Frame``; kept in the buffer as each person of the hand saw it (one
        away now too, so a reconnect can be replayed; bots never reconnect)."""
        self.seq += 1
        seq = self.seq
        hand = None if public else self._hands.hand_on_show
        seat_of = {} if hand is None else {pid: s for s, pid in hand.players.items()}
        by_seat: dict[int | None, Frame] = {}

        def frame_for(seat: int | None) -> Frame:
            found = by_seat.get(seat)
            if found is None:
                found = by_seat[seat] = Frame(kind, seq, build(seat), self.epoch)
                found.for_anyone = seat is None  # no seat's own cards or proofs in it
            return found

        for connection_id, player_id in self._viewers.connections():
            seat = None if player_id is None else seat_of.get(player_id)
            self._deliver(connection_id, frame_for(seat))
        for player_id, seat in seat_of.items():
            if seat not in by_seat and player_id not in self._bots:
                frame_for(seat)  # a person away now: kept for their reconnect
        if public:
            frame_for(None)  # kept even when nobody watches now
        self.frames.append(seq, by_seat, seat_of, public=public)

    def notify(self, player_id: str, kind: UnnumberedKind, payload: Told) -> None:
        """A frame for one player's connections only (not a numbered room event)."""
        frame = Frame(kind, self.seq, payload, self.epoch)
        for connection_id in self._viewers.connections_of(player_id):
            self._deliver(connection_id, frame)

    def tell_watchers(
        self, kind: UnnumberedKind, payload: Told, to: Callable[[str | None], bool]
    ) -> None:
        """One frame (not a numbered room event: a chat line) to every connection whose
        player ``to`` accepts, the same ``Frame`` for all of them."""
        frame = Frame(kind, self.seq, payload, self.epoch)
        for connection_id, player_id in self._viewers.connections():
            if to(player_id):
                self._deliver(connection_id, frame)

    def send_snapshot(self, connection_id: str, player_id: str | None) -> None:
        snapshot = self._snapshot(player_id)
        self._deliver(connection_id, Frame("snapshot", self.seq, snapshot, self.epoch))

    def catch_up(
        self, connection_id: str, player_id: str | None, since: int | None, epoch: str | None
    ) -> None:
        """A new subscriber's first frames: what it missed since frame ``since`` of this run
        (``epoch``) and the chat said meanwhile, when the buffer still holds all of it, else
        a snapshot. A ``since`` of another run (the room was reopened, or is owned by someone
        else now) names no frame here: a snapshot."""
        missed = None
        if since is not None and epoch == self.epoch:
            missed = self.frames.since(since, player_id, self.seq)
        if since is None or missed is None:
            self.send_snapshot(connection_id, player_id)
            return
        for frame in missed:
            self._deliver(connection_id, frame)
        for message in self._said_since(since, player_id):  # chat is not numbered
            self._deliver(connection_id, Frame("chat", self.seq, {"msg": message}, self.epoch))
