"""One failover round of an Ahiko room (issue 14), shared by the suite's test and the drill
(``bench/failover.py``): two players whose sockets are on node EDGE play at a house room owned
by node OWNER; mid-hand OWNER is killed with SIGKILL; EDGE closes their sockets once the lease
runs out (4409), they reconnect by themselves, and EDGE, finding the room's lease free, takes
it over and restores it from the database: the interrupted hand cancelled, its bets returned,
both back in their seats, a new epoch.

``failover_round`` answers what it measured; the caller asserts on it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as redis
from house_players import Frame, HousePlayer, seat_of
from nodes import Node
from sqlalchemy import select

from ahiko.server.cluster.lease import Leases
from ahiko.server.cluster.ownership import room_lease
from ahiko.store.engine import make_engine
from ahiko.store.schema import hands


@dataclass
class Round:
    hand_no: int  # the hand the owner died in
    served_s: float  # kill -> the first frame of the room's new run on a player's socket
    both_s: float  # kill -> both players' sockets served again
    old_epoch: str
    new_epoch: str
    stacks_before: dict[str, int]  # the interrupted hand's start stacks, by player
    stacks_after: dict[str, int]  # the seats as the new owner restored them
    bets_in_hand: int  # chips in front of the players when the owner died
    status: str  # the interrupted hand's record: "cancelled"
    new_owner: str
    next_hand_no: int | None = None  # the first hand the new owner dealt them
    notes: list[str] = field(default_factory=list)


async def owner_of(redis_url: str, room_id: str) -> str | None:
    client = redis.Redis.from_url(redis_url)
    try:
        holder = await Leases(client, "probe", 1000).holder(room_lease(room_id))
    finally:
        await client.aclose()
    return None if holder is None else holder[0]


async def seat_players(edge: str, room_id: str, names: tuple[str, str]) -> list[HousePlayer]:
    """Sign up two people on node ``edge`` and buy each in at seats 0 and 1 (150 chips)."""
    players = []
    for seat, name in enumerate(names):
        player = HousePlayer(edge, room_id)
        await player.sign_up(name)
        await player.open()
        first = await player.recv()
        assert first["t"] == "snapshot", first
        bought = await player.post("buy_in", {"seat": seat, "amount": 150, "key": f"in-{name}"})
        assert bought.status_code == 200, bought.text
        players.append(player)
    return players


async def mid_hand(players: list[HousePlayer], after: int = 0) -> Frame:
    """Play until a hand numbered above ``after`` is dealt and someone has put chips in beyond
    the blinds (a call or a raise), then stop acting: the hand is in progress."""

    def in_progress(frame: Frame) -> bool:
        if frame["t"] != "hand" or frame["hand_no"] <= after:
            return False
        view = frame["view"]
        return (
            view.get("result") is None
            and view.get("street") == "preflop"
            and view.get("to_act") is not None
        )

    first, second = players

    async def watch(player: HousePlayer) -> Frame:
        # Playing the hands before (check or call) rather than waiting for their clocks: a
        # hand already past its first street ends in seconds, not in minutes of deadlines.
        return await player.until(in_progress, timeout=90)

    dealt, _ = await asyncio.gather(watch(first), watch(second))
    # the player to act calls (chips beyond the blinds go in), then everyone stops
    to_act = dealt["view"]["to_act"]
    for player in players:
        view_frame = player.frames[-1]
        if view_frame["view"].get("viewer") == to_act:
            await player.send("act", hand_no=dealt["hand_no"], action="call")
            called = await player.until(
                lambda f: f["t"] == "hand" and f["view"].get("to_act") != to_act,
                play=False,
                timeout=30,
            )
            return called
    return dealt


def node_suffix(node: Node) -> str:
    """How a node's name in its leases (``HOST-PORT-PID``) ends."""
    return f"-{node.port}-{node.process.pid if node.process else 0}"


