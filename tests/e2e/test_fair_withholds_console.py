"""The operators see pokerfair/2's withholds, in Chromium against a real server: ana's browser
reveals its secret every hand, bia's commits and never reveals; the hands go on with bia's
public fallback, and the console's "Embaralhamento" tab lists bia with one withheld secret a
hand (ana not at all), beside the public count of hands cancelled after their cards (none:
nothing crashed). bia's account page shows the same count. At 1280x800 and 375x812."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from ahiko.cli import main
from ahiko.server.services import CSRF_HEADER
from ahiko.store.fair_counts import withholds_of
from fair_browsers import play_table
from live_server import create_account

from .conftest import DESKTOP, PHONE, open_page, screenshot
from .live import live_app

pytestmark = pytest.mark.browser
PASSWORD = "correct horse"
HANDS = 3


def test_R_FD_02_the_console_shows_who_withheld_and_how_often(tmp_path: Any, browser: Any) -> None:
    with live_app(tmp_path) as (url, app):
        cookies, ids = {}, {}
        for name in ("ana", "bia", "opera"):
            made = create_account(url, name, PASSWORD)
            cookies[name], ids[name] = made.cookies["ahiko_session"], int(made.json()["id"])
        room = httpx.post(
            f"{url}/api/rooms",
            json={"name": "Mesa justa", "limit_hands": HANDS},
            headers={CSRF_HEADER: "1"},
            cookies={"ahiko_session": cookies["ana"]},
        )
        assert room.status_code == 201, room.text
        with ThreadPoolExecutor(1) as sockets:  # their own event loop: Playwright holds this one
            table = play_table(url, cookies, room.json()["id"])
            ana, bia = sockets.submit(asyncio.run, table).result()
        assert (ana.fallbacks(), bia.fallbacks()) == (0, HANDS)
        engine = app.state.services.engine
        deadline = time.monotonic() + 30
        while withholds_of(engine, ids["bia"]) < HANDS and time.monotonic() < deadline:
            time.sleep(0.05)  # the archive writes on its own thread

        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            assert main(["admin", "operator", "add", "opera", "--data-dir", str(tmp_path)]) == 0
        code = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", printed.getvalue())
        assert code is not None
        for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page = open_page(browser, viewport=viewport)
            page.context.add_cookies(
                [{"name": "ahiko_session", "value": cookies["opera"], "url": url}]
            )
            page.goto(f"{url}/admin")
            if viewport is DESKTOP:  # the code is given once
                page.get_by_test_id("operator-code").fill(code.group(0))
                page.get_by_test_id("operator-code-submit").click()
            page.get_by_test_id("tab-fairness").click()
            section = page.get_by_test_id("fairness")
            section.wait_for()
            assert page.get_by_test_id(f"withheld-count-{ids['bia']}").inner_text() == str(HANDS)
            assert page.get_by_test_id(f"withheld-{ids['ana']}").count() == 0
            assert page.get_by_test_id("crash-cancellations").inner_text() == "0"
            assert "substituto público" in section.inner_text()
            screenshot(page, f"admin-console-fairness-{size}")
            section.get_by_role("button", name="bia").click()
            page.get_by_test_id("account").wait_for()
            assert page.get_by_test_id("account-withheld").inner_text() == str(HANDS)
            assert not page.console_errors
            page.context.close()
