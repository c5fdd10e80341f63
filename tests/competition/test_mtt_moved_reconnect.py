"""A moved player whose client was between sockets when the ``moved`` frame went out (issue
20, live MTT): the frame reached no socket of theirs, so the client comes back to the table
it knew. Opening that table again tells them where they sit now (``MttTableHooks.on_connected``,
``MttRooms.elsewhere``); before, they got the old table's snapshot without their seat and
sat stranded while the absence clock ran at the new table (13–85 of 1,000 players in a live
run). A broken table's room is gone: the gateway tells them (``MttService.moved_from``)."""

from __future__ import annotations

import asyncio
from random import Random
from types import SimpleNamespace
from typing import Any

from app_site import sign_up
from competition_players import Scripted
from fastapi.testclient import TestClient

from ahiko.competition.live_mtt import MttRooms
from ahiko.competition.mtt import Move
from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.protocol import SERVER_FRAME


def tournament(
    mtt_id: str, *, players: int, seed: int, level_minutes: float
) -> tuple[ManualClock, RoomRegistry, list[tuple[str, str]], MttRooms]:
    """A live MTT of ``players`` on a manual clock, not started."""
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"p{n}", f"P{n}") for n in range(players)]
    mtt = MttRooms(registry, mtt_id, field, rng=Random(seed), level_minutes=level_minutes)
    return clock, registry, field, mtt


def test_a_moved_player_reconnecting_to_the_old_table_is_told_where_they_sit_now() -> None:
    clock, registry, field, mtt = tournament("mv", players=22, seed=11, level_minutes=1)

    async def scenario() -> None:
        await mtt.start()
        rooms = mtt.room_ids()
        # each player follows only the table they sit at (a socket per player, as a browser)
        home = {p: mtt.model.table_of(p).number for p, _ in field}
        players = {p: Scripted(p, table=f"{home[p]}-0") for p, _ in field}
        for pid, player in players.items():
            actor = registry.get(rooms[home[pid]])
            assert actor is not None
            await player.join(actor)
        # two players of one table leave (R-TN-05): that table is three short of the
        # largest, so a player of the largest is moved to it (balancing, no table broken)
        smallest = min(mtt.model.tables.values(), key=lambda t: (len(t.seats), t.number))
        for pid in list(smallest.seats.values())[:2]:
            actor = registry.get(rooms[smallest.number])
            assert actor is not None
            assert (await actor.ask(c.Leave(pid))).ok
        await asyncio.sleep(0)
        assert [m.reason for m in mtt.model.moves] == ["balance"]
        moved = None  # a player told of their move on their socket, their old table open
        for _ in range(20_000):
            moved = next(
                (p for p, player in players.items() if player.of("moved")),
                None,
            )
            if moved is not None:
                break
            acted = False
            for pid, player in players.items():
                actor = registry.get(rooms[home[pid]])
                turn = None if actor is None else player.decision()
                if turn is not None and actor is not None:
                    await actor.ask(c.Act(pid, turn[0], turn[1]))
                    acted = True
            if not acted:
                await asyncio.sleep(0)
                clock.advance(1.0)
        assert moved is not None, (
            [(p, home[p], x.of("moved")) for p, x in players.items() if x.of("moved")],
            mtt.model.moves,
            mtt.finished,
            clock.now(),
        )
        old = registry.get(rooms[home[moved]])
        assert old is not None
        # the move's frame went to the old table's socket; say this client lost it (it was
        # between two sockets): it drops that socket and opens the old table again
        player = players[moved]
        sent = player.of("moved")
        await old.ask(c.Disconnect(player.connection_id))
        again = Scripted(moved, table=f"{home[moved]}-1")
        await again.join(old)
        told = again.of("moved")
        assert len(told) == 1, again.frames
        SERVER_FRAME.validate_python(told[0])
        target = mtt.model.table_of(moved).number
        seat = next(s for s, p in mtt.seated[target].items() if p == moved)
        assert told[0]["room_id"] == rooms[target] == sent[-1]["room_id"]
        assert (told[0]["table"], told[0]["seat"], told[0]["mtt"]) == (target, seat, "mv")
        # at the table they sit at, and for a player who never moved: no such frame
        here = Scripted(moved, table=f"{target}-1")
        actor = registry.get(rooms[target])
        assert actor is not None
        await here.join(actor)
        assert here.of("moved") == []
        stayed = next(p for p in players if p not in {m.player for m in mtt.model.moves})
        still = Scripted(stayed, table="again")
        actor = registry.get(rooms[home[stayed]])
        assert actor is not None
        await still.join(actor)
        assert still.of("moved") == []
        # a player watching another table of the tournament is not sent back to theirs
        if home[stayed] != target:
            watching = Scripted(stayed, table="watching")
            actor = registry.get(rooms[target])
            assert actor is not None
            await watching.join(actor)
            assert watching.of("moved") == []
        # the lookup the gateway makes for a room that is gone answers the same
        assert mtt.elsewhere_from(rooms[home[moved]], moved) == {
            k: told[0][k] for k in ("room_id", "table", "seat", "mtt")
        }
        await registry.stop_all()

    asyncio.run(scenario())


