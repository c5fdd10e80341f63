"""The host of a home game in Chromium against a real server (issue 43), at 1280x800 and
375x812: the host changes the blinds between hands, turns on "approve players" and approves
a friend's seat request, adds chips to the friend's stack, removes them, and downloads the
room's ledger as CSV. Every host action is written in both players' hand logs; the CSV
balances."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, SCREENSHOTS
from .helpers import LIVE_WAIT_MS
from .play import create_room, hand_number, host_menu, play, sign_up, sit

pytestmark = pytest.mark.browser
SCREENSHOTS.mkdir(parents=True, exist_ok=True)


def _menu(page: Any) -> None:
    page.click('[data-open="room-menu"]')
    page.wait_for_selector(".room-menu[open] .home-game")


def _accessible(page: Any, selector: str) -> None:
    """axe-core finds nothing serious in ``selector`` (the host's dialogs)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context=selector).response["violations"]
    serious = [v["id"] for v in found if v["impact"] in ("serious", "critical")]
    assert not serious, serious


def _log_has(page: Any, text: str) -> None:
    page.wait_for_function(
        "(text) => [...document.querySelectorAll('.hand-log li')].some((li) =>"
        " li.textContent.includes(text))",
        arg=text,
        timeout=LIVE_WAIT_MS,
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_the_host_runs_a_home_game_and_downloads_its_ledger(
    browser: Any, server: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    width = viewport["width"]
    ana = sign_up(browser, server, f"anfitria{width}", viewport)
    create_room(ana, f"Jogo de casa {width}")
    room_url = ana.url
    sit(ana, 0)

    # The blinds for the next hand (none is in play: they are the next hand's at once).
    _menu(ana)
    ana.fill('[data-home="small_blind"]', "20")
    ana.fill('[data-home="big_blind"]', "40")
    ana.fill('[data-home="ante"]', "5")
    if width == DESKTOP["width"]:
        ana.screenshot(path=str(SCREENSHOTS / f"home-host-menu-{width}.png"))
    else:
        ana.locator(".home-change").screenshot(
            path=str(SCREENSHOTS / f"home-host-menu-{width}.png")
        )
    _accessible(ana, ".room-menu")
    ana.click('[data-home="apply"]')
    ana.wait_for_function(
        "() => document.querySelector('.stakes')?.textContent.includes('20/40')",
        timeout=LIVE_WAIT_MS,
    )
    _log_has(ana, "blinds 20/40")

    # A bad change is refused in the player's language, and nothing changes.
    _menu(ana)
    ana.fill('[data-home="small_blind"]', "50")
    ana.fill('[data-home="big_blind"]', "10")
    ana.click('[data-home="apply"]')
    ana.wait_for_selector('.toast[data-kind="error"]:not([hidden])')
    assert "small ≤ big" in ana.inner_text(".toast")
    assert "20/40" in ana.inner_text(".stakes")

    # "Approve players": a friend's seat request waits for the host.
    _menu(ana)
    ana.check('[data-home="approve_players"]')
    ana.keyboard.press("Escape")
    _log_has(ana, "aprovar quem senta")
    bia = sign_up(browser, server, f"amiga{width}", viewport)
    bia.goto(room_url)
    bia.wait_for_selector('.conn[data-conn="online"]')
    bia.click('[data-seat="3"] .sit-btn')
    bia.wait_for_selector('.toast[data-kind="info"]:not([hidden])')
    assert "anfitrião precisa aprovar" in bia.inner_text(".toast")
    assert bia.locator('[data-seat="3"].me').count() == 0
    _log_has(ana, f"amiga{width} pede para sentar no lugar 4")
    _menu(ana)
    ana.wait_for_selector(".seat-request")
    ana.locator(".seat-request").scroll_into_view_if_needed()
    ana.screenshot(path=str(SCREENSHOTS / f"home-seat-request-{width}.png"))
    ana.click('[data-home="approve"]')
    bia.wait_for_selector('[data-seat="3"].me')
    _log_has(bia, f"aprovou amiga{width}")

    # Chips for the friend's stack.
    _menu(ana)
    ana.select_option('[data-home="player"]', "3")
    ana.fill('[data-home="amount"]', "500")
    ana.click('[data-home="add_chips"]')
    for page in (ana, bia):
        _log_has(page, f"adicionou 500 fichas a amiga{width}")
        page.wait_for_function(
            "() => document.querySelector('[data-seat=\"3\"]')?.textContent.includes('1.500')"
        )
    bia.screenshot(path=str(SCREENSHOTS / f"home-friend-log-{width}.png"))

    # The host role, handed to the friend and back: the "Sala" menu follows it.
    _menu(ana)
    ana.select_option('[data-home="player"]', "3")
    ana.click('[data-home="hand_over_host"]')
    bia.wait_for_selector('[data-open="room-menu"]')
    ana.wait_for_selector('[data-open="room-menu"]', state="detached")
    _log_has(bia, f"anfitria{width} passou a vez de anfitrião a amiga{width}")
    _menu(bia)
    bia.select_option('[data-home="player"]', "0")
    bia.click('[data-home="hand_over_host"]')
    ana.wait_for_selector('[data-open="room-menu"]')
    _log_has(ana, f"amiga{width} passou a vez de anfitrião a anfitria{width}")

    # Removed: the friend stands up with their chips and cannot sit again unapproved.
    _menu(ana)
    ana.select_option('[data-home="player"]', "3")
    ana.click('[data-home="remove_player"]')
    bia.wait_for_selector('[data-seat="3"].me', state="detached")
    _log_has(ana, f"removeu amiga{width} da mesa")
    bia.click('[data-seat="3"] .sit-btn')
    bia.wait_for_selector('.toast[data-kind="info"]:not([hidden])')
    assert bia.locator('[data-seat="3"].me').count() == 0

    # The room's ledger: on the table, and as a CSV download.
    ana.click('[data-open="ledger"]')
    ana.wait_for_selector(".ledger-dialog[open] table.ledger")
    friend_row = ana.locator(f'.ledger tr:has-text("amiga{width}")')
    assert friend_row.locator('[data-col="added"]').inner_text() == "500"
    assert friend_row.locator('[data-col="cashed_out"]').inner_text() == "1.500"
    ana.screenshot(path=str(SCREENSHOTS / f"home-ledger-{width}.png"))
    _accessible(ana, ".ledger-dialog")
    with ana.expect_download() as download_info:
        ana.click('[data-home="csv"]')
    target = tmp_path / "ledger.csv"
    download_info.value.save_as(str(target))
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(target.read_text()))}
    assert set(rows) == {f"anfitria{width}", f"amiga{width}", "TOTAL"}
    assert int(rows[f"amiga{width}"]["added"]) == 500
    assert (
        int(rows[f"amiga{width}"]["net"]) == 0
    )  # brought 1,500 (1,000 + the host's 500), took 1,500
    nets = [int(r["net"]) for name, r in rows.items() if name != "TOTAL"]
    assert sum(nets) == 0 == int(rows["TOTAL"]["net"])
    for page in (ana, bia):
        assert not page.console_errors, page.console_errors
        page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_RM_04_blinds_and_chips_set_during_a_hand_come_with_the_next_hand(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    ana = sign_up(browser, server, f"mesa{width}", viewport)
    create_room(ana, f"Mão a mão {width}")
    sit(ana, 0)
    host_menu(ana, "add_bot", level="easy")
    ana.wait_for_selector('[data-seat="1"] .seat-box')
    host_menu(ana, "start")
    ana.wait_for_function("() => document.querySelector('.hand-no') !== null", timeout=LIVE_WAIT_MS)
    first = hand_number(ana)
    assert first == 1
    _menu(ana)
    ana.fill('[data-home="small_blind"]', "25")
    ana.fill('[data-home="big_blind"]', "50")
    ana.click('[data-home="apply"]')
    _log_has(ana, "mudou a partir da mão 2: blinds 25/50")
    _menu(ana)
    ana.select_option('[data-home="player"]', "0")
    ana.fill('[data-home="amount"]', "100")
    ana.click('[data-home="add_chips"]')
    _log_has(ana, f"vai adicionar 100 fichas a mesa{width} ao fim desta mão")
    ana.screenshot(path=str(SCREENSHOTS / f"home-change-pending-{width}.png"))
    assert "10/20" in ana.inner_text(".stakes")  # the hand in play keeps its blinds
    play([ana], until=lambda _log: (hand_number(ana) or 0) >= 2, timeout_s=120)
    _log_has(ana, "Valendo desde a mão 2: blinds 25/50")
    _log_has(ana, f"adicionou 100 fichas a mesa{width}")
    ana.wait_for_function(
        "() => document.querySelector('.stakes')?.textContent.includes('25/50')",
        timeout=LIVE_WAIT_MS,
    )
    ana.screenshot(path=str(SCREENSHOTS / f"home-change-applied-{width}.png"))

    # The end of the game: the final ledger opens on the table (a hand in play gives its
    # bets back, R-RM-08), and the nets sum to zero.
    ana.on("dialog", lambda dialog: dialog.accept())
    _menu(ana)
    ana.click('[data-home="end_game"]')
    ana.wait_for_selector(".ledger-dialog[open] table.ledger")
    assert "Caixa final da sala" in ana.inner_text(".ledger-dialog h2")
    nets = ana.eval_on_selector_all(
        '.ledger [data-col="net"]', "cells => cells.map((c) => c.textContent)"
    )
    assert len(nets) == 2
    assert sum(int(n.replace(".", "").replace("+", "")) for n in nets) == 0
    ana.screenshot(path=str(SCREENSHOTS / f"home-final-ledger-{width}.png"))
    assert not ana.console_errors, ana.console_errors
    ana.context.close()