async def owner_and_edge(redis_url: str, room_id: str, nodes: list[Node]) -> tuple[Node, Node]:
    """The node of ``nodes`` that owns the room and one that does not; the players' sockets
    go to the latter (``sockets_to``)."""
    holder = await owner_of(redis_url, room_id) or ""
    owner = next(node for node in nodes if holder.endswith(node_suffix(node)))
    return owner, next(node for node in nodes if node is not owner)


async def sockets_to(players: list[HousePlayer], node: Node) -> None:
    for player in players:
        if player.address != node.address:
            await player.ws.close()
            await player.open(node.address)


def _bets(view: dict[str, Any]) -> int:
    return sum(int(seat.get("bet") or 0) for seat in view.get("seats", []) if seat)


async def failover_round(
    owner: Node,
    players: list[HousePlayer],
    database_url: str,
    lease_s: float,
    *,
    after: int = 0,
    deal_again: bool = True,
    fault: Callable[[], None] | None = None,
) -> Round:
    """Kill ``owner`` mid-hand (or ``fault()``: freeze it, say); the players (their sockets on
    another node) resume there."""
    room_id = players[0].room_id
    frame = await mid_hand(players, after)
    hand_no = int(frame["hand_no"])
    bets = _bets(frame["view"])
    old_epoch = str(players[0].epoch)
    # A room's writes run off the event loop (issue 17): the hand's start record may trail
    # its first frame by a moment. Kill once it is stored, so the recovery has a hand to cancel.
    await asyncio.to_thread(_wait_for_record, database_url, room_id, hand_no)
    killed = time.monotonic()
    (fault or owner.kill)()
    for player in players:
        await player.drain_until_closed(timeout=lease_s + 10)
    resumed = await asyncio.gather(*(p.resume(timeout=lease_s + 10) for p in players))
    snapshot = resumed[0][0]
    served = min(at for _, at in resumed) - killed
    both = max(at for _, at in resumed) - killed
    status, start = _hand_record(database_url, room_id, hand_no)
    by_seat = {int(seat): int(chips) for seat, chips in start.items()}
    before, after_stacks = {}, {}
    for player, (first, _) in zip(players, resumed, strict=True):
        room = first.get("room") or {}
        seat = seat_of(room, player.user_id)
        assert seat is not None, f"{player.name} lost the seat: {room}"
        before[player.name] = by_seat.get(int(seat["seat"]), -1)
        after_stacks[player.name] = int(seat["stack"])
    result = Round(
        hand_no=hand_no,
        served_s=served,
        both_s=both,
        old_epoch=old_epoch,
        new_epoch=str(snapshot.get("epoch")),
        stacks_before=before,
        stacks_after=after_stacks,
        bets_in_hand=bets,
        status=status,
        new_owner=str(await owner_of(_redis_of(owner), room_id)),
    )
    if deal_again:  # the room plays on under its new owner: the next hand is dealt to both
        nxt = await asyncio.gather(
            *(
                p.until(lambda f: f["t"] == "hand" and f["hand_no"] > hand_no, timeout=60)
                for p in players
            )
        )
        result.next_hand_no = int(nxt[0]["hand_no"])
    return result


def _redis_of(node: Node) -> str:
    return node.command[node.command.index("--redis-url") + 1]


def _wait_for_record(database_url: str, room_id: str, hand_no: int, timeout: float = 5) -> None:
    engine = make_engine(database_url)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                found = conn.execute(
                    select(hands.c.id).where(hands.c.room_id == room_id, hands.c.hand_no == hand_no)
                ).first()
            if found is not None:
                return
            time.sleep(0.01)
    finally:
        engine.dispose()
    raise AssertionError(f"hand {hand_no} of {room_id} was never recorded as started")


def _hand_record(database_url: str, room_id: str, hand_no: int) -> tuple[str, dict[str, Any]]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                select(hands.c.status, hands.c.start_stacks).where(
                    hands.c.room_id == room_id, hands.c.hand_no == hand_no
                )
            ).one()
    finally:
        engine.dispose()
    return str(row.status), dict(row.start_stacks or {})
