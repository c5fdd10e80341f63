"""Issue 42: a Pot-Limit Omaha hand between two people in two browsers, one at 1280x800 and
one on a 375x812 phone, against a real server: the table is made from the lobby's dialog,
each player holds four cards that fit the screen, the raise slider stops at the pot-limit
maximum the server offers, and "Conferir cartas" checks the Omaha deal."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from pot_limit import pot_limit_max

from .conftest import PHONE, screenshot
from .helpers import LIVE_WAIT_MS, close
from .play import acts_sent, host_menu, join_and_sit, play, sign_up, sit

pytestmark = pytest.mark.browser

OMAHA_CARDS = 4


def create_omaha_room(page: Any, name: str) -> str:
    page.click('[data-nav="create"]')
    page.fill("#name", name)
    page.check('input[name="variant"][value="plo"]')
    assert page.is_visible("#small_blind") and page.is_hidden("#small_bet")  # blinds, as hold'em
    assert page.get_attribute("#seats", "max") == "9"
    assert "Omaha Pot-Limit" in page.inner_text('[data-field="variant"]')  # its title, pt-BR
    screenshot(page, "plo-create-1280")
    page.click('[data-create="submit"]')
    page.wait_for_selector(".felt")
    page.wait_for_selector('.conn[data-conn="online"]')
    return page.url.rsplit("/", 1)[-1]


def my_cards(page: Any) -> list[dict[str, float]]:
    """Where this page draws its own cards (face up), left to right."""
    return page.eval_on_selector_all(
        ".seat.me .seat-cards .card",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, right: r.right, top: r.top, bottom: r.bottom}; })",
    )


def last_legal_view(page: Any) -> dict[str, Any] | None:
    """The newest view this page received that offers it a choice (``legal`` set)."""
    for payload in reversed(page.received):
        try:
            frame = json.loads(payload)
        except ValueError:
            continue
        view = frame.get("view") or (frame.get("hand") or {}).get("view")
        if view and view.get("legal"):
            return view
    return None


def test_R_RM_03_two_browsers_play_a_pot_limit_omaha_hand_and_check_its_cards(browser, server):
    ana = sign_up(browser, server, "ana_plo")
    room_id = create_omaha_room(ana, "Omaha da Ana")
    sit(ana, 0)
    bia = sign_up(browser, server, "bia_plo", viewport=PHONE)
    join_and_sit(bia, server, room_id, 1)
    ana.wait_for_selector('[data-seat="1"] .seat-box')
    host_menu(ana, "start")

    for page in (ana, bia):  # four cards each, face up to their owner
        page.wait_for_function(
            "(n) => document.querySelectorAll('.seat.me .seat-cards .card').length === n",
            arg=OMAHA_CARDS,
        )
    phone_cards = my_cards(bia)
    assert all(c["x"] >= 0 and c["right"] <= PHONE["width"] for c in phone_cards), phone_cards
    assert all(c["bottom"] <= PHONE["height"] for c in phone_cards), phone_cards

    # The first to act before the flop (heads-up: the button) may raise to the pot at most.
    slider_checked: list[tuple[int, int, int]] = []

    def check_the_slider(page: Any) -> None:
        slider = page.query_selector(".action-bar:not([hidden]) .amount-range")
        view = last_legal_view(page)
        if slider is None or view is None or slider_checked:
            return
        offered = int(slider.get_attribute("max"))
        slider_checked.append((offered, view["legal"]["max_to"], pot_limit_max(view)))
        screenshot(page, "plo-raise-1280" if page is ana else "plo-raise-375")
        slider.focus()
        page.keyboard.press("End")  # the slider's last step is the pot
        assert int(page.locator(".amount-box").input_value()) == offered

    end = time.monotonic() + 60
    while not slider_checked and time.monotonic() < end:  # whichever page acts first
        for page in (ana, bia):
            check_the_slider(page)
        ana.wait_for_timeout(50)
    assert slider_checked, "no raise was offered before the flop"
    offered, max_to, expected = slider_checked[0]
    assert offered == max_to == expected  # blinds 10/20: a raise to 60 before the flop
    screenshot(ana, "plo-table-1280")
    screenshot(bia, "plo-table-375")

    log = play([ana, bia], lambda g: len(g.finished) >= 1, timeout_s=90)
    assert acts_sent(ana) and acts_sent(bia) and log.finished

    # "Conferir cartas" on the phone: every card Bia saw, her four among them, checks out.
    bia.click('[data-open="verify"]')
    bia.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert bia.get_attribute(".verify-summary", "data-ok") == "true"
    rows = bia.eval_on_selector_all(".verify-row", "els => els.map(e => e.dataset.ok)")
    assert len(rows) >= OMAHA_CARDS and set(rows) == {"true"}
    assert bia.get_attribute(".verify-signature", "data-status") == "pass"
    screenshot(bia, "plo-verify-375")
    ana.click('[data-open="verify"]')
    ana.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert ana.get_attribute(".verify-summary", "data-ok") == "true"
    screenshot(ana, "plo-verify-1280")
    close(ana)
    close(bia)
