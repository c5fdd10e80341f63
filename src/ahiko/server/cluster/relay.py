"""The relay between nodes: a room's commands to its owner, its numbered frames back.

Redis pub/sub (chosen on a measurement: ``bench/relay_transport.py``, docs/deploy.md):

- ``ahiko:node:NODE``: requests to the node NODE about the rooms it owns, one JSON object each:
  ``{"op": "ask", "room", "rid", "reply", "command"}``, ``{"op": "subscribe", "room", "cid"}``,
  ``{"op": "unsubscribe", "room", "cid"}``, ``{"op": "describe", "room", "rid", "reply"}``
  (the room's public description, ``GET /api/rooms/{id}`` on another node); and ``{"op": "call", "rid", "reply", "call",
  "player", "args"}``, a request to the cluster's leader that is about no room (a sit & go
  or MTT route forwarded by another node, ``ahiko.server.cluster.competition``);
- ``ahiko:reply:NODE``: the answers to NODE's asks, ``{"rid", "reply"}``, and describes,
  ``{"rid", "summary"}`` (or ``"gone"`` when the room is not, or no more, on the node asked),
  and to its calls, ``{"rid", "body"}`` or
  ``{"rid", "error"}`` (``"gone"``: the node asked does not lead);
- ``ahiko:conn:CID``: the frames for connection CID only, each ``EPOCH:FRAME``, where EPOCH
  is the owner's fencing token for the room (a new owner, a new epoch: the client's ``seq``
  numbers restart and it must ask for a snapshot instead of replaying);
- ``ahiko:fan:NODE``: a frame for anyone (``Frame.for_anyone``: a public frame, or the view of
  the table from no seat, which shows a card only once it is on the board or shown) that
  several of NODE's connections get, published once for all of them:
  ``EPOCH:CID,CID,...:FRAME``. NODE's edge decodes it once and hands it to each.

FRAME is the frame's JSON sealed with the nodes' shared key (``ahiko.server.cluster.sealing``:
Redis never carries a card in clear), or the JSON itself for a relay built without a key.

There is no room-wide channel: a room hands each frame to each connection as that connection's
viewer sees it (``ahiko.rooms.outbox``), so a player's private frames (hole cards, own proofs:
any frame built for a seat) only ever travel on that player's own connection's channel; the
fan channel carries only what a spectator is shown.

Order: each node publishes everything on one connection (``RespPublisher``: in the order
put, one write a turn of the loop) and reads all its channels on one other
(``RespSubscriber``); Redis runs one client's commands in order and appends each message to
a subscriber's output in the order published, whatever the channel, so a connection's frames
arrive as the owner put them. The owner keeps that order across the two channels: a fan
takes in a connection only when nothing else was put for it since the fan's place in the
batch (``_FanOut``).

``RelayHost`` serves the owner's side; ``RelayEdge`` the side that holds the sockets, with a
``RemoteActor`` per room that answers the gateway as the room's own actor does (``subscribe``,
``unsubscribe``, ``ask``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from ahiko.rooms.commands import Connect, Reply
from ahiko.rooms.outbox import Frame, Sink, encode_json
from ahiko.server.cluster.codec import decode_command, decode_reply, encode_command, encode_reply
from ahiko.server.cluster.lease import PREFIX
from ahiko.server.cluster.resp import RespPublisher, RespSubscriber, publish
from ahiko.server.cluster.sealing import RelaySeal

log = logging.getLogger(__name__)

ASK_TIMEOUT_S = 5.0
ANSWERED = frozenset({"ask", "call", "describe"})  # the requests that wait for an answer
GONE = Reply.refused("room_moved", "the table is moving to another server; reconnecting")


def _dumps(message: dict[str, Any]) -> bytes:
    return encode_json(message)  # the frames' encoder: its fast path for text keys


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


def reply_channel(node: str) -> str:
    return f"{PREFIX}reply:{node}"


def connection_channel(connection_id: str) -> str:
    return f"{PREFIX}conn:{connection_id}"


def fan_channel(node: str) -> str:
    return f"{PREFIX}fan:{node}"


#: The connection ids a fan message may list (``ws-`` and a URL-safe token at the gateway):
#: none holds the ``,`` and ``:`` that separate them from each other and from the frame.
_FANNABLE = re.compile(rb"[A-Za-z0-9_.\-]+")


class _Fan:
    """One frame for anyone (``Frame.for_anyone``) to the connections of one edge node that
    get it in a row, published once when its batch is written: on the node's fan channel,
    ``EPOCH:CID,CID,...:FRAME_JSON``, or on the connection's own channel when it is one."""

    __slots__ = ("channel", "cids", "frame", "head", "index", "seal")

    def __init__(
        self,
        channel: bytes,
        head: bytes,
        frame: Frame,
        cid: bytes,
        index: int,
        seal: RelaySeal | None,
    ) -> None:
        self.channel = channel
        self.head = head
        self.frame = frame  # held: its id names the fan until the batch is written
        self.cids = [cid]
        self.index = index
        self.seal = seal

    def resp(self) -> bytes:
        payload = self.frame.json()
        if len(self.cids) == 1:
            channel = connection_channel_bytes(self.cids[0])
            return publish(channel, self.head + _sealed(self.seal, channel, payload))
        sealed = _sealed(self.seal, self.channel, payload)
        return publish(self.channel, self.head + b",".join(self.cids) + b":" + sealed)


