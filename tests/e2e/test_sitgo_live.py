"""Issue 20 in Chromium against a real server: sit & go's from the lobby. A player registers
in a paid heads-up from the "Torneios" tab (the buy-in leaves the wallet), unregisters (it
comes back), registers again; a second player's registration fills the table: the second is
taken to the tournament room by the answer, the first by the lobby noticing the start, and
both sit at the same table with 1,000 chips (R-TN-02) while the first hand is dealt. They
play it out all-in every hand: when it ends each page says, on the felt, where its player
finished (the winner with the prize), no seat offers to sit, and the standings fit a phone's
width."""

from __future__ import annotations

import contextlib
import time

import pytest

from ahiko.wallet.policy import SIGNUP_GRANT

from .conftest import SCREENSHOTS
from .helpers import LIVE_WAIT_MS
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

        # The statement shows what the wallet did: the buy-in as -100, named by its label and
        # its sit & go, every running balance right (registered, refunded, registered again).
        ana.goto(f"{base}/#/wallet")
        ana.wait_for_selector('.statement tr[data-kind="sng_refund"]')
        rows = ana.eval_on_selector_all(
            ".statement tbody tr", "trs => trs.map(tr => [...tr.cells].map(td => td.innerText))"
        )
        kinds = ana.eval_on_selector_all(
            ".statement tbody tr", "trs => trs.map(tr => tr.dataset.kind)"
        )
        lines = dict(enumerate(zip(kinds, rows, strict=True)))
        bought = [row for kind, row in lines.values() if kind == "sng_register"]
        assert len(bought) == 2
        for _, what, amount, balance in bought:
            assert "Inscrição em torneio" in what and "Heads-up 100" in what, what
            assert amount == "-100" and balance == "4.900", (amount, balance)
        refund = next(row for kind, row in lines.values() if kind == "sng_refund")
        assert refund[2] == "+100" and refund[3] == "5.000" and "Heads-up 100" in refund[1]
        ana.screenshot(path=str(SCREENSHOTS / "sitgo-statement-1280.png"), full_page=True)
        ana.goto(f"{base}/#/lobby/tournament")
        ana.wait_for_selector(f'{row} [data-registered="1"]')

        bia = sign_up(browser, base, "bia")
        bia.goto(f"{base}/#/lobby/tournament")
        bia.wait_for_selector(f'{row} [data-registered="1"]')
        bia.click(f'{row} [data-sitgo="register"]')
        bia.wait_for_url("**/#/room/sng-*", timeout=LIVE_WAIT_MS)  # the answer carries the room
        ana.wait_for_url("**/#/room/sng-*", timeout=LIVE_WAIT_MS)  # the lobby saw it start
        assert ana.url.rsplit("/", 1)[-1] == bia.url.rsplit("/", 1)[-1]
        for page in (ana, bia):
            page.wait_for_selector(".felt")
            page.wait_for_selector(".seat.me, [data-seat].me", timeout=LIVE_WAIT_MS)
            page.wait_for_selector('.conn[data-conn="online"]')
            assert _json(page, "/api/wallet")["balance"] == SIGNUP_GRANT - 100
        room_id = ana.url.rsplit("/", 1)[-1]
        room = _json(ana, f"/api/rooms/{room_id}")
        assert room["kind"] == "tournament" and room["status"] == "running"
        assert sum(s["stack"] for s in room["seats"] if s) == 2000  # a first hand may be dealt
        listing = _json(ana, "/api/sitgo")
        assert listing["mine"]["room_id"] == room_id and listing["mine"]["status"] == "running"
        ana.screenshot(path=str(SCREENSHOTS / "sitgo-table-1280.png"))
        _play_all_in_until_the_end([ana, bia])
        places = {}
        for page in (ana, bia):
            card = page.inner_text(".tournament-end")
            assert "Torneio encerrado" in card and "de 2" in card, card
            places[page] = 1 if "1º de 2" in card else 2
            assert page.query_selector(".sit-btn") is None  # nobody sits at a finished table
            assert len(page.query_selector_all(".tournament-results tbody tr")) == 2
        assert sorted(places.values()) == [1, 2]
        winner = next(page for page, place in places.items() if place == 1)
        assert "Seu prêmio: 200" in winner.inner_text(".tournament-end")  # both buy-ins, no fee
        loser = next(page for page, place in places.items() if place == 2)
        loser.set_viewport_size({"width": 390, "height": 844})
        loser.wait_for_timeout(300)
        right = loser.evaluate(
            "() => document.querySelector('.tournament-results').getBoundingClientRect().right"
        )
        assert right <= 390, right  # the standings are not cut at a phone's edge
        loser.screenshot(path=str(SCREENSHOTS / "sitgo-over-390.png"))
        winner.screenshot(path=str(SCREENSHOTS / "sitgo-over-1280.png"))
        assert ana.console_errors == [] and bia.console_errors == []


def _play_all_in_until_the_end(pages, timeout_s: float = 150) -> None:  # type: ignore[no-untyped-def]
    """Each page goes all-in (or calls one) whenever it is its turn, until both show the end."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if all(page.query_selector(".tournament-end") for page in pages):
            return
        for page in pages:
            if page.query_selector(".action-bar:not([hidden]):not(.pending)") is None:
                continue
            for action in ("allin", "call", "check"):
                button = page.query_selector(f'[data-action="{action}"]')
                if button is not None:
                    # the bar may re-render under the click: then the next turn clicks
                    with contextlib.suppress(Exception):
                        button.click(timeout=2_000)
                    break
        pages[0].wait_for_timeout(100)
    raise AssertionError("the sit & go did not end on both pages")
