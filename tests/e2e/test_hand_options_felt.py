"""Both boards on the felt (issue 43): a hand run twice, its frames recorded from a real room
(``frames_house``), in Chromium at 1280x800 and 375x812. The first board and the second
run-out each show their five cards, labelled; "Conferir cartas" verifies the hand, the
second board's openings included."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, screenshot
from .helpers import box, close, open_fixture

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_HE_11_a_hand_run_twice_shows_both_boards(
    browser: Any, static_url: str, viewport: dict[str, int]
) -> None:
    page = open_fixture(browser, static_url, "holdem_run_twice", viewport, lang="en")
    page.wait_for_function(
        "() => document.querySelectorAll('.board2 .card').length === 5", timeout=10_000
    )
    assert page.locator(".board1 .card").count() == 5
    assert page.get_attribute(".board1", "aria-label") == "First board"
    assert page.get_attribute(".board2", "aria-label") == "Second board"
    first, second = box(page, ".board1"), box(page, ".board2")
    assert second["y"] >= first["y"] + first["height"] - 1  # under it, not over it
    felt = box(page, ".felt")
    assert felt["x"] <= second["x"] and second["x"] + second["width"] <= felt["x"] + felt["width"]
    screenshot(page, f"run-twice-{viewport['width']}")
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=10_000)
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    close(page)
