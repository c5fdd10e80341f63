"""A multi-table tournament at live tables, on a manual clock (issue 20): 25 scripted players
over 3 tables, every command through the tables' actors (``MoveIn``/``MoveOut``/``Start``):
after every hand the model's tables are within one player of each other (R-TN-04 ranking
across tables), moves reach the real rooms between hands (a table's seats match the model
whenever no move is in flight), a table breaks and closes, and the final table plays to one
winner holding every chip; the field's ranking lists everyone once."""

from __future__ import annotations

import asyncio
from random import Random

from competition_players import Scripted

from ahiko.competition.live_mtt import MttRooms
from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind
from ahiko.rooms.registry import RoomRegistry

PLAYERS = 25


def seated(summary: dict[str, object]) -> set[str]:
    seats = summary.get("seats") or []
    return {s["player_id"] for s in seats if s}  # type: ignore[union-attr, index]


def test_R_TN_04_R_TN_05_three_live_tables_balanced_broken_and_played_to_one_winner() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"p{n}", f"P{n}") for n in range(PLAYERS)]
    mtt = MttRooms(registry, "t1", field, rng=Random(7), level_minutes=5)

    async def scenario() -> None:
        await mtt.start()
        tables = mtt.room_ids()
        assert len(tables) == 3
        assert sorted(len(seated(registry.get(r).summary())) for r in tables.values()) == [8, 8, 9]  # type: ignore[union-attr]
        # every player follows the tournament at every table (a connection per table)
        players = {
            (pid, number): Scripted(pid, cautious=n % 4 != 0, table=str(number))
            for n, (pid, _name) in enumerate(field)
            for number in tables
        }
        for (_pid, number), player in players.items():
            actor = registry.get(tables[number])
            assert actor is not None
            await player.join(actor)
        leaver_done = False
        checked = 0
        for _ in range(60_000):
            if mtt.finished:
                break
            acted = False
            for (pid, number), player in players.items():
                actor = registry.get(tables[number])
                if actor is None:
                    continue
                turn = player.decision()
                if turn is not None:
                    reply = await actor.ask(c.Act(pid, turn[0], turn[1]))
                    assert reply.ok, reply
                    acted = True
            if acted:
                continue
            await asyncio.sleep(0)  # the tables' actors take their inboxes before time moves on
            clock.advance(1.0)
            if mtt.finished:
                break
            if not mtt.moving and not mtt.held:  # nothing in flight: the rooms are the model
                for number, table in mtt.model.tables.items():
                    actor = registry.get(tables[number])
                    assert actor is not None
                    assert seated(actor.summary()) == set(table.seats.values()), number
                checked += 1
            in_flight = mtt.moving or mtt.held  # a move queued may deal a hand before the leave
            if not leaver_done and not in_flight and mtt.hands >= 8 and len(mtt.model.tables) > 1:
                # R-TN-05: a player still in leaves the tournament, between hands or during one
                leaver = next(p for t in mtt.model.tables.values() for p in t.seats.values())
                actor = registry.get(tables[mtt.model.table_of(leaver).number])
                assert actor is not None
                seats = actor.summary()["seats"]
                took = next(s["stack"] for s in seats if s and s["player_id"] == leaver)
                left = await actor.ask(c.Leave(leaver))
                assert left.ok
                hand_running = bool(left.data["after_hand"])  # the room's word, not a look before
                leaver_done = True
                left_with = len(mtt.model.remaining())
        assert mtt.finished and mtt.model.over
        assert leaver_done and checked > 10
        # balancing after every hand: no table more than one player off another
        assert all(sizes[-1] - sizes[0] <= 1 for sizes in mtt.sizes_after_hands if sizes)
        reasons = {m.reason for m in mtt.model.moves}
        assert reasons == {"balance", "break"}
        # the field's ranking: everyone once, places 1..25
        places = mtt.places
        assert [p.place for p in places] == list(range(1, PLAYERS + 1))
        assert sorted(p.player for p in places) == sorted(pid for pid, _ in field)
        leaver_place = next(p for p in places if p.player == leaver)
        assert leaver_place.place == left_with + 1  # out at once, in that moment's position
        # the final table closed with the winner holding every chip
        await asyncio.sleep(0)
        clock.advance(1.0)
        winner = places[0].player
        closed = [
            f
            for (pid, _n), p in players.items()
            if pid == winner
            for f in p.of("closed")
            if f["reason"] == "tournament_over"
        ]
        # R-TN-05: the leaver's chips left with them (all of them when no hand was running)
        assert closed and closed[-1]["stacks"][winner] <= PLAYERS * 1000
        if not hand_running:
            assert closed[-1]["stacks"] == {winner: PLAYERS * 1000 - took}
        for room_id in tables.values():
            assert registry.get(room_id) is None  # every table closed and dropped

    asyncio.run(asyncio.wait_for(scenario(), 300))


def test_R_TN_02_seats_of_a_multi_table_tournament_are_the_house_s() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    mtt = MttRooms(registry, "t2", [("a", "A"), ("b", "B")], rng=Random(1))

    async def scenario() -> None:
        await mtt.start()
        (room_id,) = mtt.room_ids().values()
        actor = registry.get(room_id)
        assert actor is not None
        refused = await actor.ask(c.Sit("x", "X", 5))  # a person cannot pick a seat here
        assert not refused.ok and refused.code == "assigned_seats" and refused.rule == "R-TN-02"
        assert not (await actor.ask(c.MoveIn("x", "X", 5, 0))).ok  # nobody moves without chips
        assert (await actor.ask(c.MoveOut("nobody"))).code == "not_seated"
        other = registry.create(holdem_tournament())
        assert (await other.ask(c.MoveIn("x", "X", 1, 100))).code == "not_mtt"
        assert (await other.ask(c.MoveOut("x"))).code == "not_mtt"

    asyncio.run(scenario())


def holdem_tournament() -> RoomConfig:
    return RoomConfig(name="mesa", kind=RoomKind.TOURNAMENT)
