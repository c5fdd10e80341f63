"""What anyone with access to a cluster's Redis could read (issue 41), for the suite's test and
the drill (``bench/relay_scan.py``): a recorder of every message on every channel
(``PSUBSCRIBE ahiko:*``) and of every command the server runs (``MONITOR``: the publishes'
payloads, the keys' values), and a search of that traffic for the secrets the players saw —
their cards as the frames carry them (a JSON list of card texts: hole cards, a board) and the
salts of the cards' openings."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from typing import Any

import redis.asyncio as redis
from house_players import HousePlayer

CARD_LIST = re.compile(r'\["[2-9TJQKA][cdhs]"(?:,"[2-9TJQKA][cdhs]")*\]')
# In the traffic: a JSON list that starts with a card, its quotes escaped or not.
CARD_LIST_SENT = re.compile(rb'\[\\?"[2-9TJQKA][cdhs]\\?"')
HEX_RUN = re.compile(rb"[0-9a-f]{16,}")


async def record(url: str, seen: list[tuple[str, bytes]], stop: asyncio.Event) -> None:
    """Append ``(source, bytes)`` for each published message and each command run, until
    ``stop``."""
    await asyncio.gather(_subscribed(url, seen, stop), _monitored(url, seen, stop))


async def _subscribed(url: str, seen: list[tuple[str, bytes]], stop: asyncio.Event) -> None:
    client = redis.Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.psubscribe("ahiko:*")
    try:
        while not stop.is_set():
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
            if message is not None:
                seen.append((message["channel"].decode(), message["data"]))
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()


async def _monitored(url: str, seen: list[tuple[str, bytes]], stop: asyncio.Event) -> None:
    client = redis.Redis.from_url(url)

    async def read(monitor: Any) -> None:
        while True:
            command = await monitor.next_command()
            seen.append(("MONITOR", str(command["command"]).encode()))

    try:
        async with client.monitor() as monitor:
            reader = asyncio.create_task(read(monitor))
            await stop.wait()
            await asyncio.sleep(0.5)  # the last commands of the table's end, read too
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
    finally:
        await client.aclose()


def salts_seen(players: list[HousePlayer]) -> set[str]:
    """The salts of the cards' openings in the frames the players got (hex)."""
    return {salt for player in players for frame in player.frames for salt in _salts(frame)}


def cards_seen(players: list[HousePlayer]) -> int:
    """How many card lists the players' frames held (the scan's control: there were some)."""
    return sum(
        len(CARD_LIST.findall(json.dumps(frame, separators=(",", ":"))))
        for player in players
        for frame in player.frames
    )


def _salts(value: Any) -> list[str]:
    if isinstance(value, dict):
        own = [str(v) for k, v in value.items() if k == "salt" and v]
        return own + [s for v in value.values() for s in _salts(v)]
    if isinstance(value, list):
        return [s for v in value for s in _salts(v)]
    return []


def in_clear(traffic: list[tuple[str, bytes]], salts: set[str]) -> list[tuple[str, str]]:
    """``(source, what)`` for every card list and every one of ``salts`` in the traffic, as
    sent or as MONITOR writes it (quotes escaped)."""
    found = []
    for source, data in traffic:
        found += [(source, m.decode()) for m in CARD_LIST_SENT.findall(data)]
        runs = {m.decode() for m in HEX_RUN.findall(data)}
        found += [(source, salt) for salt in salts if any(salt in run for run in runs)]
    return found
