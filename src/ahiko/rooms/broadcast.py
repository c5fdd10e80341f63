"""A room's frames going out: numbered events to every subscriber, built once per viewer
seat (``ahiko.rooms.frames`` builds the payloads, through ``view``), kept in the frame
buffer for reconnects; a player's own notices; snapshots and catch-up on connect."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ahiko.rooms.frame_types import NumberedBody, NumberedKind, UnnumberedBody, UnnumberedKind
from ahiko.rooms.frames import snapshot_frame
from ahiko.rooms.outbox import Deliver, Frame, FrameBuffer

if TYPE_CHECKING:
    from ahiko.rooms.room import Room

#: A numbered frame's body as one viewer seat (None: anyone) sees it.
Build = Callable[[int | None], NumberedBody]
#: The body of a frame for some connections only. A plain mapping is taken too: two
#: handlers still build theirs by hand (the gateway's check covers them in tests).
Told = UnnumberedBody | Mapping[str, Any]


class Broadcast:
    def __init__(self, room: Room, deliver: Deliver) -> None:
        self._room = room
        self._deliver = deliver
        self.frames = FrameBuffer()  # the last numbered frames, for reconnects

    def emit(self, kind: NumberedKind, build: Build, *, public: bool = False) -> None:
        """One numbered frame to every connection, built once per viewer seat (once for all
        when ``public``: it shows nothing a seat may not see), every connection of a seat
        getting the same ``Frame``; kept in the buffer as each person of the hand saw it (one
        away now too, so a reconnect can be replayed; bots never reconnect)."""
        room = self._room
        room.seq += 1
        seq = room.seq
        hand = None if public else room.hand or room.last_hand
        seat_of = {} if hand is None else {pid: s for s, pid in hand.players.items()}
        by_seat: dict[int | None, Frame] = {}

        def frame_for(seat: int | None) -> Frame:
            found = by_seat.get(seat)
            if found is None:
                found = by_seat[seat] = Frame(kind, seq, build(seat), room.epoch)
                found.for_anyone = seat is None  # no seat's own cards or proofs in it
            return found

        for connection_id, player_id in room.presence.connections():
            seat = None if player_id is None else seat_of.get(player_id)
            self._deliver(connection_id, frame_for(seat))
        for player_id, seat in seat_of.items():
            if seat not in by_seat and player_id not in room.bots:
                frame_for(seat)  # a person away now: kept for their reconnect
        if public:
            frame_for(None)  # kept even when nobody watches now
        self.frames.append(seq, by_seat, seat_of, public=public)

    def notify(self, player_id: str, kind: UnnumberedKind, payload: Told) -> None:
        """A frame for one player's connections only (not a numbered room event)."""
        room = self._room
        frame = Frame(kind, room.seq, payload, room.epoch)
        for connection_id in room.presence.connections_of(player_id):
            self._deliver(connection_id, frame)

    def tell_watchers(
        self, kind: UnnumberedKind, payload: Told, to: Callable[[str | None], bool]
    ) -> None:
        """One frame (not a numbered room event: a chat line) to every connection whose
        player ``to`` accepts, the same ``Frame`` for all of them."""
        room = self._room
        frame = Frame(kind, room.seq, payload, room.epoch)
        for connection_id, player_id in room.presence.connections():
            if to(player_id):
                self._deliver(connection_id, frame)

    def send_snapshot(self, connection_id: str, player_id: str | None) -> None:
        room = self._room
        snapshot = snapshot_frame(room, player_id)
        self._deliver(connection_id, Frame("snapshot", room.seq, snapshot, room.epoch))

    def catch_up(
        self, connection_id: str, player_id: str | None, since: int | None, epoch: str | None
    ) -> None:
        """A new subscriber's first frames: what it missed since frame ``since`` of this run
        (``epoch``) and the chat said meanwhile, when the buffer still holds all of it, else
        a snapshot. A ``since`` of another run (the room was reopened, or is owned by someone
        else now) names no frame here: a snapshot."""
        room = self._room
        missed = None
        if since is not None and epoch == room.epoch:
            missed = self.frames.since(since, player_id, room.seq)
        if since is None or missed is None:
            self.send_snapshot(connection_id, player_id)
            return
        for frame in missed:
            self._deliver(connection_id, frame)
        for message in room.chat.said_since(since, player_id):  # chat is not numbered
            self._deliver(connection_id, Frame("chat", room.seq, {"msg": message}, room.epoch))
