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


# The bomb pot's two boards go to two players, Caio and Ana: its result line is a long one.
DEAL_SEED = 3


def house_options_showdown() -> list[dict[str, Any]]:
    """A home game with every house option on (a straddle after the big blind, run it
    twice, bomb pots of 20 every third hand on two boards, a seven-deuce bounty), three
    players checking the first hand down to a showdown, then the host's "Bomb pot": the
    next hand is one, on two boards, checked down too. The frames Ana, the host at seat 0,
    receives."""
    from ahiko.rooms.hand_options import Straddle
    from ahiko.rooms.house import host_orders as h

    from .frames import SIGNING_KEY

    frames: list[dict[str, Any]] = []
    clock, subscribers = ManualClock(), Subscribers()
    options = HandOptions(
        straddle=Straddle.AFTER_BIG_BLIND,
        run_twice=True,
        bomb_pot_ante=20,
        bomb_pot_every=3,
        bomb_pot_double_board=True,
        seven_deuce=5,
    )
    config = RoomConfig(name="Casa da Ana", hand_options=options)
    room = Room(
        "fixture",
        config,
        clock=clock,
        host_id="ana",
        rng=Random(8),
        randbelow=Random(DEAL_SEED).randrange,  # the same cards every time
        deliver=subscribers.deliver,
        signing_key=SIGNING_KEY,
    )
    subscribers.add("ana-socket", lambda frame: frames.append(json.loads(frame.text())))
    players = {"ana": ("Ana", 0), "bia": ("Bia", 3), "caio": ("Caio", 5)}
    for pid in players:
        if pid != "ana":
            subscribers.add(f"{pid}-socket", lambda _frame: None)
        assert room.submit(c.Connect(f"{pid}-socket", pid, None)).ok
    for pid, (name, seat) in players.items():
        assert room.submit(c.Sit(pid, name, seat)).ok
    assert room.submit(c.Start("ana")).ok
    _check_down(room, clock)
    assert room.submit(h.BombPotNext("ana")).ok  # a "host" frame: the table's toast
    _check_down(room, clock)  # the bomb pot, on two boards
    return frames


def _check_down(room: Room, clock: ManualClock) -> None:
    """The next hand, every seat checking (or calling) to the showdown; the clock moves
    while the hand waits (its commitment on display, the straddle's question)."""
    for _ in range(200):
        if room.dealer.hand is not None:
            break
        clock.advance(0.5)
    hand = room.dealer.hand
    assert hand is not None, "no hand was dealt"
    for _ in range(200):
        if hand.is_over:
            return
        seat = hand.to_act if hand.engine is not None else None
        if seat is None:
            clock.advance(0.5)
            continue
        check_down = Action.check() if hand.legal().can_check else Action.call()
        assert room.submit(c.Act(hand.players[seat], hand.hand_no, check_down)).ok
    raise AssertionError("the hand did not end")