def test_a_socket_to_a_broken_tables_room_is_told_where_its_player_sits(site: TestClient) -> None:
    """A broken table's room is retired once its last player is up: a client that missed
    the ``moved`` frame and opens it again finds no room; the gateway tells it first where
    its player sits now (``moved``), then ``no_room``. Nobody else is told anything."""
    ana, bia = sign_up(site, "ana"), sign_up(site, "bia")
    made = site.post(
        "/api/mtt", json={"name": "Noite", "buy_in": 0, "starts_in_minutes": 30}, cookies=ana
    ).json()["mtt"]
    for who, key in ((ana, "a"), (bia, "b")):
        assert site.post(
            f"/api/mtt/{made['id']}/register", json={"key": key}, cookies=who
        ).is_success
    started = site.post(f"/api/mtt/{made['id']}/start", cookies=ana).json()["mtt"]
    service: Any = site.app.state.mtt  # type: ignore[attr-defined]
    rooms = service.rooms[made["id"]]
    # table 7 of this MTT was broken and its room retired (its actor stays listed)
    gone = f"mtt-{made['id']}-7"
    rooms.actors[7] = SimpleNamespace(room_id=gone)
    rooms.left_behind[mine(site, ana)] = {7}  # ana was moved away from it
    cookie = {"cookie": f"ahiko_session={ana['ahiko_session']}"}
    with site.websocket_connect(f"/ws/rooms/{gone}", headers=cookie) as ws:
        moved = ws.receive_json()
        assert ws.receive_json()["code"] == "no_room"
    SERVER_FRAME.validate_python(moved)
    seat = next(s for s, p in rooms.seated[1].items() if p == mine(site, ana))
    assert moved == {
        "t": "moved", "seq": 0, "epoch": None, "room_id": started["room_id"], "table": 1,
        "seat": seat, "mtt": made["id"],
    }  # fmt: skip
    with site.websocket_connect(f"/ws/rooms/{gone}") as ws:  # a visitor: only no_room
        assert ws.receive_json()["code"] == "no_room"
    bia_cookie = {"cookie": f"ahiko_session={bia['ahiko_session']}"}
    with site.websocket_connect(f"/ws/rooms/{gone}", headers=bia_cookie) as ws:  # never sat there
        assert ws.receive_json()["code"] == "no_room"
    with site.websocket_connect("/ws/rooms/mtt-nope-1", headers=cookie) as ws:
        assert ws.receive_json()["code"] == "no_room"


def mine(site: TestClient, who: dict[str, str]) -> str:
    return str(site.get("/api/me", cookies=who).json()["id"])


def test_a_player_waiting_at_a_new_table_for_their_seat_is_told_when_the_move_goes_elsewhere() -> (
    None
):
    """Told of table 2, a player's client waits there for their seat (its player still up);
    the field changes and the move goes to table 3 instead: the client at table 2 gets a
    ``moved`` frame naming table 3 (``TellMoved``). Before, it was told nothing and sat at
    table 2 until withdrawn for absence (the live bench's stranded players)."""
    clock, registry, _field, mtt = tournament("held", players=20, seed=5, level_minutes=5)

    async def scenario() -> None:
        await mtt.start()
        rooms = mtt.room_ids()
        player = next(iter(mtt.model.tables[1].seats.values()))
        taken = next(iter(mtt.seated[2]))  # a seat at table 2 whose player is still up
        free = mtt.model.tables[3].free()[0]
        waiting = Scripted(player, table="2")
        actor = registry.get(rooms[2])
        assert actor is not None
        await waiting.join(actor)
        mtt.held[(2, taken)] = c.MoveIn(player, "P", taken, 1000)
        mtt._apply([Move(player, 2, 3, free, "balance")])
        clock.advance(0)
        await asyncio.sleep(0)
        (told,) = waiting.of("moved")
        SERVER_FRAME.validate_python(told)
        assert (told["room_id"], told["table"], told["seat"]) == (rooms[3], 3, free)
        assert (2, taken) not in mtt.held and mtt.seated[3][free] == player
        await registry.stop_all()

    asyncio.run(scenario())
