"""The relay's two Redis connections, spoken in RESP directly over an asyncio
protocol and parsed by ``hiredis``: redis-py's pipeline and pub/sub paths cost about 95 µs of
CPU a published 2 KB frame (batches of 4) and 74 µs a received one on this machine, against
11 and 13 µs this way (one microbenchmark, uvloop, load average 8), and the relay is one
publish and one receive per relayed frame.

- ``RespPublisher``: ``put(channel, payload)`` appends a ``PUBLISH`` to a buffer written in
  one ``write`` at the end of the event loop's turn (everything a room sent that turn: one
  syscall), in the order given, on one connection; the integer replies are counted, not
  awaited. ``put_later`` keeps a publish's place in the batch and makes its bytes only when
  the batch is written (the relay's fan of one frame to several connections grows until
  then). While the connection is down the last ``MAX_UNSENT`` are kept for it, the older
  dropped (a client resyncs by ``seq``).
- ``RespSubscriber``: one connection in subscribe mode; ``subscribe``/``unsubscribe`` wait
  for Redis to confirm; every message goes to ``on_message(channel, data)`` as bytes, parsed
  in C. After a lost connection it connects again and subscribes to the same channels.

Both connect as the node's redis-py client does (host and port, or a Unix socket; user and
password; TLS for ``rediss://``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import hiredis

log = logging.getLogger(__name__)

RECONNECT_S = 0.2
MAX_UNSENT = 10_000  # publishes kept while not connected (the oldest dropped beyond)
OnMessage = Callable[[bytes, bytes], None]


class Later(Protocol):
    """A publish made into bytes only when its batch is written (``RespPublisher.put_later``)."""

    def resp(self) -> bytes: ...


def command(*args: bytes) -> bytes:
    """One RESP command (an array of bulk strings)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        parts.append(b"$%d\r\n" % len(arg))
        parts.append(arg)
        parts.append(b"\r\n")
    return b"".join(parts)


def publish(channel: bytes, payload: bytes) -> bytes:
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
        len(channel),
        channel,
        len(payload),
        payload,
    )


async def open_connection(
    client: Any, protocol: Callable[[], asyncio.Protocol]
) -> tuple[asyncio.Transport, Any]:
    """A connection to the Redis ``client`` (redis-py) uses, with ``protocol``; AUTH sent
    first when the client has a password."""
    kwargs = client.connection_pool.connection_kwargs
    loop = asyncio.get_running_loop()
    if kwargs.get("path"):
        transport, proto = await loop.create_unix_connection(protocol, kwargs["path"])
    else:
        tls = ssl.create_default_context() if "ssl_cert_reqs" in kwargs else None
        transport, proto = await loop.create_connection(
            protocol, kwargs.get("host", "localhost"), int(kwargs.get("port", 6379)), ssl=tls
        )
    password = kwargs.get("password")
    if password:
        user = kwargs.get("username")
        auth = [b"AUTH", *([user.encode()] if user else []), str(password).encode()]
        transport.write(command(*auth))
    return transport, proto


