"""Screenshots of the table at 1280×800 and 375×812, saved under docs/screenshots/ from the
recorded fixtures (the lobby and wallet ones come from the live tests)."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, screenshot
from .helpers import LIVE_WAIT_MS, close, open_fixture

pytestmark = pytest.mark.browser

SIZES = {"1280": DESKTOP, "375": PHONE}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("fixture", "name"),
    [
        ("holdem_midhand", "table-midhand"),
        ("holdem_showdown", "showdown"),
        ("draw_table", "draw-table"),
        ("holdem_full", "table-full"),
        ("host_waiting", "host-checklist"),
        ("ahiko_waiting", "ahiko-waiting"),
    ],
)
def test_R_HE_06_table_screenshots(browser, static_url, fixture, name, size):
    page = open_fixture(browser, static_url, fixture, viewport=SIZES[size])
    if fixture == "draw_table":
        page.click('.card-pick[data-card="7d"]')
        page.click('.card-pick[data-card="4c"]')
        page.click('.card-pick[data-card="2s"]')
        assert page.inner_text('[data-action="discard"]') == "Trocar 3"
    path = screenshot(page, f"{name}-{size}")
    assert path.stat().st_size > 5_000
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_R_FD_03_verify_dialog_screenshot(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_showdown", viewport=SIZES[size])
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    assert page.locator(".verify-row").count() == 11  # 2 own + 5 board + 4 shown
    screenshot(page, f"verify-dialog-{size}")
    close(page)
