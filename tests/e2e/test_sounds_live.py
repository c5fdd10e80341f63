"""Issue 47: the table's sounds (cards, chips, check, fold, your turn, time running out, a pot
won), each with its own switch and a volume kept by this browser; "your turn" as a browser
notification while the tab is hidden, only once the player asked for it."""

from __future__ import annotations

from typing import Any

import pytest

from .axe import assert_accessible
from .conftest import PHONE, screenshot
from .helpers import close
from .play import create_room, host_menu, play, sign_up, sit

pytestmark = pytest.mark.browser


def test_each_sound_has_a_switch_and_a_hidden_tab_is_notified_of_its_turn(
    browser: Any, server: str
) -> None:
    page = sign_up(browser, server, "som", permissions=["notifications"])
    create_room(page, "Mesa sonora")
    sit(page, 0)
    page.click('[data-open="settings"]')
    page.wait_for_selector("dialog.settings-dialog[open]")
    assert page.evaluate("Notification.permission") == "granted"  # the context allows it...
    assert (
        page.evaluate("JSON.parse(localStorage.getItem('ahiko.sounds') ?? '{}').notify") is None
    )  # ...unasked
    page.uncheck('[data-sound="check"]')
    page.fill("#set-volume", "30")
    page.dispatch_event("#set-volume", "change")
    page.check('[data-setting="notify"]')
    page.wait_for_function("() => JSON.parse(localStorage.getItem('ahiko.sounds')).notify === true")
    screenshot(page, "settings-sounds-1280")
    assert_accessible(page, "settings with sounds")
    page.set_viewport_size(PHONE)
    screenshot(page, "settings-sounds-375")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.keyboard.press("Escape")
    saved = page.evaluate("JSON.parse(localStorage.getItem('ahiko.sounds'))")
    assert saved["volume"] == 0.3 and saved["kinds"]["check"] is False

    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    play([page], lambda log: len(log.finished) >= 2)
    played = page.evaluate("window.__ahikoSounds")
    assert {"turn", "deal", "chips"} <= set(played), played
    assert "check" not in played  # switched off (play() checks whenever it can)

    # The tab hidden (headless Chromium shows every tab: the page is told, as a browser
    # tells it when another tab comes to the front): its next turn comes as a notification.
    page.evaluate(
        "() => { Object.defineProperty(document, 'visibilityState', {get: () => 'hidden', configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    play([page], lambda log: page.evaluate("window.__ahikoNotices.length > 0"))
    assert page.evaluate("window.__ahikoNotices")[0] == "● Sua vez"
    close(page)
