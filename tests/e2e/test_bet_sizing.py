"""Issue 47: the bet-size presets (½ pot, ⅔ pot, "Pote", all-in) and their keys: within what
the server's legal actions allow (a pot-limit maximum included), keys changed and kept by this
browser, a key already taken refused with the reason, and every single-key shortcut off."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .axe import assert_accessible
from .conftest import DESKTOP, PHONE, screenshot
from .helpers import close, open_fixture, push, sent_frames

pytestmark = pytest.mark.browser

# holdem_midhand: pot 255 + bets 80 out, 80 to call: "Pote" raises to 80 + (335 + 80).
POT_TO = 80 + (335 + 80)
MAX_TO = 940


def _amount(page: Any) -> int:
    return int(page.input_value(".amount-box"))


def _settings(page: Any) -> None:
    page.click('[data-open="settings"]')
    page.wait_for_selector("dialog.settings-dialog[open]")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_HE_07_presets_size_within_the_legal_range_and_keys_choose_them(
    browser: Any, static_url: str, viewport: dict[str, int]
) -> None:
    page = open_fixture(browser, static_url, "holdem_midhand", viewport)
    labels = page.eval_on_selector_all(
        ".preset", "els => els.map(e => [e.dataset.preset, e.textContent])"
    )
    assert labels == [
        ["min", "Min"],
        ["half", "½ pote"],
        ["two_thirds", "⅔ pote"],
        ["pot", "Pote"],
        ["allin", "All-in"],
    ]
    screenshot(page, f"bet-presets-{viewport['width']}")
    page.click('[data-preset="two_thirds"]')
    assert _amount(page) == 80 + (335 + 80) * 2 // 3
    page.keyboard.press("3")
    assert _amount(page) == POT_TO
    page.keyboard.press("1")
    assert _amount(page) == 80 + (335 + 80) // 2
    page.keyboard.press("4")
    assert _amount(page) == MAX_TO
    assert page.get_attribute('[data-preset="pot"]', "aria-keyshortcuts") == "3"
    close(page)


def test_R_HE_07_a_pot_limit_maximum_caps_every_preset(browser: Any, static_url: str) -> None:
    page = open_fixture(browser, static_url, "holdem_midhand")
    raw = page.evaluate("window.fixture.frames")
    cap = POT_TO - 95  # a table whose maximum is under the pot-sized raise
    frame = json.loads(json.dumps(raw[-1]))
    text = json.dumps(frame)
    assert f'"max_to": {MAX_TO}' in text
    push(page, json.loads(text.replace(f'"max_to": {MAX_TO}', f'"max_to": {cap}')))
    page.wait_for_function(f"() => document.querySelector('.amount-box').max === '{cap}'")
    for preset in ("pot", "allin"):
        page.click(f'[data-preset="{preset}"]')
        assert _amount(page) == cap
    close(page)


def test_hotkeys_are_changed_refused_with_a_reason_and_turned_off(
    browser: Any, static_url: str
) -> None:
    page = open_fixture(browser, static_url, "holdem_midhand")
    _settings(page)
    assert_accessible(page, "settings with shortcuts")
    screenshot(page, "settings-hotkeys-1280")
    page.fill("#set-key-pot", "f")
    page.click('[data-settings="save-keys"]')
    assert page.inner_text("#set-keys-said") == "Pote: a tecla f já é usada pela mesa."
    assert page.evaluate("localStorage.getItem('ahiko.hotkeys')") is None  # nothing kept
    page.fill("#set-key-pot", "q")
    page.click('[data-settings="save-keys"]')
    assert page.inner_text("#set-keys-said") == "Atalhos salvos."
    page.keyboard.press("Escape")
    page.keyboard.press("q")
    assert _amount(page) == POT_TO
    _settings(page)
    page.uncheck("#set-hotkeys")
    page.click('[data-settings="save-keys"]')
    page.keyboard.press("Escape")
    page.keyboard.press("1")
    page.keyboard.press("f")
    assert _amount(page) == POT_TO  # no preset taken, and no fold sent
    assert [f for f in sent_frames(page) if f.get("t") == "act"] == []
    close(page)
