"""A room's hooks and archive are handed its ``RoomView``, never the room: a recording hooks
implementation sits on a real room while a person and two bots play a hand, and the view
it is handed reads the room as it stands but cannot be written through."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from random import Random
from typing import Any

import pytest
from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.frame_types import RoomSummary
from ahiko.rooms.hooks import HandOutcome, NoHooks
from ahiko.rooms.room import Room
from ahiko.rooms.room_view import RoomView, SeatFacts
from ahiko.rooms.seats import Occupant
from ahiko.rooms.status import RoomStatus
from ahiko.rooms.table_hand import TableHand


class Recording(NoHooks):
    """Every hook and archive call, with what the room it was handed showed then."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.started: list[tuple[int | None, int | None, dict[int, SeatFacts]]] = []
        self.events_at_end: list[int] = []

    def _saw(self, name: str, room: Any) -> None:
        self.calls.append((name, room))

    def on_hand_start(self, room: RoomView, hand_no: int, stacks: Mapping[int, int]) -> None:
        self._saw("on_hand_start", room)
        self.started.append((room.hand_no, room.button, dict(room.seats)))

    def on_hand_end(self, room: RoomView, outcome: HandOutcome) -> None:
        self._saw("on_hand_end", room)
        self.events_at_end.append(len(room.last_hand_events))

    def on_player_left(self, room: RoomView, occupant: Occupant) -> None:
        self._saw("on_player_left", room)

    def on_seats_changed(self, room: RoomView) -> None:
        self._saw("on_seats_changed", room)

    def on_connected(self, room: RoomView, player_id: str) -> None:
        self._saw("on_connected", room)

    def lobby_entry(self, room: RoomView, entry: RoomSummary) -> dict[str, Any]:
        self._saw("lobby_entry", room)
        return dict(entry)

    def hold_deal(self, room: RoomView) -> bool:
        self._saw("hold_deal", room)
        return False

    def tournament_part(self, room: RoomView) -> None:
        self._saw("tournament_part", room)

    def hand_finished(self, room: RoomView, hand: TableHand) -> None:
        self._saw("hand_finished", room)

    def hand_shown(self, room: RoomView, hand: TableHand) -> None:
        self._saw("hand_shown", room)


def _table(recording: Recording) -> Table:
    t = Table(holdem_config(seats=4), host="ana")
    t.room = Room(
        "t-1",
        t.room.config,
        clock=t.clock,
        host_id="ana",
        rng=Random(3),
        hooks=recording,
        archive=recording,
        deliver=t.subscribers.deliver,
    )
    t.join("ana", 0)
    t.ok(c.AddBot("ana", "random", seat=1))
    t.ok(c.AddBot("ana", "random", seat=2))
    return t


def test_the_hooks_and_the_archive_are_handed_the_rooms_view_never_the_room() -> None:
    recording = Recording()
    t = _table(recording)
    t.ok(c.Start("ana"))
    t.to_deal()
    t.play_hand_passively()
    t.room.lobby_entry()
    t.ok(c.Leave("ana"))

    called = {name for name, _ in recording.calls}
    assert {
        "on_connected",
        "on_seats_changed",
        "tournament_part",
        "hold_deal",
        "on_hand_start",
        "on_hand_end",
        "hand_finished",
        "lobby_entry",
        "on_player_left",
    } <= called
    for name, room in recording.calls:
        assert isinstance(room, RoomView) and not isinstance(room, Room), name
        assert room is t.room.view  # one view per room: a hook call costs no copy
    ((hand_no, button, seats),) = recording.started
    assert hand_no == 1 and button is not None
    assert sorted(seats) == [0, 1, 2]
    assert seats[0].player_id == "ana" and seats[0].is_person
    assert seats[1].is_bot and seats[2].is_bot
    assert recording.events_at_end and recording.events_at_end[0] > 0


def test_the_view_reads_the_room_as_it_stands() -> None:
    t = _table(Recording())
    view = t.room.view
    assert view.room_id == "t-1" and view.config is t.room.config and view.host_id == "ana"
    assert (view.status, view.is_open) == (RoomStatus.WAITING, True)
    assert view.button is None and view.hand_no is None and view.hands_dealt == 0
    assert view.last_hand_events == () and view.next_hand_no == 1
    assert view.free_seats == (3,)
    assert view.ready_seats == (0, 1, 2)
    assert view.is_bot("bot-1") and not view.is_bot("ana")
    assert view.summary() == t.room.summary()
    t.ok(c.Start("ana"))
    t.to_deal()
    assert view.status is RoomStatus.RUNNING
    assert view.hand_no == 1 and view.hands_dealt == 1 and view.button is not None
    t.play_hand_passively()
    assert view.hand_no is None and view.last_hand_events
    stacks = {seat: facts.stack for seat, facts in view.seats.items()}
    assert stacks == {s: o.stack for s, o in t.room.seats.items()}
    t.ok(c.Leave("ana"))
    assert view.departed_name("ana") == "Ana" and view.departed_name("nobody") is None


def test_the_view_cannot_be_written_through() -> None:
    t = _table(Recording())
    view = t.room.view
    for name in ("status", "room_id", "seats", "hooks", "_room"):
        with pytest.raises(AttributeError):
            setattr(view, name, None)
        with pytest.raises(AttributeError):
            delattr(view, name)
    seats = view.seats
    with pytest.raises(TypeError):
        seats[3] = seats[0]  # type: ignore[index]
    with pytest.raises(TypeError):
        del seats[0]  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seats[0].stack = 10**6  # type: ignore[misc]
    assert t.room.status is RoomStatus.WAITING
    assert sorted(s for s, _ in t.room.seats.items()) == [0, 1, 2]
    assert t.room.seats.get(0) is not None and t.room.seats.get(0).stack == 1000  # type: ignore[union-attr]
