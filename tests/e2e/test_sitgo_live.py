"""Issue 20 in Chromium against a real server: sit & go's from the lobby. A player registers
in a paid heads-up from the "Torneios" tab (the buy-in leaves the wallet), unregisters (it
comes back), registers again; a second player's registration fills the table: the second is
taken to the tournament room by the answer, the first by the lobby noticing the start, and
both sit at the same table with 1,000 chips (R-TN-02) while the first hand is dealt."""

from __future__ import annotations

import pytest

from ahiko.wallet.policy import SIGNUP_GRANT

from .conftest import SCREENSHOTS
from .live import live_server
from .play import sign_up

pytestmark = pytest.mark.browser


def _json(page, path):  # type: ignore[no-untyped-def]
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def test_register_from_the_lobby_and_play_the_sit_and_go_in_chromium(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with live_server(tmp_path / "live") as base:
        ana = sign_up(browser, base, "ana")
        ana.goto(f"{base}/#/lobby/tournament")
        row = 'tr[data-queue="hu-100"]'
        ana.wait_for_selector(f'{row} [data-sitgo="register"]')
        ana.click(f'{row} [data-sitgo="register"]')
        ana.wait_for_selector(f'{row} [data-sitgo="unregister"]')
        assert ana.get_attribute(f"{row} [data-registered]", "data-registered") == "1"
        assert _json(ana, "/api/wallet")["balance"] == SIGNUP_GRANT - 100
        ana.wait_for_selector(".sitgo-mine:has-text('1')")
        # registered once: the other queues' buttons are off
        assert ana.is_disabled('tr[data-queue="6max-free"] [data-sitgo="register"]')

        ana.click(f'{row} [data-sitgo="unregister"]')
        ana.wait_for_selector(f'{row} [data-sitgo="register"]')
        assert _json(ana, "/api/wallet")["balance"] == SIGNUP_GRANT
        ana.click(f'{row} [data-sitgo="register"]')
        ana.wait_for_selector(f'{row} [data-sitgo="unregister"]')
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        ana.screenshot(path=str(SCREENSHOTS / "sitgo-lobby-1280.png"), full_page=True)

        bia = sign_up(browser, base, "bia")
        bia.goto(f"{base}/#/lobby/tournament")
        bia.wait_for_selector(f'{row} [data-registered="1"]')
        bia.click(f'{row} [data-sitgo="register"]')
        bia.wait_for_url("**/#/room/sng-*", timeout=10_000)  # the answer carries the room
        ana.wait_for_url("**/#/room/sng-*", timeout=15_000)  # the lobby saw it start
        assert ana.url.rsplit("/", 1)[-1] == bia.url.rsplit("/", 1)[-1]
        for page in (ana, bia):
            page.wait_for_selector(".felt")
            page.wait_for_selector(".seat.me, [data-seat].me", timeout=10_000)
            page.wait_for_selector('.conn[data-conn="online"]')
            assert _json(page, "/api/wallet")["balance"] == SIGNUP_GRANT - 100
        room_id = ana.url.rsplit("/", 1)[-1]
        room = _json(ana, f"/api/rooms/{room_id}")
        assert room["kind"] == "tournament" and room["status"] == "running"
        assert sorted(s["stack"] for s in room["seats"] if s) == [1000, 1000]
        listing = _json(ana, "/api/sitgo")
        assert listing["mine"]["room_id"] == room_id and listing["mine"]["status"] == "running"
        ana.screenshot(path=str(SCREENSHOTS / "sitgo-table-1280.png"))
        assert ana.console_errors == [] and bia.console_errors == []
