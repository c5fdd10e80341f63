"""Issue 41: a room its node dropped stops for good. The owner of an Ahiko room is frozen with
SIGSTOP mid-hand for three leases while both players' sockets are on the other node; that node
takes the room over (the hand cancelled, the bets back) and the table plays on there. The
frozen owner is woken: it drops its run of the room, every timer of that run cancelled, and
while the table plays on past the old run's action deadline nothing of that run happens: the
cancelled hand stays cancelled, nobody is cashed out, no write of it even reaches the
database, and ``ahiko admin check-ledger`` is clean. Real processes (``ahiko serve
--redis-url``), a real PostgreSQL and a real ``redis-server``.

The nodes' action deadline and absence withdrawal are shortened (``ahiko.server.house_timing``)
so the horizon the old run's timers would have fired by is under a minute, not the rules'
two; the freeze (three leases) stays shorter than the deadline, as the issue's 9 s freeze was
shorter than 20 s, so the old run wakes with its timers still pending. The drill
(bench/frozen_owner.py) plays on three minutes at the rules' durations, twenty rounds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from failover import seat_players
from frozen_owner import frozen_owner_round
from nodes import check_ledger, data_folder, owner_and_edge_nodes

from ahiko.server.house_timing import ABSENCE_ENV, DEADLINE_ENV

pytestmark = pytest.mark.cluster

LEASE_MS = 1500
ACTION_DEADLINE_S = 8.0  # above the freeze (3 leases, 4.5 s) and its wake-up
ABSENCE_WITHDRAWAL_S = 12.0
SHORT_CLOCKS = {DEADLINE_ENV: str(ACTION_DEADLINE_S), ABSENCE_ENV: str(ABSENCE_WITHDRAWAL_S)}
# The table plays on at the new owner past every timer the frozen run had set: its action
# deadlines (a street each, then the hand's settlement) and its players' absence withdrawal
# (their cash-out); then the woken node answers a request, so its loop has run past them.
PLAY_ON_S = max(4 * ACTION_DEADLINE_S, ABSENCE_WITHDRAWAL_S) + 10


def test_R_RM_17_an_owner_frozen_past_its_lease_drops_its_run_for_good_and_cashes_nobody_out(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data = data_folder(tmp_path)
    nodes = owner_and_edge_nodes(redis_url, postgres_url, data, lease_ms=LEASE_MS, env=SHORT_CLOCKS)
    with nodes as (owner, edge, room_id):

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
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
