"""Frames of a hand run twice, recorded from a real room (tests only): a heads-up hand on a
manual clock whose two players go all-in pre-flop and both answer "twice". The frames are
those the room sends Ana's socket, commitment and openings included."""

from __future__ import annotations

import json
from random import Random
from typing import Any

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.hand_options import HandOptions
from ahiko.rooms.outbox import Frame, Subscribers
from ahiko.rooms.room import Room


def holdem_run_twice() -> list[dict[str, Any]]:
    from .frames import SIGNING_KEY  # the fixture server's key: the browser checks it

    frames: list[dict[str, Any]] = []
    clock, subscribers = ManualClock(), Subscribers()
    config = RoomConfig(name="Casa", hand_options=HandOptions(run_twice=True))
    room = Room(
        "fixture",
        config,
        clock=clock,
        host_id="ana",
        rng=Random(5),
        deliver=subscribers.deliver,
        signing_key=SIGNING_KEY,
    )

    def keep(frame: Frame) -> None:
        frames.append(json.loads(frame.text()))

    subscribers.add("ana-socket", keep)
    subscribers.add("bia-socket", lambda _frame: None)
    for command in (
        c.Connect("ana-socket", "ana", None),
        c.Connect("bia-socket", "bia", None),
        c.Sit("ana", "Ana", 0),
        c.Sit("bia", "Bia", 3),
        c.Start("ana"),
    ):
        reply = room.submit(command)
        assert reply.ok, reply
    clock.advance(config.timing.commitment_display_s)
    hand = room.dealer.hand
    assert hand is not None
    for action in (Action.raise_to(hand.legal().max_to), Action.call()):  # a shove, its call
        seat = hand.to_act
        assert seat is not None
        assert room.submit(c.Act(hand.players[seat], hand.hand_no, action)).ok
    for pid in ("ana", "bia"):
        assert room.submit(c.ChooseRuns(pid, 2)).ok
    assert hand.is_over and len(hand.second_board) == 5
    return frames
