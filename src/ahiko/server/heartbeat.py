"""Heartbeats on the table socket: a frozen node is noticed by its players, and a player
who stopped answering is let go.

A node stopped by the operating system (SIGSTOP, a hung VM, a paused container) keeps its TCP
connections open: the kernel still acknowledges packets, so neither side sees a close until
the node wakes. Two heartbeats cover the two directions:

- the server sends a ``ping`` frame every ``every`` seconds on each socket whose client asked
  for them (``?heartbeat=1``, as the browser client does); a client that hears nothing on its
  socket for ``SILENCE_FACTOR`` times ``every`` drops it and reconnects, through the same
  address, so the balancer sends it to a node that answers (docs/protocol.md);
- the server's WebSocket layer sends protocol pings (which browsers and WebSocket libraries
  answer by themselves) and closes a socket whose pong does not come back in time, so the
  seat of a player whose machine froze is counted as away and the socket's memory freed.

``AHIKO_HEARTBEAT_S`` sets ``every`` (3 s): a player notices a frozen node within about
7.5 s, and a ping frame costs a few dozen bytes a socket every 3 s. ``AHIKO_WS_PING_S`` (20 s)
sets the protocol pings' interval and how long an answer may take."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import Any, Protocol

HEARTBEAT_S = 3.0
# How many pings a client may miss before it counts the socket as dead: a loaded but live
# node may send one late (docs/protocol.md states the same factor for other clients).
SILENCE_FACTOR = 2.5
PROTOCOL_PING_S = 20.0
PING = "ping"


class PingTarget(Protocol):
    seq: int

    def send(self, frame: dict[str, Any]) -> None: ...


def heartbeat_seconds(env: Mapping[str, str] | None = None) -> float:
    """``AHIKO_HEARTBEAT_S``: seconds between ping frames (at least 0.2)."""
    env = os.environ if env is None else env
    return max(0.2, float(env.get("AHIKO_HEARTBEAT_S", HEARTBEAT_S)))


def protocol_ping_seconds(env: Mapping[str, str] | None = None) -> float:
    """``AHIKO_WS_PING_S``: uvicorn's ``ws_ping_interval`` and ``ws_ping_timeout`` (20 s,
    uvicorn's own): a socket whose client has not answered a protocol ping that long after it
    was sent is closed (1011). Long on purpose: a browser answers at once even while its page
    is busy, and a script that blocks its event loop for a few seconds is not a dead client."""
    env = os.environ if env is None else env
    return max(0.2, float(env.get("AHIKO_WS_PING_S", PROTOCOL_PING_S)))


def wants_heartbeat(query: Mapping[str, str]) -> bool:
    """The client asked for ping frames (older clients and scripts did not, and get none)."""
    return query.get("heartbeat") == "1"


def start_heartbeat(connection: PingTarget, every: float) -> asyncio.Task[None]:
    """Send ``connection`` a ping frame every ``every`` seconds until cancelled. A ping
    repeats the socket's latest ``seq`` (it is not a room frame) and names ``every``, from
    which the client sets how long a silence it tolerates."""

    async def beat() -> None:
        while True:
            await asyncio.sleep(every)
            connection.send({"t": PING, "seq": connection.seq, "every": every})

    return asyncio.create_task(beat())
