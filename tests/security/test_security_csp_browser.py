"""The served client runs under our Content-Security-Policy in a real browser (issue 9): the
page renders, signs up and lists rooms with no CSP violation, and an inline script that an
attacker could slip into the page would be blocked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live_table import ServerProcess, running_server
from playwright.sync_api import sync_playwright

from chromium import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("security_live")]


@pytest.fixture(scope="module")
def page_and_server() -> Iterator[tuple[Any, ServerProcess, list[str]]]:
    with running_server() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        violations: list[str] = []
        page.on(
            "console",
            lambda message: (
                violations.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )
        yield page, server, violations
        browser.close()


def test_client_signs_up_and_lists_rooms_without_a_csp_violation(
    page_and_server: tuple[Any, ServerProcess, list[str]],
) -> None:
    page, server, violations = page_and_server
    page.goto(f"{server.base}/#/signup")
    page.fill("#auth-username", "cspcheck")
    page.fill("#auth-password", "segredo-forte-1")
    page.click('[data-auth="signup"]')
    page.wait_for_selector("table.rooms", timeout=20_000)
    assert page.evaluate("document.cookie") == ""  # the session cookie is HttpOnly
    assert violations == []


def test_an_injected_inline_script_is_blocked(
    page_and_server: tuple[Any, ServerProcess, list[str]],
) -> None:
    page, server, violations = page_and_server
    page.goto(f"{server.base}/")
    page.evaluate(
        """() => { const s = document.createElement('script');
                   s.textContent = 'window.__pwned = true';
                   document.body.append(s); }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.__pwned === undefined")
    assert any("script-src" in v for v in violations)
