"""One frozen-owner round of an Ahiko room (issue 41), shared by the suite's test and the drill
(``bench/frozen_owner.py``): two players whose sockets are on node EDGE play at a house room
owned by node OWNER; mid-hand OWNER is frozen with SIGSTOP past its lease; EDGE takes the room
over (the hand cancelled, the bets back) and the table plays on there; OWNER is woken with
SIGCONT and must drop its run of the room for good: none of that run's timers fires (not the
hand's action deadline, not the absence that would cash the players out), none of its writes
lands, while the players play on at EDGE for ``play_on_s``.

``frozen_owner_round`` answers what it saw; the caller asserts on it."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from dataclasses import dataclass, field

import httpx
from failover import failover_round
from house_players import Frame, HousePlayer
from nodes import Node
from sqlalchemy import func, select

from ahiko.store.engine import make_engine
from ahiko.store.schema import hands, participations


@dataclass
class FrozenRound:
    hand_no: int  # the hand the owner was frozen in
    status_at_takeover: str  # its record once the other node took the room: "cancelled"
    status_after: str  # ... and after the table played on for ``play_on_s``
    new_owner: str
    dropped: bool  # the woken owner logged that it dropped its run of the room
    timers_cancelled: int  # timers of that run it cancelled when it dropped it
    refused_after_drop: int  # writes of that run refused after the drop (none were tried)
    closed_stays: int  # the players' participations closed meanwhile (nobody cashed out: 0)
    hands_played_on: int  # hands dealt to them by the new owner while the old run waited
    notes: list[str] = field(default_factory=list)


def closed_stays(database_url: str, room_id: str) -> int:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(participations)
                    .where(
                        participations.c.room_id == room_id,
                        participations.c.user_id.is_not(None),
                        participations.c.status != "open",
                    )
                ).scalar_one()
            )
    finally:
        engine.dispose()


def hand_status(database_url: str, room_id: str, hand_no: int) -> str:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            return str(
                conn.execute(
                    select(hands.c.status).where(
                        hands.c.room_id == room_id, hands.c.hand_no == hand_no
                    )
                ).scalar_one()
            )
    finally:
        engine.dispose()


async def _dropped_line(owner: Node, room_id: str, since: int, timeout: float) -> str | None:
    """The woken owner's log line saying it dropped the room (after byte ``since``). It wakes
    and renews within a third of a lease; a loaded machine may take longer, so the wait ends
    early only while the process is alive and its log grows."""
    pattern = re.compile(rf"drops room {re.escape(room_id)} \(its run stopped, (\d+) timer")
    deadline = time.monotonic() + timeout
    size = since
    while time.monotonic() < deadline:
        text = owner.log()[since:]
        found = pattern.search(text)
        if found is not None:
            return found.group(0)
        if len(text) + since > size:  # the node is making progress: keep waiting
            size = len(text) + since
            deadline = max(deadline, time.monotonic() + 10)
        await asyncio.sleep(0.1)
    return None


def _answers(node: Node) -> bool:
    try:
        return httpx.get(f"{node.url}/api/health", timeout=60).status_code == 200
    except httpx.HTTPError:
        return False


async def play_on(players: list[HousePlayer], after: int, seconds: float) -> tuple[int, int]:
    """Play (check or call) at the new owner for ``seconds``; answers the hands dealt and the
    number of the last one."""
    end = time.monotonic() + seconds
    last = after
    dealt = 0
    while time.monotonic() < end:

        def dealt_after(frame: Frame, n: int = last) -> bool:
            return frame["t"] == "hand" and int(frame["hand_no"]) > n

        frames = await asyncio.gather(*(p.until(dealt_after, timeout=90) for p in players))
        last = max(int(f["hand_no"]) for f in frames)
        dealt += 1
    return dealt, last


async def frozen_owner_round(
    owner: Node,
    players: list[HousePlayer],
    database_url: str,
    lease_s: float,
    play_on_s: float,
    *,
    after: int = 0,
) -> FrozenRound:
    assert owner.process is not None
    room_id = players[0].room_id
    pid = owner.process.pid
    frozen = owner.process.send_signal
    taken = await failover_round(
        owner,
        players,
        database_url,
        lease_s,
        after=after,
        deal_again=False,
        fault=lambda: frozen(signal.SIGSTOP),
    )
    since = len(owner.log())
    # Frozen three leases in all (the 9 s at 3 s leases): the other node took the
    # room meanwhile; then the frozen node wakes.
    await asyncio.sleep(max(0.0, 3 * lease_s - taken.both_s))
    owner.process.send_signal(signal.SIGCONT)
    line = await _dropped_line(owner, room_id, since, timeout=3 * lease_s + 20)
    timers = int(line.rsplit("(its run stopped, ", 1)[1].split()[0]) if line else 0
    hands_on, _ = await play_on(players, taken.hand_no, play_on_s)
    # The woken node answers a request only once its loop has run past the horizon: any
    # timer of the old run due by then would have fired.
    if await asyncio.to_thread(_answers, owner) is False:
        notes = [f"the woken owner did not answer after {play_on_s} s"]
    else:
        notes = []
    log = owner.log()[since:]
    after_drop = log.split(line, 1)[1] if line else log
    refused = len(re.findall(rf"fenced out of room {re.escape(room_id)}\b", after_drop))
    result = FrozenRound(
        hand_no=taken.hand_no,
        status_at_takeover=taken.status,
        status_after=hand_status(database_url, room_id, taken.hand_no),
        new_owner=taken.new_owner,
        dropped=line is not None,
        timers_cancelled=timers,
        refused_after_drop=refused,
        closed_stays=closed_stays(database_url, room_id),
        hands_played_on=hands_on,
        notes=notes,
    )
    if owner.process.poll() is not None:
        result.notes.append(f"the woken owner (pid {pid}) exited")
    return result
