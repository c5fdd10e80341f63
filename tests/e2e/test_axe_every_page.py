"""Issue 47: axe-core finds no serious or critical violation on any page or dialog of the
site, at 1280x800 and 375x812: signed out (log in, sign up), the lobby's three tabs, the
create form, the wallet, a player's page, a tournament's page, "Minhas mãos" and its
replayer, a table waiting and mid-hand with the action bar, and the dialogs: "Sala", the
table settings, "Conferir cartas" and an Ahiko room's buy-in."""

from __future__ import annotations

from typing import Any

import pytest

from .axe import assert_accessible
from .conftest import DESKTOP, PHONE, open_page
from .helpers import close
from .play import create_room, host_menu, play, sign_up, sit
from .test_mtt_cancel_live import POST

pytestmark = pytest.mark.browser


def _visit(page: Any, base: str, route: str, ready: str, where: str) -> None:
    page.goto(f"{base}/{route}")
    page.wait_for_selector(ready)
    assert_accessible(page, where)


def _dialog(page: Any, opener: str, dialog: str, where: str) -> None:
    page.click(opener)
    page.wait_for_selector(f"{dialog}[open]")
    assert_accessible(page, where)
    page.keyboard.press("Escape")
    page.wait_for_selector(dialog, state="detached")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_every_page_and_dialog_passes_axe_core(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    size = viewport["width"]
    visitor = open_page(browser, viewport)  # type: ignore[no-untyped-call]
    _visit(visitor, server, "#/login", "#auth-username", f"log in {size}")
    _visit(visitor, server, "#/signup", "#auth-username", f"sign up {size}")
    close(visitor)

    me = f"axe{size}"
    page = sign_up(browser, server, me, viewport)
    for tab in ("ahiko", "public", "tournament"):
        _visit(
            page,
            server,
            f"#/lobby/{tab}",
            f'[data-tab="{tab}"][aria-selected="true"]',
            f"lobby {tab} {size}",
        )
    _visit(page, server, "#/create", "#name", f"create {size}")
    _visit(page, server, "#/wallet", ".balance", f"wallet {size}")
    _visit(page, server, f"#/players/{me}", "main h1", f"player page {size}")
    made = page.evaluate(
        POST, ["/api/mtt", {"name": f"Noite {size}", "buy_in": 0, "starts_in_minutes": 60}]
    )
    mtt = made["json"]["mtt"]["id"]
    _visit(page, server, f"#/mtt/{mtt}", ".mtt-page", f"tournament page {size}")

    # An Ahiko room's buy-in dialog.
    _visit(page, server, "#/lobby/ahiko", "tr[data-room]", f"lobby rooms {size}")
    page.locator("tr[data-room] a").first.click()
    page.wait_for_selector('.conn[data-conn="online"]')
    _dialog(page, ".sit-btn >> nth=0", "dialog.buyin-dialog", f"buy-in dialog {size}")

    # A room of my own: waiting, its dialogs, a hand mid-way, "Conferir cartas".
    page.goto(f"{server}/#/lobby")
    page.wait_for_selector("table.rooms")
    create_room(page, f"Mesa axe {size}")
    sit(page, 0)
    assert_accessible(page, f"table waiting {size}")
    _dialog(page, '[data-open="room-menu"]', "dialog", f"room menu {size}")
    _dialog(page, '[data-open="settings"]', "dialog.settings-dialog", f"settings {size}")
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    page.wait_for_selector(".action-bar:not([hidden])", timeout=60_000)
    assert_accessible(page, f"table mid-hand {size}")
    play([page], lambda log: len(log.finished) >= 1)
    _dialog(page, '[data-open="verify"]', "dialog", f"verify dialog {size}")

    _visit(page, server, "#/hands", "tbody tr[data-hand]", f"my hands {size}")
    page.click('tbody tr[data-hand] [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    assert_accessible(page, f"replayer {size}")
    close(page)
