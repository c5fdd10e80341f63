"""Issue 14: the relay between nodes, over a real ``redis-server``. Node A owns a room (a real
``RoomActor``); node B holds the sockets of a second player and a spectator and reaches the
room only through the relay (``RemoteActor``: commands to A, A's numbered frames back on each
connection's own channel, and the frames for anyone that both of B's spectators get once on
B's fan channel). They play hands to the end; a subscriber on every channel (pattern ``*``)
sees that cards travel only on per-connection channels and on the fan channel, that each
connection got, across both, exactly what the room addressed to it, in order, and that no
hole card reaches anyone but its owner (nor the fan channel) before a showdown."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import redis.asyncio as redis

from ahiko.poker.actions import Action
from ahiko.poker.cards import format_card
from ahiko.poker.events import CardsShown, HoleDealt
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.outbox import Frame
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.cluster.codec import decode_command, encode_command
from ahiko.server.cluster.relay import (
    Publisher,
    RelayEdge,
    RelayHost,
    connection_channel,
    fan_channel,
)

pytestmark = pytest.mark.cluster

QUOTED_CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
HANDS = 200


def _config() -> RoomConfig:
    return RoomConfig(
        name="mesa",
        kind=RoomKind.RECREATIONAL,
        variant=Variant.HOLDEM,
        seats=3,
        starting_chips=100_000,
        schedule=BlindSchedule(Stakes(small_blind=5, big_blind=10)),
    )


class Recorder:
    def __init__(self, connection_id: str, player_id: str | None) -> None:
        self.connection_id = connection_id
        self.player_id = player_id
        self.frames: list[dict[str, Any]] = []

    def sink(self, frame: Frame) -> None:
        self.frames.append(json.loads(frame.text()))


def test_commands_round_trip_through_the_codec() -> None:
    for command in (
        c.Act("bia", 7, Action.raise_to(240), 1),
        c.Act("bia", 7, Action.fold()),
        c.Sit("bia", "Bia", 2),
        c.Connect("ws-1", None, 12),
        c.Chat("bia", "Bia", "oi", None),
    ):
        assert decode_command(json.loads(json.dumps(encode_command(command)))) == command
    with pytest.raises(ValueError, match="no room command"):
        decode_command({"type": "Reply", "ok": True})
    with pytest.raises(ValueError, match="no room command"):
        decode_command({"type": "os.system"})


async def _until(predicate: Any, what: str, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"timed out: {what}"
        await asyncio.sleep(0.002)


def test_two_people_on_two_nodes_and_a_spectator_play_through_the_relay(redis_url: str) -> None:
    async def scenario() -> dict[str, Any]:
        clock = ManualClock()
        registry = RoomRegistry(clock=clock)
        actor = registry.create(_config(), host_id="ana")
        room_id = actor.room_id
        a_redis, b_redis, spy_redis = (redis.Redis.from_url(redis_url) for _ in range(3))
        spy = spy_redis.pubsub()
        await spy.psubscribe("*")  # the leak scan: every message on every channel
        seen: list[tuple[str, str]] = []

        async def scan() -> None:
            async for message in spy.listen():
                if message["type"] == "pmessage":
                    seen.append((message["channel"].decode(), message["data"].decode()))

        scanner = asyncio.create_task(scan())
        a_pub, b_pub = Publisher(a_redis), Publisher(b_redis)
        a_pub.start()
        b_pub.start()
        addressed: dict[str, list[str]] = {}  # what the room handed to each remote connection

        def actor_of(rid: str) -> Any:
            return actor if rid == room_id else None

        host = RelayHost(a_redis, "a", a_pub, actor_of, lambda rid: 1)
        original = actor.subscribe

        def teeing_subscribe(cid: str, sink: Any) -> None:
            if cid == "c-ana":  # ana's socket is on node A: no relay
                original(cid, sink)
                return

            def tee(frame: Frame) -> None:
                addressed.setdefault(cid, []).append(f"1:{frame.text()}")
                sink(frame)

            original(cid, tee)

        actor.subscribe = teeing_subscribe  # type: ignore[method-assign]
        await host.start()
        edge = RelayEdge(b_redis, "b", b_pub)
        await edge.start()
        remote = edge.remote(room_id, "a", 1)

        ana = Recorder("c-ana", "ana")  # on node A, next to the room
        bia = Recorder("c-bia", "bia")  # on node B
        watcher = Recorder("c-spec", None)  # on node B, a spectator
        watcher2 = Recorder("c-spec2", None)  # and another: the frames both get, fanned
        actor.subscribe(ana.connection_id, ana.sink)
        assert (await actor.ask(c.Connect(ana.connection_id, "ana"))).ok
        for who in (bia, watcher, watcher2):
            remote.subscribe(who.connection_id, who.sink)
            assert (await remote.ask(c.Connect(who.connection_id, who.player_id))).ok
        await _until(
            lambda: bia.frames and watcher.frames and watcher2.frames,
            "the snapshots over the relay",
        )
        assert (await actor.ask(c.Sit("ana", "Ana", 0))).ok
        sat = await remote.ask(c.Sit("bia", "Bia", 1))
        assert sat.ok, sat
        assert (await actor.ask(c.Start("ana"))).ok

        remotes = (bia, watcher, watcher2)
        truth: dict[int, dict[str, set[str]]] = {}  # hand -> seat's hole cards, shown cards
        played = 0
        while played < HANDS:
            clock.advance(actor.config.timing.commitment_display_s)
            hand = actor.room.dealer.hand
            if hand is None:
                clock.advance(actor.config.timing.next_hand_delay_s)
                continue
            record = truth.setdefault(hand.hand_no, {"0": set(), "1": set(), "shown": set()})
            for event in hand.engine.events if hand.engine is not None else ():
                if isinstance(event, HoleDealt):
                    record[str(event.seat)] |= {format_card(x) for x in event.cards}
            if hand.to_act is None:
                clock.advance(1.0)
                continue
            mover = hand.players[hand.to_act]
            legal = hand.legal()
            action = Action.check() if legal.can_check else Action.call()
            door = actor if mover == "ana" else remote  # bia acts from node B
            number = hand.hand_no
            answer = await door.ask(c.Act(mover, number, action))
            assert answer.ok, answer
            for event in hand.engine.events if hand.engine is not None else ():
                if isinstance(event, CardsShown):
                    record["shown"] |= {format_card(x) for x in event.cards}
            if actor.room.dealer.hand is not hand:
                played += 1
        await _until(
            lambda: all(len(w.frames) >= len(addressed[w.connection_id]) for w in remotes),
            "the last frames on node B",
        )
        await asyncio.sleep(0.2)
        scanner.cancel()
        await host.stop()
        await edge.stop()
        await a_pub.stop()
        await b_pub.stop()
        for client in (a_redis, b_redis, spy_redis):
            await client.aclose()
        return {
            "seen": seen, "addressed": addressed, "truth": truth, "ana": ana, "bia": bia,
            "watcher": watcher, "watcher2": watcher2, "played": played, "fanned": edge.fanned,
        }  # fmt: skip

    result = asyncio.run(scenario())
    assert result["played"] >= HANDS
    seen, addressed = result["seen"], result["addressed"]
    bia, watcher = result["bia"], result["watcher"]
    # The remote connections got, in order, exactly the frames the room addressed to them.
    for who in (bia, watcher, result["watcher2"]):
        sent = [json.loads(text.partition(":")[2]) for text in addressed[who.connection_id]]
        assert who.frames == sent
        seqs = [f["seq"] for f in who.frames if f["t"] != "snapshot"]
        assert seqs == sorted(seqs)
    # Every message the `*` subscriber saw: cards only on per-connection channels and on node
    # B's fan channel, and a connection's channel and the fans that name it carry, in the
    # order seen, exactly what the room addressed to that connection.
    truth = result["truth"]
    hole = {n: record["0"] | record["1"] for n, record in truth.items()}
    on_channel: dict[str, list[str]] = {}
    fans = fanned = 0
    for channel, data in seen:
        if channel.startswith(connection_channel("")):
            on_channel.setdefault(channel, []).append(data)
        elif channel == fan_channel("b"):
            epoch, cids, frame = data.split(":", 2)
            assert len(cids.split(",")) > 1, data[:200]  # one connection's: on its own
            for cid in cids.split(","):
                on_channel.setdefault(connection_channel(cid), []).append(f"{epoch}:{frame}")
            number = _hand_no(json.loads(frame))
            cards = set(QUOTED_CARD.findall(frame))
            if number is not None:  # no hole card not shown (the board's may be)
                assert not (cards & hole.get(number, set())) - truth[number]["shown"], data
            fans += 1
            fanned += len(cids.split(","))
        else:
            assert not QUOTED_CARD.search(data), (channel, data[:200])
    for cid, texts in addressed.items():
        assert on_channel.get(connection_channel(cid), []) == texts
    assert set(on_channel) == {connection_channel(cid) for cid in addressed}
    # The spectators' frames came fanned, one message for both (bia in the public ones too).
    assert fans >= HANDS and result["fanned"] == fanned > 2 * fans
    # No hole card of a hand reached a spectator, or bia's channel for ana's seat, unless
    # it was shown at a showdown.
    spectator_cards = _cards_by_hand(watcher.frames)
    bia_cards = _cards_by_hand(bia.frames)
    leaks = 0
    for number, cards in spectator_cards.items():
        leaks += len((cards & hole.get(number, set())) - truth[number]["shown"])
    for number, cards in bia_cards.items():
        leaks += len((cards & truth[number]["0"]) - truth[number]["shown"])
    assert leaks == 0
    # the scan is not blind: every hand's hole cards are known, and bia's own cards did
    # reach her on her own channel
    assert all(len(record["0"]) == 2 and len(record["1"]) == 2 for record in truth.values())
    assert sum(bool(cards & truth[n]["1"]) for n, cards in bia_cards.items()) >= HANDS
    assert sum(len(cards) for cards in spectator_cards.values()) > 0  # boards were seen


def _cards_by_hand(frames: list[dict[str, Any]]) -> dict[int, set[str]]:
    """The cards in each frame, by the hand number the frame is about."""
    found: dict[int, set[str]] = {}
    for frame in frames:
        number = _hand_no(frame)
        if number is None:
            continue
        found.setdefault(number, set()).update(QUOTED_CARD.findall(json.dumps(frame)))
    return found


def _hand_no(frame: dict[str, Any]) -> int | None:
    for place in (frame, frame.get("view") or {}, frame.get("hand") or {}):
        if isinstance(place, dict) and isinstance(place.get("hand_no"), int):
            return int(place["hand_no"])
    return None
