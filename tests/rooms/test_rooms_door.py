"""The room's one door (DESIGN.md principle 6, issue 13): commands in through the actor, a
``Reply`` carrying the frame number back, numbered JSON frames out to subscribers named by
connection id, a short buffer replaying what a reconnecting client missed."""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path
from typing import Any

from rooms_helpers import holdem_config

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.outbox import FRAME_BUFFER_SIZE, Frame
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.protocol import SERVER_FRAME

SRC = Path(__file__).resolve().parents[2] / "src" / "ahiko"


class FakeSubscriber:
    """Stands for a socket in another process: it only ever gets frames as JSON text."""

    def __init__(self, connection_id: str, player_id: str | None) -> None:
        self.connection_id = connection_id
        self.player_id = player_id
        self.frames: list[dict[str, Any]] = []

    def sink(self, frame: Frame) -> None:
        assert isinstance(frame, Frame)
        decoded = json.loads(frame.text())
        assert decoded == frame.as_dict()  # nothing a JSON round trip would change
        SERVER_FRAME.validate_python(decoded)
        self.frames.append(decoded)

    @property
    def last_seq(self) -> int:
        return max(f["seq"] for f in self.frames)

    def numbered_after(self, seq: int) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["seq"] > seq and f["t"] != "snapshot"]


async def _join(
    actor: RoomActor, sub: FakeSubscriber, since: int | None = None, epoch: str | None = None
) -> c.Reply:
    """Subscribe and connect; a ``since`` is of this run of the room unless ``epoch`` says."""
    actor.subscribe(sub.connection_id, sub.sink)
    run = actor.epoch if epoch is None and since is not None else epoch
    return await actor.ask(c.Connect(sub.connection_id, sub.player_id, since, run))


async def _leave(actor: RoomActor, sub: FakeSubscriber) -> None:
    assert (await actor.ask(c.Disconnect(sub.connection_id))).ok
    actor.unsubscribe(sub.connection_id)


async def _to_act(actor: RoomActor, pid: str) -> c.Reply:
    room = actor.room  # the test looks inside to choose a legal move; it acts through the door
    hand = room.dealer.hand
    assert hand is not None and hand.to_act is not None
    legal = hand.legal()
    action = Action.check() if legal.can_check else Action.call()
    return await actor.ask(c.Act(pid, hand.hand_no, action))


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_room_driven_through_its_actor_replays_a_gap_on_reconnect() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        actor = RoomRegistry(clock=clock).create(holdem_config(seats=3), host_id="ana")
        ana, bia = FakeSubscriber("c-ana", "ana"), FakeSubscriber("c-bia", "bia")
        assert (await _join(actor, ana)).ok and (await _join(actor, bia)).ok
        assert ana.frames[0]["t"] == "snapshot"
        assert (await actor.ask(c.Sit("ana", "Ana", 0))).ok
        assert (await actor.ask(c.Sit("bia", "Bia", 1))).ok
        started = await actor.ask(c.Start("ana"))
        assert started.ok and started.seq == ana.last_seq  # the reply names the last frame
        clock.advance(actor.config.timing.commitment_display_s)  # R-FD-02: then the cards
        seen = ana.last_seq
        await _leave(actor, ana)  # ana's socket drops mid-hand
        for _ in range(2):
            hand = actor.room.dealer.hand
            if hand is None or hand.to_act is None:
                break
            mover = hand.players[hand.to_act]
            if mover == "ana":
                break
            assert (await _to_act(actor, mover)).ok
        missed_by_bia = bia.numbered_after(seen)
        assert missed_by_bia  # something happened while ana was away
        again = FakeSubscriber("c-ana-2", "ana")
        reply = await _join(actor, again, since=seen)
        assert reply.ok
        replayed = again.frames[: len(missed_by_bia)]
        # The gap, in order, numbered without a hole, and no snapshot needed:
        assert [f["seq"] for f in replayed] == list(range(seen + 1, seen + 1 + len(replayed)))
        assert all(f["t"] != "snapshot" for f in again.frames)
        assert [f["t"] for f in replayed] == [f["t"] for f in missed_by_bia]
        # ...each as ana's seat sees it: her own cards, never bia's (R-FD-03).
        for frame in replayed:
            if frame["t"] == "hand":
                seats = {s["seat"]: s for s in frame["view"]["seats"]}
                assert seats[0].get("cards") and not seats[1].get("cards")

    _run(scenario())


def test_a_gap_older_than_the_buffer_gets_a_snapshot() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        actor = RoomRegistry(clock=clock).create(holdem_config(seats=3), host_id="ana")
        watcher = FakeSubscriber("c-w", None)
        await _join(actor, watcher)
        for _ in range(FRAME_BUFFER_SIZE + 5):  # bots come and go: a frame each
            added = await actor.ask(c.AddBot("ana", "random"))
            assert added.ok
            assert (await actor.ask(c.RemoveBot("ana", added.data["seat"]))).ok
        late = FakeSubscriber("c-late", None)
        await _join(actor, late, since=3)
        assert [f["t"] for f in late.frames] == ["snapshot"]
        ahead = FakeSubscriber("c-ahead", None)  # a number this room never sent
        await _join(actor, ahead, since=watcher.last_seq + 10)
        assert [f["t"] for f in ahead.frames] == ["snapshot"]
        current = FakeSubscriber("c-now", None)  # up to date: nothing to send
        await _join(actor, current, since=watcher.last_seq)
        assert current.frames == []

    _run(scenario())


