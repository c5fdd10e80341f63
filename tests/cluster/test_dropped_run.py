"""Issue 41: a room its node dropped stops for good. The owner of an Ahiko room is frozen with
SIGSTOP mid-hand for three leases while both players' sockets are on the other node; that node
takes the room over (the hand cancelled, the bets back) and the table plays on there. The
frozen owner is woken: it drops its run of the room, every timer of that run cancelled, and
while the table plays on past the old run's action deadline nothing of that run happens: the
cancelled hand stays cancelled, nobody is cashed out, no write of it even reaches the
database, and ``ahiko admin check-ledger`` is clean. Real processes (``ahiko serve
--redis-url``), a real PostgreSQL and a real ``redis-server``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from failover import seat_players
from frozen_owner import frozen_owner_round
from nodes import Node, check_ledger, data_folder, house_room

from ahiko.rooms.timing import ABSENCE_WITHDRAWAL_S, AHIKO_ACTION_DEADLINE_S

pytestmark = pytest.mark.cluster

LEASE_MS = 1500
# The table plays on at the new owner past every timer the frozen run had set: its action
# deadlines (a street each, then the hand's settlement) and its players' absence withdrawal
# (their cash-out). The drill (bench/frozen_owner.py) plays on three minutes, twenty rounds.
PLAY_ON_S = max(4 * AHIKO_ACTION_DEADLINE_S, ABSENCE_WITHDRAWAL_S) + 10


def test_R_RM_17_an_owner_frozen_past_its_lease_drops_its_run_for_good_and_cashes_nobody_out(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    owner = Node("a", redis_url, postgres_url, data, lease_ms=LEASE_MS).start()
    edge = Node("b", redis_url, postgres_url, data, lease_ms=LEASE_MS)
    try:
        room_id = house_room(owner)
        edge.start()

        async def scenario() -> None:
            players = await seat_players(edge.address, room_id, ("ana", "bia"))
            result = await frozen_owner_round(
                owner, players, postgres_url, LEASE_MS / 1000, PLAY_ON_S
            )
            print(f"\nfrozen owner: {result}")
            assert result.status_at_takeover == "cancelled"
            assert f"-{edge.port}-" in result.new_owner
            assert result.dropped, owner.log()[-3000:]
            assert result.timers_cancelled >= 1  # the hand's deadline, at least
            assert result.refused_after_drop == 0  # the old run tried no write at all
            assert result.status_after == "cancelled"  # not settled by the old run
            assert result.closed_stays == 0  # R-RM-17: nobody cashed out unasked
            assert result.hands_played_on >= 1
            assert result.notes == []
            for player in players:
                await player.close()

        asyncio.run(asyncio.wait_for(scenario(), PLAY_ON_S + 240))
    finally:
        owner.kill()
        edge.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
