"""One Redis-blip round at an Ahiko table (issue 41), shared by the suite's test and the drill
(``bench/redis_blip.py``): two players on the node that owns their house room are mid-hand
when Redis is killed with SIGKILL and started again empty a second later (``kill``), or
frozen with SIGSTOP for five seconds (``freeze``). Once Redis is back the player to act acts:
measured, Redis back -> that action acknowledged. Then, a lease and more later, checked: the
owner still owns the room under the same fencing token, the players' sockets were never
closed, the hand plays to its end (not cancelled) and the two stacks still add up.

``blip_round`` answers what it measured; the caller asserts on it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import redis.asyncio as redis
from failover import mid_hand
from frozen_owner import hand_status
from house_players import Frame, HousePlayer, seat_of

from ahiko.server.cluster.lease import Leases
from ahiko.server.cluster.ownership import room_lease
from redis_server import RedisServer

FREEZE_S = 5.0
DOWN_S = 1.0


@dataclass
class BlipRound:
    fault: str
    hand_no: int
    answered_s: float  # Redis back -> the next action acknowledged
    holder_before: tuple[str, int] | None
    holder_after: tuple[str, int] | None
    status: str  # the hand's record once it ended: "finished"
    closes: list[int]  # close codes the players' sockets saw (none)
    chips: int  # the two stacks after the hand (the table's chips: unchanged)
    notes: list[str] = field(default_factory=list)


async def _holder(url: str, room_id: str) -> tuple[str, int] | None:
    client = redis.Redis.from_url(url)
    try:
        return await Leases(client, "probe", 1000).holder(room_lease(room_id))
    finally:
        await client.aclose()


async def _act(players: list[HousePlayer], frame: Frame) -> tuple[HousePlayer, str]:
    """The player to act in ``frame`` checks or calls once its own view says it is its turn;
    answers who, and the frame's id."""
    hand_no, to_act = frame["hand_no"], frame["view"]["to_act"]

    def my_turn(f: Frame) -> bool:
        view = f.get("view") or {}
        return (
            f["t"] == "hand"
            and f["hand_no"] == hand_no
            and view.get("to_act") == view.get("viewer") == to_act
            and view.get("result") is None
        )

    for player in players:
        views = [f["view"] for f in player.frames if f["t"] == "hand"]
        if not views or views[-1].get("viewer") != to_act:  # the viewer's seat
            continue
        seen = [f for f in player.frames if my_turn(f)]
        turn = seen[-1] if seen else await player.until(my_turn, play=False, timeout=30)
        legal = turn["view"].get("legal") or {}
        action = "check" if legal.get("can_check") else "call"
        return player, await player.send("act", hand_no=hand_no, action=action)
    raise AssertionError(f"nobody to act in {frame}")


def _fault(server: RedisServer, fault: str) -> None:
    """The fault, blocking (run off the loop): Redis back when it returns."""
    if fault == "kill":
        server.kill()
        time.sleep(DOWN_S)
        server.restart()
    else:
        server.freeze()
        time.sleep(FREEZE_S)
        server.thaw()


async def blip_round(
    server: RedisServer,
    players: list[HousePlayer],
    database_url: str,
    lease_s: float,
    fault: str,
    after: int,
) -> BlipRound:
    room_id = players[0].room_id
    frame = await mid_hand(players, after)
    hand_no = int(frame["hand_no"])
    before = await _holder(server.url, room_id)
    await asyncio.to_thread(_fault, server, fault)
    back = time.monotonic()
    player, frame_id = await _act(players, frame)
    answer = await player.until(
        lambda f: f["t"] in ("ack", "error") and f.get("id") == frame_id, timeout=30
    )
    assert answer["t"] == "ack", answer
    answered = time.monotonic() - back
    # a lease and more: time for any node to have dropped or taken the room
    ended = await asyncio.gather(
        *(
            p.until(
                lambda f: (
                    f["t"] == "hand"
                    and f["hand_no"] == hand_no
                    and f["view"].get("result") is not None
                ),
                timeout=60,
            )
            for p in players
        )
    )
    await asyncio.sleep(max(0.0, 2 * lease_s - (time.monotonic() - back)))
    after_holder = await _holder(server.url, room_id)
    room = await players[0].http.get(players[0].url(f"/api/rooms/{room_id}"))
    seats = room.json() if room.status_code == 200 else {}
    chips = sum(int((seat_of(seats, p.user_id) or {}).get("stack", 0)) for p in players)
    result = BlipRound(
        fault=fault,
        hand_no=hand_no,
        answered_s=answered,
        holder_before=before,
        holder_after=after_holder,
        status=hand_status(database_url, room_id, hand_no),
        closes=[code for p in players for code in p.closes],
        chips=chips,
    )
    if room.status_code != 200:
        result.notes.append(f"the room answered {room.status_code}")
    if not ended:
        result.notes.append("the hand never ended")
    return result
