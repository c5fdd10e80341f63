"""Fan-out in one process, no network: a room on a manual clock with eight seated players and
some spectators plays hands, and every frame it emits is encoded the way the gateway encodes it
for the socket. Reports CPU microseconds per delivered frame for the room's work (engine, frame
building) plus the encoding, the part of the server's per-frame cost that does not depend on
the kernel or the WebSocket library.

    python bench/fanout.py [--hands 300] [--spectators 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.outbox import Frame, Subscribers
from ahiko.rooms.room import Room


@dataclass(eq=False)
class Counting:
    """A subscriber that encodes each frame as the socket would (``Frame.text``: once per
    frame however many connections get it) and keeps a count."""

    pid: str | None
    frames: int = 0
    last: list[dict[str, Any]] = field(default_factory=list)

    @property
    def connection_id(self) -> str:
        return f"bench-{id(self)}"

    def deliver(self, frame: Frame) -> None:
        frame.text()
        self.frames += 1


def play(hands: int, spectators: int, seed: int) -> tuple[int, float]:
    clock = ManualClock()
    config = RoomConfig(
        name="bench",
        kind=RoomKind.RECREATIONAL,
        variant=Variant.HOLDEM,
        seats=8,
        starting_chips=100_000,
        schedule=BlindSchedule(Stakes(small_blind=5, big_blind=10)),
    )
    subscribers = Subscribers()
    room = Room(
        "bench",
        config,
        clock=clock,
        host_id="p0",
        rng=random.Random(seed),
        deliver=subscribers.deliver,
    )
    conns = []

    def connect(conn: Counting) -> None:
        conns.append(conn)
        subscribers.add(conn.connection_id, conn.deliver)
        assert room.submit(c.Connect(conn.connection_id, conn.pid)).ok

    for k in range(8):
        connect(Counting(f"p{k}"))
        assert room.submit(c.Sit(f"p{k}", f"P{k}", k)).ok
    for _ in range(spectators):
        connect(Counting(None))
    assert room.submit(c.Start("p0")).ok
    rng = random.Random(seed)
    played = 0
    start = time.process_time()
    while played < hands:
        hand = room.dealer.hand
        if hand is None or hand.engine is None or hand.to_act is None:
            clock.advance(1.0)
            if hand is not None and hand.is_over:
                played += 1
            continue
        legal = hand.legal()
        roll = rng.random()
        if legal.bet_kind is not None and roll < 0.1:
            action = (
                Action.bet(legal.min_to)
                if str(legal.bet_kind) == "bet"
                else Action.raise_to(legal.min_to)
            )
        elif roll < 0.25 and legal.call_cost > 0:
            action = Action.fold()
        else:
            action = Action.check() if legal.can_check else Action.call()
        reply = room.submit(c.Act(hand.players[hand.to_act], hand.hand_no, action))
        assert reply.ok, reply
        if room.dealer.hand is not hand:
            played += 1
    cpu = time.process_time() - start
    return sum(conn.frames for conn in conns), cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    play(20, args.spectators, args.seed + 1)  # warm-up
    frames, cpu = play(args.hands, args.spectators, args.seed)
    result = {
        "hands": args.hands,
        "connections": 8 + args.spectators,
        "frames_delivered": frames,
        "cpu_us_per_frame": round(1e6 * cpu / frames, 2),
    }
    print(json.dumps(result) if args.json else result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