async def cancelled(task: asyncio.Task[None] | None) -> None:
    """Cancel a connection's loop and wait for it (whatever it died of)."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


class _Replies(asyncio.Protocol):
    def __init__(self, on_reply: Callable[[Any], None], on_lost: Callable[[], None]) -> None:
        self.reader = hiredis.Reader()
        self.on_reply = on_reply
        self.on_lost = on_lost

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            self.on_reply(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_lost()


class _Connection:
    """One connection to Redis, connected again after a loss until ``stop``; subclasses take
    the replies (``_reply``) and say what to send on every new connection (``_connected``)."""

    name = "relay"

    def __init__(self, client: Any) -> None:
        self.client = client
        self._transport: asyncio.Transport | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    def _begin(self) -> None:
        if self._task is None:
            self._stopped = False
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def _run(self) -> None:
        while not self._stopped:
            lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def gone(lost: asyncio.Future[None] = lost) -> None:
                if not lost.done():
                    lost.set_result(None)

            try:
                self._transport, _ = await open_connection(
                    self.client, lambda: _Replies(self._reply, gone)
                )
            except OSError as error:
                log.warning("%s: %s", self.name, error)
                await asyncio.sleep(RECONNECT_S)
                continue
            self._connected()
            await lost
            self._transport = None
            self._disconnected()
            if not self._stopped:
                log.warning("%s: connection to Redis lost; connecting again", self.name)
                await asyncio.sleep(RECONNECT_S)

    def _reply(self, reply: Any) -> None:
        raise NotImplementedError

    def _connected(self) -> None:
        """Called once a (new) connection is open."""

    def _disconnected(self) -> None:
        """Called once it is lost."""

    async def _end(self) -> None:
        self._stopped = True
        if self._transport is not None:
            self._transport.close()
        await cancelled(self._task)
        self._task = None


class RespPublisher(_Connection):
    """Publishes in the order given, batched per turn of the event loop, on one connection."""

    name = "relay publisher"

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.published = 0  # publishes Redis answered
        self.dropped = 0  # frames put while the connection was down
        self.flushes = 0  # turns of the loop whose publishes were handed on (a batch's name)
        self._buffer: list[bytes | Later] = []
        self._flushing = False

    def start(self) -> None:
        self._begin()

    def _connected(self) -> None:
        self._flush()

    def _reply(self, reply: Any) -> None:
        if isinstance(reply, hiredis.ReplyError):
            log.warning("relay publish refused: %s", reply)
        else:
            self.published += 1

    def put(self, channel: str | bytes, message: str | bytes) -> None:
        name = channel.encode() if isinstance(channel, str) else channel
        payload = message.encode() if isinstance(message, str) else message
        self._append(publish(name, payload))

    def put_later(self, item: Later) -> None:
        """A publish whose bytes (``item.resp()``) are made when this turn's batch is written,
        in its place among the others: one the caller may still add to until then (while
        ``flushes`` has not moved on)."""
        self._append(item)

    def _append(self, item: bytes | Later) -> None:
        self._buffer.append(item)
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        self.flushes += 1
        if not self._buffer:
            return
        if self._transport is None or self._transport.is_closing():
            excess = len(self._buffer) - MAX_UNSENT  # kept for the connection, up to a bound
            if excess > 0:
                del self._buffer[:excess]
                self.dropped += excess
            return
        buffer, self._buffer = self._buffer, []
        self._transport.write(
            b"".join([item if isinstance(item, bytes) else item.resp() for item in buffer])
        )

    async def stop(self) -> None:
        self._flush()
        await self._end()


class RespSubscriber(_Connection):
    """One subscribe-mode connection; ``on_message(channel, data)`` for every message."""

    name = "relay subscriber"

    def __init__(self, client: Any, on_message: OnMessage) -> None:
        super().__init__(client)
        self.on_message = on_message
        self.channels: set[bytes] = set()
        self._confirm: dict[tuple[bytes, bytes], list[asyncio.Future[None]]] = {}
        self._ready = asyncio.Event()

    async def start(self, channels: Iterable[str] = ()) -> None:
        self._begin()
        await self.subscribe(*channels)

    def _connected(self) -> None:
        if self.channels and self._transport is not None:  # again, after a lost connection
            self._transport.write(command(b"SUBSCRIBE", *sorted(self.channels)))
        self._ready.set()

    def _disconnected(self) -> None:
        self._ready.clear()

    def _reply(self, reply: Any) -> None:
        if isinstance(reply, list) and len(reply) == 3:
            kind = reply[0]
            if kind == b"message":
                self.on_message(reply[1], reply[2])
                return
            waiting = self._confirm.get((kind, reply[1]))
            if waiting:
                future = waiting.pop(0)
                if not waiting:
                    del self._confirm[(kind, reply[1])]
                if not future.done():
                    future.set_result(None)
        elif isinstance(reply, hiredis.ReplyError):
            log.warning("relay subscriber: %s", reply)

    async def subscribe(self, *channels: str) -> None:
        await self._send(b"SUBSCRIBE", b"subscribe", [c.encode() for c in channels])

    async def unsubscribe(self, *channels: str) -> None:
        await self._send(b"UNSUBSCRIBE", b"unsubscribe", [c.encode() for c in channels])

    async def _send(self, verb: bytes, kind: bytes, channels: list[bytes]) -> None:
        if not channels:
            return
        if verb == b"SUBSCRIBE":
            self.channels.update(channels)
        else:
            self.channels.difference_update(channels)
        await self._ready.wait()
        loop = asyncio.get_running_loop()
        futures = []
        for channel in channels:
            future: asyncio.Future[None] = loop.create_future()
            self._confirm.setdefault((kind, channel), []).append(future)
            futures.append(future)
        assert self._transport is not None
        self._transport.write(command(verb, *channels))
        await asyncio.gather(*futures)

    async def stop(self) -> None:
        await self._end()
        for waiting in self._confirm.values():
            for future in waiting:
                future.cancel()
        self._confirm.clear()