def _sealed(seal: RelaySeal | None, channel: bytes, payload: bytes) -> bytes:
    return payload if seal is None else seal.seal(channel, payload)


def connection_channel_bytes(cid: bytes) -> bytes:
    return _CONN + cid


_CONN = connection_channel("").encode()


class _FanOut:
    """The owner's frames to connections on other nodes, in the order the room hands them
    out: a frame for one connection only (a seat's view: hole cards, own proofs) on that
    connection's channel, published at once; a frame for anyone joins the open ``_Fan`` of
    its edge node for that frame when nothing else has been put for the connection since the
    fan's place in the batch (so no connection's frames overtake one another), else opens
    one. Every publish goes through the node's one publisher, in order; every edge node
    reads all its channels on one connection, so Redis hands them over in the same order."""

    def __init__(self, publisher: Publisher, seal: RelaySeal | None = None) -> None:
        self.publisher = publisher
        self.seal = seal  # None: frames in clear (a test's relay)
        self._batch = -1
        self._count = 0
        self._last: dict[bytes, int] = {}  # connection -> index of its last put this batch
        self._open: dict[tuple[bytes, int], _Fan] = {}  # (fan channel, id(frame)) -> fan

    def sink(self, cid: str, node: str | None, epoch: int) -> Sink:
        channel = connection_channel(cid).encode()
        head = b"%d:" % epoch
        put = self.publisher.put
        key = cid.encode()
        if node is None or not _FANNABLE.fullmatch(key):
            seal = self.seal

            def alone(frame: Frame) -> None:  # the frame's own JSON bytes, not encoded again
                put(channel, head + _sealed(seal, channel, frame.json()))

            return alone
        fan = fan_channel(node).encode()

        def shared(frame: Frame) -> None:
            self.put(key, channel, fan, head, frame)

        return shared

    def put(self, cid: bytes, channel: bytes, fan: bytes, head: bytes, frame: Frame) -> None:
        batch = self.publisher.flushes
        if batch != self._batch:  # a new turn of the loop: the last one's fans are written
            self._batch = batch
            self._last.clear()
            self._open.clear()
        self._count += 1
        index = self._count
        if not frame.for_anyone:
            self._last[cid] = index
            self.publisher.put(channel, head + _sealed(self.seal, channel, frame.json()))
            return
        key = (fan, id(frame))
        group = self._open.get(key)
        if (
            group is not None
            and group.frame is frame
            and group.head == head
            and self._last.get(cid, 0) < group.index
        ):
            group.cids.append(cid)
            self._last[cid] = group.index
            return
        group = _Fan(fan, head, frame, cid, index, self.seal)
        self._open[key] = group
        self._last[cid] = index
        self.publisher.put_later(group)


#: Publishes in the order given, from one connection: frames of one connection never
#: overtake each other (``ahiko.server.cluster.resp``).
Publisher = RespPublisher