def test_every_frame_and_reply_names_the_rooms_run_and_another_runs_since_gets_a_snapshot() -> None:
    """Issue 14's relay tells a gap from a new owner by ``(epoch, seq)``: every frame and
    every ``Reply`` carries the run's epoch; the same room reopened (a restart, another
    owner) numbers its frames from 0 again under a new epoch, so a ``since`` of the old run
    gets a snapshot even where its number would fit, and one of the new run a replay."""

    async def scenario() -> None:
        clock = ManualClock()
        first = RoomRegistry(clock=clock).create(holdem_config(seats=3), "ana", room_id="r-1")
        ana = FakeSubscriber("c-ana", "ana")
        await _join(first, ana)
        sat = await first.ask(c.Sit("ana", "Ana", 0))
        added = await first.ask(c.AddBot("ana", "random"))
        assert sat.ok and added.ok and sat.epoch == added.epoch == first.epoch
        assert ana.frames and {f["epoch"] for f in ana.frames} == {first.epoch}
        seen = ana.last_seq
        again = RoomRegistry(clock=clock).create(holdem_config(seats=3), "ana", room_id="r-1")
        assert again.epoch != first.epoch
        for _ in range(seen + 2):  # the new run passes the old run's numbers
            bot = await again.ask(c.AddBot("ana", "random"))
            assert bot.ok and bot.epoch == again.epoch
            assert (await again.ask(c.RemoveBot("ana", bot.data["seat"]))).ok
        stale = FakeSubscriber("c-stale", "ana")
        await _join(again, stale, since=seen, epoch=first.epoch)
        assert [f["t"] for f in stale.frames] == ["snapshot"]
        assert stale.frames[0]["epoch"] == again.epoch
        unnamed = FakeSubscriber("c-unnamed", "ana")  # a number without its run names nothing
        again.subscribe(unnamed.connection_id, unnamed.sink)
        await again.ask(c.Connect(unnamed.connection_id, "ana", seen, None))
        assert [f["t"] for f in unnamed.frames] == ["snapshot"]
        current = FakeSubscriber("c-current", "ana")
        await _join(again, current, since=seen)  # this run's frame ``seen``: a replay
        assert current.frames and all(f["t"] != "snapshot" for f in current.frames)
        assert [f["seq"] for f in current.frames] == list(
            range(seen + 1, again.room.broadcast.seq + 1)
        )
        assert {f["epoch"] for f in current.frames} == {again.epoch}

    _run(scenario())


def test_R_RM_10_the_house_closes_a_room_by_sending_close_to_its_inbox() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        registry = RoomRegistry(clock=clock)
        actor = registry.create(holdem_config(seats=3), host_id="ana")
        watcher = FakeSubscriber("c-w", None)
        await _join(actor, watcher)
        registry.retire(actor.room_id, "surplus")
        assert registry.get(actor.room_id) is None  # nobody can find it any more
        clock.advance(0)  # the room's thread takes the command
        assert watcher.frames[-1]["t"] == "closed" and watcher.frames[-1]["reason"] == "surplus"
        assert not actor.is_open
        closed = await RoomRegistry(clock=clock).create(holdem_config()).ask(c.Close(None))
        assert closed.ok  # the house needs no host

    _run(scenario())


def test_R_RM_05_a_player_cannot_close_a_room_as_the_house() -> None:
    async def scenario() -> None:
        actor = RoomRegistry(clock=ManualClock()).create(holdem_config(), host_id="ana")
        reply = await actor.ask(c.Close("bia"))
        assert not reply.ok and reply.code == "not_host" and actor.is_open

    _run(scenario())


def test_nothing_outside_the_actor_reads_the_room() -> None:
    """The gateway, the APIs, the lobby and other rooms' jobs reach a room through its actor
    only: no ``<something>.room`` attribute is read anywhere in the package but by the actor
    itself (``self.room``)."""
    readers = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "room":
                owner = node.value
                if not (isinstance(owner, ast.Name) and owner.id == "self"):
                    readers.append(f"{path.relative_to(SRC)}:{node.lineno}")
                elif path.name != "actor.py":
                    readers.append(f"{path.relative_to(SRC)}:{node.lineno} (self.room)")
    assert readers == []


def test_a_reconnect_replays_the_chat_said_while_away_without_the_muted() -> None:
    """Chat lines are not numbered frames; a replayed gap brings the lines said since the
    client's last frame too (each once: the client tells them apart by ``no``), never those
    of a player the reconnecting viewer muted, never older ones."""

    async def scenario() -> None:
        actor = RoomRegistry(clock=ManualClock()).create(holdem_config(seats=3), host_id="ana")
        ana = FakeSubscriber("c-ana", "ana")
        await _join(actor, ana)
        for seat, (pid, name) in enumerate((("ana", "Ana"), ("bia", "Bia"))):
            assert (await actor.ask(c.Sit(pid, name, seat))).ok
        assert (await actor.ask(c.Chat("bia", "Bia", "said before"))).ok
        assert (await actor.ask(c.Sit("cai", "Cai", 2))).ok  # a numbered frame after it
        assert (await actor.ask(c.ChatMute("ana", "cai"))).ok
        seen = ana.last_seq
        await _leave(actor, ana)
        assert (await actor.ask(c.Chat("bia", "Bia", "while you were away"))).ok
        assert (await actor.ask(c.Chat("cai", "Cai", "muted by ana"))).ok
        assert (await actor.ask(c.Leave("cai"))).ok  # and a numbered frame to replay
        again = FakeSubscriber("c-ana-2", "ana")
        assert (await _join(actor, again, since=seen)).ok
        kinds = [f["t"] for f in again.frames]
        assert "snapshot" not in kinds  # a replay, not a fresh start
        assert [f["msg"]["text"] for f in again.frames if f["t"] == "chat"] == [
            "while you were away"
        ]

    _run(scenario())
