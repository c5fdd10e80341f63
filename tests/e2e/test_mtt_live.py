"""Issue 20 in Chromium against a real server: a multi-table tournament from the lobby. The
site schedules a free MTT (every 0.4 minutes here); two players register from the "Torneios"
tab (one unregisters and registers again), the start time comes, and each browser, still in
the lobby, is taken to its table without a reload, where it sits with 1,000 chips (R-TN-02)
while the first hand is dealt."""

from __future__ import annotations

import pytest

from .conftest import PHONE, SCREENSHOTS
from .helpers import LIVE_WAIT_MS
from .live import live_server
from .play import sign_up

pytestmark = pytest.mark.browser


def _json(page, path):  # type: ignore[no-untyped-def]
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def test_two_players_register_for_an_mtt_and_land_at_their_tables(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with live_server(tmp_path / "live", {"AHIKO_MTT_EVERY_MINUTES": "0.4"}) as base:
        ana = sign_up(browser, base, "ana")
        bia = sign_up(browser, base, "bia", PHONE)
        row = "tr[data-mtt]"
        for page in (ana, bia):
            page.goto(f"{base}/#/lobby/tournament")
            page.wait_for_selector(f'{row} [data-mtt="register"]')
        ana.click(f'{row} [data-mtt="register"]')
        ana.wait_for_selector(f'{row} [data-mtt="unregister"]')
        ana.click(f'{row} [data-mtt="unregister"]')
        ana.wait_for_selector(f'{row} [data-mtt="register"]')
        ana.click(f'{row} [data-mtt="register"]')
        ana.wait_for_selector(f'{row} [data-mtt="unregister"]')
        bia.click(f'{row} [data-mtt="register"]')
        bia.wait_for_selector(f'{row} [data-mtt="unregister"]')
        ana.wait_for_selector(f'{row} [data-registered="2"]')
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        ana.screenshot(path=str(SCREENSHOTS / "mtt-lobby-1280.png"), full_page=True)
        bia.screenshot(path=str(SCREENSHOTS / "mtt-lobby-375.png"), full_page=True)
        # the start time comes: both browsers go to their table by themselves
        for page in (ana, bia):
            page.wait_for_url("**/#/room/mtt-*", timeout=60_000)
        for page in (ana, bia):
            page.wait_for_selector(".felt")
            page.wait_for_selector(".seat.me, [data-seat].me", timeout=LIVE_WAIT_MS)
            page.wait_for_selector('.conn[data-conn="online"]')
        room_id = ana.url.rsplit("/", 1)[-1]
        assert bia.url.rsplit("/", 1)[-1] == room_id  # two players: one table
        room = _json(ana, f"/api/rooms/{room_id}")
        assert room["kind"] == "tournament" and room["status"] == "running"
        # R-TN-07 D: until a browser arrives its player is dealt in with the hand folded,
        # so a first hand may have moved the blinds; the chips are the field's 2 x 1,000
        stacks = [s["stack"] for s in room["seats"] if s]
        assert len(stacks) == 2 and sum(stacks) == 2000
        listing = _json(ana, "/api/mtt")["mtts"]
        mine = next(m for m in listing if m["registered_me"])
        assert mine["status"] == "running" and mine["room_id"] == room_id
        # the schedule opened the next one
        assert any(m["status"] == "registering" for m in listing)
        ana.screenshot(path=str(SCREENSHOTS / "mtt-table-1280.png"))
        bia.screenshot(path=str(SCREENSHOTS / "mtt-table-375.png"))
        assert ana.console_errors == [] and bia.console_errors == []