class RelayHost:
    """The owner's side: answers other nodes' requests about the rooms this node owns.
    ``actor_of(room_id)`` is the local actor (None when not here); ``epoch_of(room_id)`` the
    room's fencing token."""

    def __init__(
        self,
        redis: Any,
        node: str,
        publisher: Publisher,
        actor_of: Callable[[str], Any],
        epoch_of: Callable[[str], int | None],
        seal: RelaySeal | None = None,
    ) -> None:
        self.redis = redis
        self.node = node
        self.publisher = publisher
        self.actor_of = actor_of
        self.epoch_of = epoch_of
        self._subscriber: RespSubscriber | None = None
        self._fanout = _FanOut(publisher, seal)
        self._in_flight: set[asyncio.Task[None]] = set()
        self._remote: dict[str, set[str]] = {}  # room -> connection ids subscribed from afar
        # A signed-in person connected to a room here from another node (the unjoined-room
        # sweep runs on the owner, which would not see that join otherwise).
        self.on_joined: Callable[[str], None] | None = None
        # Answers a ``call`` (the fields of its reply); None: this node takes no calls.
        self.on_call: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None = None

    async def start(self) -> None:
        self._subscriber = RespSubscriber(self.redis, self._on_request)
        await self._subscriber.start([node_channel(self.node)])

    def _on_request(self, channel: bytes, data: bytes) -> None:
        try:
            self._handle(orjson.loads(data))
        except Exception:  # one bad request must not stop the relay
            log.exception("relay request refused")

    def _handle(self, request: dict[str, Any]) -> None:
        if request["op"] == "call":
            self._track(asyncio.get_running_loop().create_task(self._call(request)))
            return
        room_id = str(request["room"])
        actor = self.actor_of(room_id)
        op = request["op"]
        if op == "ask":
            self._track(asyncio.get_running_loop().create_task(self._ask(actor, request)))
        elif op == "describe":
            answer: dict[str, Any] = {"rid": request["rid"]}
            if actor is None:
                answer["gone"] = True
            else:
                answer["summary"] = actor.summary()
            self.publisher.put(str(request["reply"]), _dumps(answer))
        elif op == "subscribe" and actor is not None:
            cid = str(request["cid"])
            epoch = self.epoch_of(room_id) or 0
            node = request.get("node")  # the edge's: its fan channel (an older edge: none)
            sink = self._fanout.sink(cid, None if node is None else str(node), epoch)
            actor.subscribe(cid, sink)
            self._remote.setdefault(room_id, set()).add(cid)
        elif op == "unsubscribe":
            cid = str(request["cid"])
            if actor is not None:
                actor.unsubscribe(cid)
            self._remote.get(room_id, set()).discard(cid)

    def _track(self, task: asyncio.Task[None]) -> None:
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)

    async def _call(self, request: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"rid": request["rid"]}
        if self.on_call is None:
            answer["gone"] = True
        else:
            answer.update(await self.on_call(request))
        self.publisher.put(str(request["reply"]), _dumps(answer))

    async def _ask(self, actor: Any, request: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"rid": request["rid"]}
        if actor is None:
            answer["gone"] = True
        else:
            command = decode_command(request["command"])
            if isinstance(command, Connect) and command.player_id and self.on_joined:
                self.on_joined(actor.room_id)
            reply = await actor.ask(command)
            answer["reply"] = encode_reply(reply)
        self.publisher.put(str(request["reply"]), _dumps(answer))

    def remote_connections(self, room_id: str) -> set[str]:
        return set(self._remote.get(room_id, ()))

    async def stop(self) -> None:
        if self._subscriber is not None:
            await self._subscriber.stop()
            self._subscriber = None


