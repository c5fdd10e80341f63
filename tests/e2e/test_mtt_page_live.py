"""A multi-table tournament's own page and its tables' prizes, in Chromium against a real
server, at 1280x800 and 375x812. Ana hosts a paid MTT (10 coins) of ten accounts played by
the test on the server's loop (two tables of five); she opens its page from the lobby's list
and Bia (a phone) by its address: the entrants, both tables with their players, the payouts
(50/30/20 of the 100-coin pool). Each watches a table, whose tournament panel shows the same
prizes and links back to the page. Then the players go all-in: the page lists the places of
those out with their prizes as they bust, and the whole ranking once it ended."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import Future
from typing import Any

import httpx
import pytest

from ahiko.rooms import commands as c

from .conftest import DESKTOP, PHONE, SCREENSHOTS
from .live import live_app
from .play import sign_up
from .test_mtt_cancel_live import POST
from .test_mtt_move_live import Bot, passive, shove

pytestmark = pytest.mark.browser

PLAYERS = 10
BUY_IN = 10
PRIZES = ["50", "30", "20"]


class Players:
    """The ten entrants, through the tables' actors: they check or fold until ``shoving``,
    then go all-in every hand."""

    def __init__(self, app: Any, mtt_id: str) -> None:
        self.app = app
        self.mtt_id = mtt_id
        self.bots: dict[tuple[str, int], Bot] = {}
        self.shoving = False
        self.stop = False

    async def run(self) -> None:
        registry = self.app.state.room_registry
        while not self.stop:
            await asyncio.sleep(0.02)
            rooms = self.app.state.mtt.rooms.get(self.mtt_id)
            if rooms is None or rooms.finished:
                continue
            # copies: the tables change while a connect is awaited (a balancing move)
            for number, seats in list(rooms.seated.items()):
                actor = registry.get(rooms.actors[number].room_id)
                for player in list(seats.values()):
                    if actor is None or (player, number) in self.bots:
                        continue
                    bot = Bot(player, number)
                    self.bots[(player, number)] = bot
                    actor.subscribe(f"test-{player}-{number}", bot.deliver)
                    assert (await actor.ask(c.Connect(f"test-{player}-{number}", player))).ok
            for (player, number), bot in list(self.bots.items()):
                room_id = rooms.actors[number].room_id if number in rooms.actors else None
                actor = None if room_id is None else registry.get(room_id)
                turn = None if actor is None else bot.turn()
                if turn is None or actor is None:
                    continue
                hand_no, legal = turn
                action = shove(legal) if self.shoving else passive(legal)
                await actor.ask(c.Act(player, hand_no, action))  # a stale turn may be refused


def no_overflow(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_an_mtt_page_shows_entrants_tables_payouts_and_results(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with live_app(tmp_path / "live", {"AHIKO_MTT_EVERY_MINUTES": "30"}) as (base, app):
        ana = sign_up(browser, base, "ana", DESKTOP)
        bia = sign_up(browser, base, "bia", PHONE)
        made = ana.evaluate(
            POST, ["/api/mtt", {"name": "Noite de 10", "buy_in": BUY_IN, "starts_in_minutes": 60}]
        )
        assert made["status"] == 201, made
        mid = made["json"]["mtt"]["id"]
        # before anyone registers, a paid tournament's prizes are still to come, not "free"
        ana.goto(f"{base}/#/mtt/{mid}")
        ana.wait_for_selector('[data-empty="prizes"]')
        assert ana.locator('[data-empty="prizes"]').inner_text() == (
            "Os prêmios são as inscrições: crescem a cada jogador inscrito."
        )
        for n in range(PLAYERS):
            with httpx.Client(base_url=base, headers={"X-Ahiko-CSRF": "1"}) as player:
                account = player.post(
                    "/api/accounts",
                    json={"username": f"jogador{n:02d}", "password": "segredo-forte-1"},
                )
                assert account.status_code == 201, account.text
                joined = player.post(f"/api/mtt/{mid}/register", json={"key": f"k{n}"})
                assert joined.status_code == 201, joined.text
        players = Players(app, mid)
        running: Future[None] = asyncio.run_coroutine_threadsafe(players.run(), app.state.test_loop)
        assert ana.evaluate(POST, [f"/api/mtt/{mid}/start", {}])["status"] == 200

        # Ana from the lobby's list, Bia by the page's address
        ana.goto(f"{base}/#/lobby/tournament")
        ana.wait_for_selector(f'a[data-mtt-page="{mid}"]')
        shot(ana, "mtt-lobby-link-1280")
        ana.click(f'a[data-mtt-page="{mid}"]')
        ana.wait_for_url(f"**/#/mtt/{mid}")
        bia.goto(f"{base}/#/mtt/{mid}")
        for page in (ana, bia):
            page.wait_for_selector('.mtt-page[data-status="running"]')
            page.wait_for_selector(".mtt-table >> nth=1")
            assert page.locator(".mtt-entrants li").count() == PLAYERS
            assert page.locator('[data-figure="entrants"] dd').inner_text() == "10"
            names = page.locator(".mtt-players .name").all_inner_texts()
            assert sorted(names) == [f"jogador{n:02d}" for n in range(PLAYERS)]
            prizes = page.locator(".mtt-payouts tbody td.num").all_inner_texts()
            assert prizes == PRIZES
            assert page.locator(".mtt-payouts tbody td:first-child").all_inner_texts() == [
                "1º",
                "2º",
                "3º",
            ]
            assert page.locator('[data-empty="results"]').is_visible()
            assert page.locator("h1").inner_text() == "Noite de 10"
            assert "null" not in page.locator(".mtt-page").inner_text()
        shot(ana, "mtt-page-running-1280")
        shot(bia, "mtt-page-running-375")
        no_overflow(bia)

        # each watches a table: its panel shows the prizes and links back to the page
        for page, table in ((ana, 1), (bia, 2)):
            page.click(f'[data-watch="{table}"]')
            page.wait_for_url("**/#/room/mtt-*")
            panel = page.locator('.tournament-info [data-tinfo="prizes"] dd')
            panel.wait_for()
            assert re.sub(r"\s+", " ", panel.inner_text()).strip() == "1º 50 2º 30 3º 20", (
                panel.inner_text()
            )
        ana.wait_for_selector(".felt .seat:not(.seat-empty)")
        bia.wait_for_selector(".felt .seat:not(.seat-empty)")
        shot(ana, "mtt-table-prizes-1280")
        shot(bia, "mtt-table-prizes-375")
        no_overflow(bia)
        for page in (ana, bia):
            page.click('.tournament-info a[data-tinfo="mtt"]')
            page.wait_for_url(f"**/#/mtt/{mid}")
            page.wait_for_selector('.mtt-page[data-status="running"]')

        # all-in from now: the places of those out, then the whole ranking
        players.shoving = True
        ana.wait_for_selector(".mtt-results tbody tr", timeout=120_000)
        shot(ana, "mtt-page-busts-1280")
        first_out = ana.locator(".mtt-results tbody tr").last
        assert first_out.get_attribute("data-place") == "10"
        assert first_out.locator("td.num").inner_text() == "—"  # tenth is not paid
        for page in (ana, bia):
            page.wait_for_selector('.mtt-page[data-status="finished"]', timeout=180_000)
            rows = page.locator(".mtt-results tbody tr")
            assert rows.count() == PLAYERS
            places = [rows.nth(i).get_attribute("data-place") for i in range(PLAYERS)]
            assert places == [str(n) for n in range(1, PLAYERS + 1)]
            paid = [rows.nth(i).locator("td.num").inner_text() for i in range(4)]
            assert paid == [*PRIZES, "—"]
            assert rows.nth(0).locator("td").nth(1).inner_text().startswith("jogador")
            assert page.locator(".mtt-table").count() == 0  # the tables are closed
            assert "null" not in page.locator(".mtt-page").inner_text()
        shot(ana, "mtt-page-finished-1280")
        shot(bia, "mtt-page-finished-375")
        no_overflow(bia)
        players.stop = True
        running.result(10)
        assert ana.console_errors == [] and bia.console_errors == []
