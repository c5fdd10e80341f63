"""A tournament table says where you stand, in Chromium against a real server: the level and
its blinds, the next level's blinds and how many hands away they are (R-TN-03: 25/50 doubling
every 10 hands), the players at the table, their average stack and my place by chips, as the
room's own figures say."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, SCREENSHOTS
from .play import host_menu, sign_up, sit

pytestmark = pytest.mark.browser


def _room(page: Any, room_id: str) -> Any:
    return page.evaluate("id => fetch(`/api/rooms/${id}`).then(r => r.json())", room_id)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_TN_03_R_TN_04_a_tournament_table_says_where_you_stand(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    page = sign_up(browser, server, f"torneio{viewport['width']}", viewport)
    room = page.evaluate(
        """() => fetch("/api/rooms", {method: "POST", headers: {"Content-Type":
             "application/json", "X-Ahiko-CSRF": "1"}, body: JSON.stringify(
             {name: "Torneio da casa", kind: "tournament", seats: 9})}).then(r => r.json())"""
    )
    page.goto(f"{server}/#/room/{room['id']}")
    page.wait_for_selector('.conn[data-conn="online"]')
    sit(page, 0)
    for seat in (1, 2):
        host_menu(page, "add_bot", level="easy")
        page.wait_for_selector(f'[data-seat="{seat}"] .badge-bot')
    assert page.locator(".tournament-info").count() == 0  # not before it starts
    host_menu(page, "start")
    page.wait_for_selector(".tournament-info")
    page.wait_for_selector(".felt .seat.me .card[data-card]")
    levels = _room(page, room["id"])["levels"]
    assert levels["level"] == 1 and levels["increase"] == "hands" and levels["every"] == 10
    assert levels["next_blinds"]["big_blind"] == 100
    info = page.locator(".tournament-info")
    assert info.locator('[data-tinfo="level"] dd').inner_text() == "1 · Blinds 25/50"
    nxt = info.locator('[data-tinfo="next"] dd').inner_text()
    assert re.fullmatch(r"em \d+ mãos · Blinds 50/100", nxt), nxt
    assert info.locator('[data-tinfo="players"] dd').inner_text() == "3"
    average = info.locator('[data-tinfo="average"] dd').inner_text()
    assert int(average.replace(".", "")) in range(900, 1001)  # 3,000 chips less the pot
    assert re.fullmatch(
        r"[123]º de 3 em fichas", info.locator('[data-tinfo="place"] dd').inner_text()
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"tournament-info-{viewport['width']}.png"))
    assert not page.console_errors, page.console_errors
    page.context.close()
