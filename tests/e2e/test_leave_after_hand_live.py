"""R-RM-14 in Chromium against a real server: two people at an Ahiko table both choose "Sair
após esta mão" and play that hand to a showdown. When the result comes, it stays on the felt
(the board, the cards shown, the winner, the result line) for the usual few seconds, and the
"moedas voltaram para a sua carteira" notice does not cover it; then the seats empty."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, SCREENSHOTS
from .helpers import LIVE_WAIT_MS
from .play import PlayLog, act_once, hand_number, sign_up, where_it_stands

pytestmark = pytest.mark.browser
SCREENSHOTS.mkdir(parents=True, exist_ok=True)

RESULT_ON_FELT = (
    "() => document.querySelectorAll('.felt .board .card[data-card]').length === 5"
    " && document.querySelector('.felt .seat.winner') !== null"
    " && document.querySelector('.result-line') !== null"
)


def _sit(page: Any, first: bool) -> None:
    page.wait_for_selector("tr[data-room]")
    page.select_option('select:has(option[value="iniciante"])', "iniciante")
    page.locator("tr[data-room] a").first.click()
    page.wait_for_selector('.conn[data-conn="online"]')
    page.locator(".sit-btn").nth(0 if first else 1).click()
    page.wait_for_selector(".buyin-dialog[open]")
    page.fill("#buyin-amount", "150")
    page.dispatch_event("#buyin-amount", "input")
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".seat.me")


def _overlaps(page: Any, a: str, b: str) -> bool:
    return bool(
        page.evaluate(
            """([a, b]) => {
                const x = document.querySelector(a), y = document.querySelector(b);
                if (!x || !y || x.hidden || y.hidden) return false;
                const r = x.getBoundingClientRect(), s = y.getBoundingClientRect();
                if (!r.width || !s.width) return false;
                return !(r.right <= s.left || s.right <= r.left || r.bottom <= s.top || s.bottom <= r.top);
            }""",
            [a, b],
        )
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_RM_14_the_leavers_last_showdown_stays_on_the_felt_then_the_seats_empty(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    ana = sign_up(browser, server, f"sai{width}a", viewport)
    bia = sign_up(browser, server, f"sai{width}b", viewport)
    _sit(ana, first=True)
    _sit(bia, first=False)
    pages = [ana, bia]
    for page in pages:  # the hand starts (R-RM-11); both choose to leave after it
        page.wait_for_selector('[data-control="leave"]', timeout=30_000)
        page.click('[data-control="leave"]')
        page.wait_for_selector(".leaving-note")
    # Check or call to the river: the hand ends at a showdown.
    log = PlayLog()
    hand = hand_number(ana)
    end = time.monotonic() + 120
    while not ana.evaluate(RESULT_ON_FELT) and ana.locator(".seat.me").count():
        assert time.monotonic() < end, where_it_stands(ana)
        for page in pages:
            act_once(page, log, raise_by_slider=False)
        ana.wait_for_timeout(80)
    seen_at = time.monotonic()
    assert hand_number(ana) == hand
    for page in pages:
        page.wait_for_function(RESULT_ON_FELT)
        assert page.locator(".felt .seat .seat-hand").count() >= 1  # hands shown and named
        assert page.locator(".felt .seat.me").count() == 1  # seen from where it was played
        # The chips are back in the wallet, but the notice waits: nothing covers the result.
        assert not _overlaps(page, ".toast", ".felt")
    ana.screenshot(path=str(SCREENSHOTS / f"leaver-last-showdown-{width}.png"))
    bia.screenshot(path=str(SCREENSHOTS / f"leaver-last-showdown-other-{width}.png"))
    # Then the seats empty, and the notice and the free seats come.
    for page in pages:
        page.wait_for_selector(".felt .seat.me", state="detached", timeout=LIVE_WAIT_MS)
    shown_for = time.monotonic() - seen_at
    assert shown_for >= 4.0, shown_for  # the usual few seconds (FINISHED_HAND_SHOWN_MS, 6 s)
    for page in pages:
        page.wait_for_selector("[data-seat] .sit-btn")
        page.wait_for_selector('.toast[data-kind="info"]:not([hidden])')
        assert "voltaram para a sua carteira" in page.inner_text(".toast")
    ana.screenshot(path=str(SCREENSHOTS / f"leaver-after-{width}.png"))
    for page in pages:
        assert not page.console_errors, page.console_errors
        page.context.close()
