"""Both boards on the felt (issue 43): a hand run twice, its frames recorded from a real room
(``frames_house``), in Chromium at 1280x800 and 375x812. The first board and the second
run-out each show their five cards, labelled; "Conferir cartas" verifies the hand, the
second board's openings included."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, screenshot
from .frames_house import holdem_run_twice
from .helpers import LIVE_WAIT_MS, box, close, open_fixture, sent_frames

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_HE_11_a_hand_run_twice_shows_both_boards(
    browser: Any, static_url: str, viewport: dict[str, int]
) -> None:
    page = open_fixture(browser, static_url, "holdem_run_twice", viewport, lang="en")
    page.wait_for_function(
        "() => document.querySelectorAll('.board2 .card').length === 5", timeout=LIVE_WAIT_MS
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
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    close(page)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_HE_11_the_all_in_player_is_asked_to_run_it_twice_in_the_action_bar(
    browser: Any, static_url: str, viewport: dict[str, int]
) -> None:
    frames = holdem_run_twice()
    asked = next(i for i, f in enumerate(frames) if f["t"] == "runs_asked")
    page = open_fixture(
        browser, static_url, "holdem_run_twice", viewport, lang="pt-BR", upto=asked + 1
    )
    page.wait_for_selector(".hand-prompt:not([hidden])", timeout=LIVE_WAIT_MS)
    assert "correr duas vezes" in page.inner_text(".hand-prompt").lower()
    screenshot(page, f"run-twice-asked-{viewport['width']}")
    page.click('[data-prompt="twice"]')
    assert {"t": "choose_runs", "runs": 2} in [
        {k: v for k, v in f.items() if k != "id"} for f in sent_frames(page)
    ]
    assert page.locator(".hand-prompt").is_hidden()
    close(page)


def test_R_HE_11_the_hand_log_tells_the_answers_and_the_second_board(
    browser: Any, static_url: str
) -> None:
    page = open_fixture(browser, static_url, "holdem_run_twice", DESKTOP, lang="en")
    lines = page.eval_on_selector_all(".hand-log li", "els => els.map(e => e.textContent)")
    assert "Everyone is all-in: run it twice?" in lines
    assert sum(1 for line in lines if line.endswith("runs it twice")) == 2
    assert any(line.startswith("Second board, Flop: ") for line in lines), lines
    close(page)
