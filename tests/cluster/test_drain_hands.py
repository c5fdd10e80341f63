"""Issue 41: a server drains on SIGTERM. Mid-hand it stops starting hands, lets the hand in
progress play to its end (the players keep acting, the clocks running), then stops; a second
SIGTERM stops it at once. On a cluster the stopping node then hands its rooms over: the other
node takes the room at a hand boundary and deals the next hand, with no hand cancelled. A lone
server keeps the seats: started again, the players are back with their stacks, no bet was
ever held in escrow. ``ahiko admin check-ledger`` is clean after both. Real processes, a
real PostgreSQL and ``redis-server``."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest
from failover import mid_hand, owner_of, seat_players
from house_players import Frame, HousePlayer, seat_of
from nodes import Node, check_ledger, data_folder, house_room
from sqlalchemy import select

from ahiko.rooms.house.cash_out import UNPLAYED_REASON
from ahiko.store.engine import make_engine
from ahiko.store.schema import hands

pytestmark = pytest.mark.cluster

SITE_DRAIN = {"AHIKO_DRAIN_S": "60"}  # a site's bound (the suite's servers drain 2 s)
LEASE_MS = 2000


def _statuses(database_url: str, room_id: str) -> dict[int, str]:
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


def _cancelled(statuses: dict[int, str]) -> list[str]:
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


async def _play_out(players: list[HousePlayer], hand_no: int) -> None:
    """The players keep acting until the hand ends."""
    await asyncio.gather(*(p.until(_ended(hand_no), timeout=90) for p in players))


def _wait_exit(node: Node, timeout: float) -> int:
    assert node.process is not None
    return node.process.wait(timeout=timeout)


def test_a_node_sent_sigterm_mid_hand_finishes_the_hand_and_hands_the_room_over(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    owner = Node("a", redis_url, postgres_url, data, lease_ms=LEASE_MS, env=SITE_DRAIN).start()
    edge = Node("b", redis_url, postgres_url, data, lease_ms=LEASE_MS)
    try:
        room_id = house_room(owner)
        edge.start()

        async def scenario() -> tuple[int, int]:
            players = await seat_players(edge.address, room_id, ("ana", "bia"))
            frame = await mid_hand(players)
            hand_no = int(frame["hand_no"])
            assert owner.process is not None
            owner.process.send_signal(signal.SIGTERM)  # drain: this hand ends here
            await _play_out(players, hand_no)
            await asyncio.to_thread(_wait_exit, owner, 90)
            # the room moved at the hand boundary: the players follow it and play on
            for player in players:
                await player.drain_until_closed(timeout=LEASE_MS / 1000 + 30)
            await asyncio.gather(*(p.resume(timeout=LEASE_MS / 1000 + 30) for p in players))
            nxt = await asyncio.gather(
                *(
                    p.until(lambda f: f["t"] == "hand" and f["hand_no"] > hand_no, timeout=90)
                    for p in players
                )
            )
            new_owner = await owner_of(redis_url, room_id)
            assert new_owner is not None and f"-{edge.port}-" in new_owner
            for player in players:
                await player.close()
            return hand_no, int(nxt[0]["hand_no"])

        hand_no, next_hand = asyncio.run(asyncio.wait_for(scenario(), 300))
        statuses = _statuses(postgres_url, room_id)
        assert statuses[hand_no] == "finished", statuses
        assert _cancelled(statuses) == [], statuses
        assert next_hand > hand_no
        assert "drained in" in owner.log()
    finally:
        owner.stop()
        edge.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_lone_server_sent_sigterm_mid_hand_finishes_it_and_keeps_the_seats(
    postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    server = Node("solo", None, postgres_url, data, env=SITE_DRAIN).start()
    try:
        room_id = house_room(server)

        async def first_run() -> tuple[int, list[HousePlayer]]:
            players = await seat_players(server.address, room_id, ("ana", "bia"))
            frame = await mid_hand(players)
            assert server.process is not None
            stopping = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            await _play_out(players, int(frame["hand_no"]))
            await asyncio.to_thread(_wait_exit, server, 90)
            print(f"\nstopped {time.monotonic() - stopping:.1f} s after SIGTERM")
            return int(frame["hand_no"]), players

        hand_no, players = asyncio.run(asyncio.wait_for(first_run(), 240))
        statuses = _statuses(postgres_url, room_id)
        assert statuses[hand_no] == "finished" and _cancelled(statuses) == [], statuses
        server.start()

        async def second_run() -> int:
            total = 0
            for player in players:
                await player.open()
                snapshot = await player.recv()
                seat = seat_of(snapshot.get("room") or {}, player.user_id)
                assert seat is not None, snapshot
                total += int(seat["stack"])
                await player.ws.close()  # (its HTTP client belongs to the first run's loop)
            return total

        assert asyncio.run(asyncio.wait_for(second_run(), 120)) == 300
        assert _cancelled(_statuses(postgres_url, room_id)) == []
    finally:
        server.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_second_sigterm_stops_a_draining_server_at_once(
    postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    server = Node("solo", None, postgres_url, data, env={"AHIKO_DRAIN_S": "600"}).start()
    try:
        room_id = house_room(server)

        async def scenario() -> float:
            players = await seat_players(server.address, room_id, ("ana", "bia"))
            await mid_hand(players)  # and nobody acts: the drain would wait for the clocks
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            await asyncio.sleep(0)
            while "draining: no new hand" not in server.log():
                assert server.process.poll() is None
                await asyncio.sleep(0.05)
            second = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            await asyncio.to_thread(_wait_exit, server, 60)
            for player in players:
                await player.close()
            return time.monotonic() - second

        took = asyncio.run(asyncio.wait_for(scenario(), 180))
        print(f"\nsecond SIGTERM: stopped in {took:.2f} s")
        assert took < 15  # not the hand's clocks (20 s an action), not the 600 s bound
    finally:
        server.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