class RelayEdge:
    """The sockets' side: one subscription to this node's replies and to the channels of its
    connections to rooms owned elsewhere."""

    def __init__(
        self, redis: Any, node: str, publisher: Publisher, seal: RelaySeal | None = None
    ) -> None:
        self.redis = redis
        self.node = node
        self.publisher = publisher
        self.seal = seal  # the owners' frames come sealed with the nodes' shared key
        self._subscriber = RespSubscriber(redis, self._dispatch)
        self._sinks: dict[str, tuple[Sink, Callable[[int], None]]] = {}
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._reply_channel = reply_channel(node).encode()
        self._fan_channel = fan_channel(node).encode()
        self._prefix = len(connection_channel(""))
        self.received = 0  # frames handed to this node's connections
        self.fanned = 0  # of which came in a fan message, one of several connections

    async def start(self) -> None:
        await self._subscriber.start([reply_channel(self.node), fan_channel(self.node)])

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        try:
            if channel == self._reply_channel:
                answer = orjson.loads(data)
                future = self._replies.pop(int(answer["rid"]), None)
                if future is not None and not future.done():
                    future.set_result(answer)
                return
            if channel == self._fan_channel:
                self._fanned(data)
                return
            found = self._sinks.get(channel[self._prefix :].decode())
            if found is None:
                return
            colon = data.index(b":")
            sink, saw_epoch = found
            saw_epoch(int(data[:colon]))
            self.received += 1
            # The owner's compact JSON goes on to the socket as it came (not encoded again).
            sink(Frame.from_json(self._opened(channel, memoryview(data)[colon + 1 :])))
        except Exception:  # one bad message must not stop the node's relay
            log.exception("relay message dropped")

    def _fanned(self, data: bytes) -> None:
        """``EPOCH:CID,CID,...:FRAME_JSON``: one frame, decoded once, to each connection."""
        colon = data.index(b":")
        end = data.index(b":", colon + 1)
        epoch = int(data[:colon])
        frame = Frame.from_json(self._opened(self._fan_channel, memoryview(data)[end + 1 :]))
        for cid in data[colon + 1 : end].split(b","):
            found = self._sinks.get(cid.decode())
            if found is None:
                continue
            sink, saw_epoch = found
            saw_epoch(epoch)
            self.received += 1
            self.fanned += 1
            sink(frame)

    def _opened(self, channel: bytes, payload: memoryview) -> memoryview | bytes:
        return payload if self.seal is None else self.seal.open(channel, payload)

    def remote(self, room_id: str, owner: str, epoch: int) -> RemoteActor:
        return RemoteActor(self, room_id, owner, epoch)

    async def watch(self, cid: str, sink: Sink, saw_epoch: Callable[[int], None]) -> None:
        self._sinks[cid] = (sink, saw_epoch)
        await self._subscriber.subscribe(connection_channel(cid))

    async def unwatch(self, cid: str) -> None:
        self._sinks.pop(cid, None)
        with contextlib.suppress(Exception):
            await self._subscriber.unsubscribe(connection_channel(cid))

    async def request(
        self, owner: str, request: dict[str, Any], timeout: float = ASK_TIMEOUT_S
    ) -> dict[str, Any] | None:
        """Send ``request`` to ``owner``; an ask or a call waits for its answer (None: no
        answer within ``timeout``, the owner is gone)."""
        # Through the node's one publisher: in order, pipelined, on one connection.
        if request["op"] not in ANSWERED:
            self.publisher.put(node_channel(owner), _dumps(request))
            return None
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = future
        self.publisher.put(
            node_channel(owner),
            _dumps({**request, "rid": rid, "reply": reply_channel(self.node)}),
        )
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self._replies.pop(rid, None)
            return None

    async def stop(self) -> None:
        await self._subscriber.stop()


class RemoteActor:
    """A room owned by another node, as the gateway sees it: the same ``subscribe``,
    ``unsubscribe`` and ``ask`` as a local ``RoomActor``. ``epoch`` is the owner's fencing
    token; ``moved`` is set when a frame or an answer shows the room is elsewhere now."""

    def __init__(self, edge: RelayEdge, room_id: str, owner: str, epoch: int) -> None:
        self.edge = edge
        self.room_id = room_id
        self.owner = owner
        self.epoch = epoch
        self.moved = asyncio.Event()
        self._pending: dict[str, asyncio.Task[None]] = {}
        # The room's run on its owner (``RoomActor.epoch``), as its last answer named it:
        # the gateway's error frames carry it, as the owner's own do.
        self.room_epoch: str | None = None

    def _saw(self, epoch: int) -> None:
        if epoch != self.epoch:
            self.moved.set()

    def subscribe(self, connection_id: str, sink: Sink) -> None:
        async def go() -> None:
            await self.edge.watch(connection_id, sink, self._saw)
            await self.edge.request(
                self.owner,
                {
                    "op": "subscribe",
                    "room": self.room_id,
                    "cid": connection_id,
                    "node": self.edge.node,  # frames for anyone come on its fan channel
                },
            )

        self._pending[connection_id] = asyncio.get_running_loop().create_task(go())

    def unsubscribe(self, connection_id: str) -> None:
        async def go() -> None:
            await self.edge.request(
                self.owner, {"op": "unsubscribe", "room": self.room_id, "cid": connection_id}
            )
            await self.edge.unwatch(connection_id)

        self._pending.pop(connection_id, None)
        task = asyncio.get_running_loop().create_task(go())
        self._pending[f"-{connection_id}"] = task

    async def describe(self) -> dict[str, Any] | None:
        """The room's public description, from its owner (None: the owner has it no more)."""
        answer = await self.edge.request(self.owner, {"op": "describe", "room": self.room_id})
        if answer is None or answer.get("gone"):
            self.moved.set()
            return None
        return dict(answer["summary"])

    async def ask(self, command: Any) -> Reply:
        for task in list(self._pending.values()):
            await task  # the subscription is in place before the first command
        self._pending.clear()
        answer = await self.edge.request(
            self.owner, {"op": "ask", "room": self.room_id, "command": encode_command(command)}
        )
        if answer is None or answer.get("gone"):
            self.moved.set()
            return GONE
        reply = decode_reply(answer["reply"])
        if reply.epoch:
            self.room_epoch = str(reply.epoch)
        return reply
