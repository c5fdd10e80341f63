"""Shared helpers (imported as ``rooms_helpers``) for room tests: a recording connection, a room on a manual clock, and a
simple player policy for people."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from random import Random
from typing import Any

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.outbox import Frame, Subscribers
from ahiko.rooms.room import Room
from ahiko.server.protocol import SERVER_FRAME

_connection_ids = itertools.count(1)


@dataclass(eq=False)
class Recorder:
    """A subscriber that keeps every frame it is sent, as the JSON a socket would carry:
    it sees text only, so a frame that is not JSON-serialisable fails the test at once, and
    each frame is validated against the outbound schema (``SERVER_FRAME``: cards as text)."""

    pid: str | None
    frames: list[dict[str, Any]] = field(default_factory=list)
    connection_id: str = field(default_factory=lambda: f"rec-{next(_connection_ids)}")

    @property
    def player_id(self) -> str | None:
        return self.pid

    def deliver(self, frame: Frame) -> None:
        decoded = json.loads(frame.text())
        SERVER_FRAME.validate_python(decoded)  # every frame a test sees keeps the schema
        self.frames.append(decoded)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["t"] == kind]


def holdem_config(**overrides: Any) -> RoomConfig:
    base: dict[str, Any] = {
        "name": "mesa",
        "kind": RoomKind.RECREATIONAL,
        "variant": Variant.HOLDEM,
        "seats": 8,
        "starting_chips": 1000,
        "schedule": BlindSchedule(Stakes(small_blind=5, big_blind=10)),
    }
    base.update(overrides)
    return RoomConfig(**base)


def draw_config(**overrides: Any) -> RoomConfig:
    base: dict[str, Any] = {
        "name": "draw",
        "variant": Variant.DRAW,
        "seats": 6,
        "schedule": BlindSchedule(Stakes(ante=1, small_bet=10)),
    }
    base.update(overrides)
    return holdem_config(**base)


class Table:
    """A room on a manual clock with helpers to seat people and play their turns."""

    def __init__(self, config: RoomConfig, host: str = "host", seed: int = 7) -> None:
        self.clock = ManualClock()
        self.subscribers = Subscribers()
        self.room = Room(
            "t-1",
            config,
            clock=self.clock,
            host_id=host,
            rng=Random(seed),
            deliver=self.subscribers.deliver,
        )
        self.conns: dict[str, Recorder] = {}

    def submit(self, command: c.Command) -> c.Reply:
        return self.room.submit(command)

    def ok(self, command: c.Command) -> c.Reply:
        reply = self.room.submit(command)
        assert reply.ok, reply
        return reply

    def attach(self, subscriber: Any, since: int | None = None) -> Any:
        """Subscribe ``subscriber`` (``connection_id``, ``player_id``, ``deliver``) and
        connect it, as the gateway does."""
        self.subscribers.add(subscriber.connection_id, subscriber.deliver)
        self.ok(c.Connect(subscriber.connection_id, subscriber.player_id, since))
        return subscriber

    def detach(self, subscriber: Any) -> None:
        self.ok(c.Disconnect(subscriber.connection_id))
        self.subscribers.remove(subscriber.connection_id)

    def connect(self, pid: str | None) -> Recorder:
        rec = self.attach(Recorder(pid))
        if pid is not None:
            self.conns[pid] = rec
        return rec

    def join(self, pid: str, seat: int) -> Recorder:
        rec = self.connect(pid)
        self.ok(c.Sit(pid, pid.title(), seat))
        return rec

    def disconnect(self, pid: str) -> None:
        self.detach(self.conns.pop(pid))

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def to_deal(self) -> None:
        """Past the commitment's two seconds (R-FD-02)."""
        self.advance(self.room.config.timing.commitment_display_s)

    @property
    def to_act_pid(self) -> str | None:
        hand = self.room.dealer.hand
        if hand is None or hand.to_act is None:
            return None
        return hand.players[hand.to_act]

    def act(self, action: Action) -> c.Reply:
        hand = self.room.dealer.hand
        assert hand is not None and hand.to_act is not None
        return self.submit(c.Act(hand.players[hand.to_act], hand.hand_no, action))

    def passive(self) -> c.Reply:
        """The person to act checks, calls, or stands pat."""
        hand = self.room.dealer.hand
        assert hand is not None
        legal = hand.legal()
        if legal.is_draw_phase:
            return self.act(Action.discard(()))
        return self.act(Action.check() if legal.can_check else Action.call())

    def play_hand_passively(self, limit: int = 200) -> None:
        """Everyone the test drives checks or calls until the hand ends."""
        for _ in range(limit):
            if self.room.dealer.hand is None or self.room.dealer.hand.is_over:
                return
            if self.room.dealer.hand.to_act is None:
                return
            self.passive()
        raise AssertionError("hand did not end")

    def stacks(self) -> dict[str, int]:
        return {o.player_id: o.stack for _, o in self.room.seats.items()}

    def assert_chips_conserved(self) -> None:
        room = self.room
        held = sum(o.stack for _, o in room.seats.items())
        held += sum(
            o.stack
            for o in room.seats.people()
            if room.seats.reservation_of(o.player_id) is not None
        )
        assert room.dealer.hand is None or room.dealer.hand.phase.value != "dealt"
        assert room.chips_in == held + room.chips_out


def random_action(rng: Random, legal: Any, hole: tuple[int, ...] = ()) -> Action:
    if legal.is_draw_phase:
        return Action.discard(tuple(rng.sample(sorted(hole), rng.randint(0, min(3, len(hole))))))
    r = rng.random()
    if legal.bet_kind is not None and r < 0.25:
        to = rng.choice([legal.min_to, legal.max_to, (legal.min_to + legal.max_to) // 2])
        return Action(legal.bet_kind, to)
    if r < 0.4 and legal.can_fold and not legal.can_check:
        return Action.fold()
    return Action.check() if legal.can_check else Action.call()
