"""Late registration when every table is full (issue 20): the late player opens a new table,
the field is balanced onto it (tables within one player of each other; the players move as
their tables' hands end) and it deals like the others; with blind levels by hands, late registration closes when the furthest
table reaches level 3, as it does by time. The ledger is clean and the pool paid in full."""

from __future__ import annotations

import asyncio

from mtt_play import mtt_service, play, refused
from sqlalchemy import Engine
from test_mtt_registration import settle

from ahiko.competition.lifecycle import TournamentStatus
from ahiko.rooms.clock import ManualClock
from ahiko.wallet.check import check_ledger
from archive_factory import add_person

FULL = 18  # two tables of nine


def test_R_TN_03_a_late_player_opens_a_table_when_every_table_is_full(engine: Engine) -> None:
    clock = ManualClock()
    service = mtt_service(engine, clock, 10, seed=11, run_id="t")
    registry = service.registry
    users = [add_person(engine, f"u{n}") for n in range(FULL + 2)]

    async def scenario() -> None:
        service.start()
        mtt = service.create(users[0], "Por mãos", 10, 30, level_hands=4)
        for n in range(FULL):
            assert (await service.register(mtt.id, users[n], f"U{n}", f"k{n}")).applied
        await service.start_now(mtt.id, users[0])
        rooms = service.rooms[mtt.id]
        await settle(lambda: sum(len(s) for s in rooms.seated.values()) == FULL)
        assert sorted(len(t.seats) for t in rooms.model.tables.values()) == [9, 9]
        assert service.late_open(mtt)

        assert (await service.register(mtt.id, users[FULL], "Late", "late")).applied
        sizes = sorted(len(t.seats) for t in rooms.model.tables.values())
        assert len(sizes) == 3 and sum(sizes) == FULL + 1 and sizes[-1] - sizes[0] <= 1
        new_table = rooms.model.table_of(str(users[FULL])).number
        assert new_table not in (1, 2) and new_table in rooms.room_ids()
        await settle(lambda: sum(len(s) for s in rooms.seated.values()) == FULL + 1)

        windows: list[tuple[int, bool]] = []
        dealt_at_new: list[int] = []
        seated_at_new: list[int] = []

        def every_second() -> None:
            windows.append((rooms.level, service.late_open(mtt)))
            dealt_at_new.append(rooms.dealt_at.get(new_table, 0))
            seated_at_new.append(len(rooms.seated.get(new_table, {})))

        await play(registry, clock, rooms, every_second)
        # the balancing moves reach the live table as the full tables' hands end
        assert max(seated_at_new) >= sizes[0], seated_at_new[:40]
        assert max(dealt_at_new) >= 1, "the late player's new table never dealt"
        levels = [level for level, _ in windows]
        assert max(levels) >= 3, levels  # levels by hands went past the late window
        assert all(late == (level <= 2) for level, late in windows[:-1])
        await refused("registration_closed", service.register(mtt.id, users[-1], "X", "x"))
        await settle(lambda: mtt.status is TournamentStatus.FINISHED)
        assert len(mtt.places) == FULL + 1 and sum(mtt.paid.values()) == 10 * (FULL + 1)
        assert service.bank.pool_balance(mtt.id) == 0
        assert check_ledger(engine) == []

    asyncio.run(asyncio.wait_for(scenario(), 300))
