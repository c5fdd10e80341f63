"""One multi-table tournament's page (``MttService.detail``, ``GET /api/mtt/{id}``) and the
prizes its tables (and a sit & go's table) carry in their ``room`` frames: the entrants by name before the start; the
tables with their players while it runs; the places of the players out so far, each with the
prize its place pays, and at the end every place with what was paid."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from app_site import sign_up
from fastapi.testclient import TestClient
from mtt_play import mtt_service, play
from sqlalchemy import Engine

from ahiko.competition.lifecycle import TournamentStatus
from ahiko.competition.live_sitgo import SitGoRooms, SitGoTable
from ahiko.competition.mtt_lobby import mtt_prizes
from ahiko.competition.sitgo import QUEUES, SitGo
from ahiko.rooms.clock import ManualClock
from archive_factory import START, add_person

if TYPE_CHECKING:
    from ahiko.rooms.room_view import RoomView


def test_the_mtt_page_lists_entrants_tables_and_places_with_their_prizes(engine: Engine) -> None:
    clock = ManualClock()
    service = mtt_service(engine, clock, 100, seed=7, run_id="p")
    registry = service.registry
    users = [add_person(engine, f"p{n}") for n in range(12)]

    async def scenario() -> None:
        service.start()
        (mtt,) = service.lobby.listing()
        for n, user in enumerate(users):
            assert (await service.register(mtt.id, user, f"Player {n}", f"k{n}")).applied
        before = service.detail(mtt.id, users[0])
        assert [e["name"] for e in before["entrants"]] == [f"Player {n}" for n in range(12)]
        assert before["tables"] == [] and before["results"] == []
        assert before["mtt"]["registered_me"] and before["mtt"]["prizes"] == [600, 360, 240]

        clock.advance(10 * 60)
        for _ in range(500):
            if mtt.id in service.rooms and service.rooms[mtt.id].actors:
                break
            await asyncio.sleep(0)
        rooms = service.rooms[mtt.id]
        for _ in range(500):
            if sum(len(s) for s in rooms.seated.values()) == 12:
                break
            await asyncio.sleep(0)
        running = service.detail(mtt.id, None)
        assert [t["number"] for t in running["tables"]] == [1, 2]
        seated = [p["name"] for t in running["tables"] for p in t["players"]]
        assert sorted(seated) == sorted(f"Player {n}" for n in range(12))
        for table in running["tables"]:
            assert table["room_id"] == rooms.room_ids()[table["number"]]
            frame = registry.get(table["room_id"]).summary()  # type: ignore[union-attr]
            assert frame["tournament"] == {
                "mtt": mtt.id,
                "table": table["number"],
                "prizes": mtt_prizes(1200, 12),
            }

        seen: list[list[dict[str, object]]] = []

        def watch() -> None:
            results = service.detail(mtt.id, None)["results"]
            if results and (not seen or results != seen[-1]):
                seen.append(results)

        await play(registry, clock, rooms, watch)
        for _ in range(500):
            if mtt.status is TournamentStatus.FINISHED:
                break
            await asyncio.sleep(0)
        assert mtt.status is TournamentStatus.FINISHED
        # while it ran: the places of those out, the last places first, before the winner's
        partial = next(r for r in seen if len(r) < 12)
        assert [r["place"] for r in partial] == list(range(13 - len(partial), 13))
        assert all(r["prize"] == 0 for r in partial if r["place"] > 3)  # type: ignore[operator]
        done = service.detail(mtt.id, None)
        assert done["tables"] == []
        assert [r["place"] for r in done["results"]] == list(range(1, 13))
        assert [r["user_id"] for r in done["results"]] == mtt.places
        assert [r["prize"] for r in done["results"][:4]] == [600, 360, 240, 0]
        assert done["results"][0]["name"].startswith("Player ")

    asyncio.run(asyncio.wait_for(scenario(), 300))


def test_get_mtt_answers_one_tournament_or_404(site: TestClient) -> None:
    ana = sign_up(site, "ana")
    (scheduled,) = site.get("/api/mtt").json()["mtts"]
    sid = scheduled["id"]
    assert site.post(f"/api/mtt/{sid}/register", json={"key": "a"}, cookies=ana).status_code == 201
    page = site.get(f"/api/mtt/{sid}", cookies=ana)
    assert page.status_code == 200, page.text
    body = page.json()
    assert body["mtt"]["id"] == sid and body["mtt"]["registered_me"] is True
    assert [e["name"] for e in body["entrants"]] == ["ana"]
    assert body["tables"] == [] and body["results"] == []
    assert site.get(f"/api/mtt/{sid}").json()["mtt"]["registered_me"] is False  # signed out
    unknown = site.get("/api/mtt/nope")
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_mtt"


def test_a_sit_and_go_table_carries_its_prizes_in_its_room_frame() -> None:
    specs = {spec.key: spec for spec in QUEUES}
    service = cast(SitGoRooms, None)  # the part reads only the sit & go itself
    room = cast("RoomView", None)
    paid = SitGoTable(service, SitGo("9max-200-x-1", specs["9max-200"], START))
    assert paid.tournament_part(room) == {
        "sitgo": "9max-200-x-1",
        "buy_in": 200,
        "prizes": [900, 540, 360],  # 50/30/20 of nine 200-coin buy-ins
    }
    free = SitGoTable(service, SitGo("hu-free-x-2", specs["hu-free"], START))
    assert free.tournament_part(room) == {"sitgo": "hu-free-x-2", "buy_in": 0, "prizes": []}
