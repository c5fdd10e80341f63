"""One SIGTERM drain round of an Ahiko room (issue 41), shared by the suite's test
(``test_drain_hands.py``) and the drill (``bench/drain.py``): mid-hand the room's server is
sent SIGTERM; the players keep acting until the hand ends; the server exits. On a cluster the
other node takes the room at the hand boundary and deals the next hand; a lone server is
started again and the players find their seats. The hands' records say whether any was
cancelled.

The round functions answer what they saw; the caller asserts on it."""

from __future__ import annotations

import asyncio
import signal
import time
from dataclasses import dataclass, field

from failover import mid_hand, owner_of
from house_players import Frame, HousePlayer, seat_of
from nodes import Node
from sqlalchemy import select

from ahiko.rooms.house.cash_out import UNPLAYED_REASON
from ahiko.store.engine import make_engine
from ahiko.store.schema import hands


@dataclass
class DrainRound:
    hand_no: int  # the hand in progress when SIGTERM came
    status: str  # its record afterwards: "finished"
    drained_s: float  # SIGTERM -> the server's exit
    served_s: float  # the exit -> the room's next hand dealt to both (cluster) / seats back
    next_hand_no: int | None  # the next hand dealt (cluster) or None (a lone server)
    stacks: int  # the players' chips at the table afterwards
    new_owner: str | None = None  # a cluster's node that took the room
    notes: list[str] = field(default_factory=list)


def hand_statuses(database_url: str, room_id: str) -> dict[int, str]:
    """Each hand's record: its status, and why when it was cancelled."""
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(hands.c.hand_no, hands.c.status, hands.c.cancel_reason).where(
                    hands.c.room_id == room_id
                )
            ).all()
    finally:
        engine.dispose()
    return {int(n): str(s) if s != "cancelled" else f"cancelled: {why}" for n, s, why in rows}


def cancelled_hands(statuses: dict[int, str]) -> list[str]:
    """Hands cancelled, except a number the new owner skipped: a room taken over leaves one
    hand number out (its previous run may have shown a commitment it never stored) and
    records it as unplayed (R-FD-06), no card dealt, no chip in."""
    return [s for s in statuses.values() if s.startswith("cancelled") and UNPLAYED_REASON not in s]


def _ended(hand_no: int):  # type: ignore[no-untyped-def]
    def check(frame: Frame) -> bool:
        return (
            frame["t"] == "hand"
            and frame["hand_no"] == hand_no
            and frame["view"].get("result") is not None
        )

    return check


async def play_out(players: list[HousePlayer], hand_no: int) -> None:
    """The players keep acting until the hand ends."""
    await asyncio.gather(*(p.until(_ended(hand_no), timeout=90) for p in players))


def _stacks(players: list[HousePlayer], snapshots: list[Frame]) -> int:
    """The players' chips at the table as the first frames after the drain show them (a
    player without a seat counts nothing)."""
    seats = [
        seat_of(frame.get("room") or {}, player.user_id)
        for player, frame in zip(players, snapshots, strict=True)
    ]
    return sum(int(seat["stack"]) for seat in seats if seat is not None)


def wait_exit(node: Node, timeout: float) -> int:
    assert node.process is not None
    return node.process.wait(timeout=timeout)


async def _sigterm_mid_hand(
    server: Node, players: list[HousePlayer], after: int
) -> tuple[int, float]:
    """SIGTERM mid-hand; the players play the hand out; the server exits. Answers the hand
    and the seconds from SIGTERM to the exit."""
    frame = await mid_hand(players, after)
    hand_no = int(frame["hand_no"])
    assert server.process is not None
    began = time.monotonic()
    server.process.send_signal(signal.SIGTERM)  # drain: this hand ends here
    await play_out(players, hand_no)
    await asyncio.to_thread(wait_exit, server, 90)
    return hand_no, time.monotonic() - began


async def cluster_drain_round(
    owner: Node,
    players: list[HousePlayer],
    database_url: str,
    redis_url: str,
    lease_s: float,
    *,
    after: int = 0,
) -> DrainRound:
    """The room's owner (the players' sockets on another node) drained mid-hand; the room
    moves at the hand boundary and the players follow it and play on."""
    hand_no, drained = await _sigterm_mid_hand(owner, players, after)
    exited = time.monotonic()
    for player in players:
        await player.drain_until_closed(timeout=lease_s + 30)
    resumed = await asyncio.gather(*(p.resume(timeout=lease_s + 30) for p in players))
    stacks = _stacks(players, [frame for frame, _ in resumed])
    nxt = await asyncio.gather(
        *(
            p.until(lambda f: f["t"] == "hand" and f["hand_no"] > hand_no, timeout=90)
            for p in players
        )
    )
    served = time.monotonic() - exited
    return DrainRound(
        hand_no=hand_no,
        status=hand_statuses(database_url, players[0].room_id)[hand_no],
        drained_s=drained,
        served_s=served,
        next_hand_no=int(nxt[0]["hand_no"]),
        stacks=stacks,
        new_owner=await owner_of(redis_url, players[0].room_id),
    )


async def lone_drain_round(
    server: Node, players: list[HousePlayer], database_url: str, *, after: int = 0
) -> DrainRound:
    """A lone server drained mid-hand and started again: the players come back to their
    seats (their sockets reconnect), their chips all there."""
    hand_no, drained = await _sigterm_mid_hand(server, players, after)
    exited = time.monotonic()
    await asyncio.to_thread(server.start)
    snapshots = []
    for player in players:
        await player.open()
        snapshots.append(await player.recv())
    return DrainRound(
        hand_no=hand_no,
        status=hand_statuses(database_url, players[0].room_id)[hand_no],
        drained_s=drained,
        served_s=time.monotonic() - exited,
        next_hand_no=None,
        stacks=_stacks(players, snapshots),
    )
