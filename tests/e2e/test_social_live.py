"""The social table in real Chromium against a real server (issue 19): two people chat and
one mutes the other."""

from __future__ import annotations

import time

import pytest

from .helpers import close
from .play import create_room, sign_up, sit

pytestmark = pytest.mark.browser


def chat_texts(page):  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(".chat-line .chat-text", "els => els.map(e => e.textContent)")


def until(check, timeout_s: float = 10.0):  # type: ignore[no-untyped-def]
    """Poll ``check`` (the page's CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_chat_two_people_chat_at_a_table_and_one_mutes_the_other(browser, server):
    ana = sign_up(browser, server, "anachat")
    room_id = create_room(ana, "Mesa do papo")
    sit(ana, 0)
    bia = sign_up(browser, server, "biachat")
    bia.goto(f"{server}/#/room/{room_id}")
    bia.wait_for_selector('.conn[data-conn="online"]')
    # A spectator may read but not talk while the chat is for seated players.
    assert bia.is_disabled(".chat-input")
    assert "sentado" in bia.inner_text(".chat-note")
    sit(bia, 1)
    bia.wait_for_selector(".chat-input:not([disabled])")
    ana.fill(".chat-input", "<b>oi</b> http://exemplo.com porra")
    ana.press(".chat-input", "Enter")
    bia.wait_for_selector(".chat-line .chat-text")
    assert chat_texts(bia) == ["<b>oi</b> http://exemplo.com *****"]  # text, filtered
    assert (
        bia.query_selector(".chat-lines b") is None and bia.query_selector(".chat-lines a") is None
    )
    bia.click('.chat-preset[data-preset="good_luck"]')
    until(lambda: len(chat_texts(ana)) == 2)
    assert chat_texts(ana)[-1] == "Boa sorte!"
    # Ana mutes Bia: Bia's next lines never reach Ana; Bia still sees her own.
    ana.click(".chat-line[data-author] .chat-mute")
    until(lambda: len(chat_texts(ana)) == 1)
    bia.fill(".chat-input", "você me ouve?")
    bia.press(".chat-input", "Enter")
    until(lambda: "você me ouve?" in chat_texts(bia))
    ana.fill(".chat-input", "silêncio")
    ana.press(".chat-input", "Enter")
    until(lambda: "silêncio" in chat_texts(bia))
    assert "você me ouve?" not in chat_texts(ana)
    assert chat_texts(ana)[-1] == "silêncio"
    # Reloading keeps the mute: the backlog on join leaves Bia out for Ana.
    ana.reload()
    ana.wait_for_selector(".chat-line")
    assert "você me ouve?" not in chat_texts(ana)
    # English labels by the switch.
    bia.click(".lang-switch")
    until(lambda: bia.inner_text(".chat-panel summary") == "Table chat")
    close(ana)
    close(bia)


def test_reentry_dialog_explains_the_minimum_after_leaving_an_ahiko_table(browser, server):
    page = sign_up(browser, server, "reentra")
    page.wait_for_selector('[data-tab="ahiko"][aria-selected="true"]')
    page.select_option('select[aria-label="Nível"]', "iniciante")
    page.wait_for_selector("tr[data-room]")
    page.locator("tr[data-room]").first.locator("a").click()
    page.wait_for_selector('.conn[data-conn="online"]')
    page.locator(".sit-btn").first.click()
    page.wait_for_selector(".buyin-dialog")
    assert page.query_selector(".reentry-note") is None  # a first visit: the usual range
    page.fill("#buyin-amount", "180")
    page.dispatch_event("#buyin-amount", "input")
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".seat.me")
    page.click('[data-control="leave-now"]')
    page.wait_for_selector(".seat.me", state="detached")
    page.wait_for_selector(".buyin-dialog", state="detached")
    page.locator(".sit-btn").first.click()
    page.wait_for_selector(".buyin-dialog .reentry-note")
    note = page.inner_text(".reentry-note")
    assert "180" in note and "30 minutos" in note and "pelo menos 180" in note
    assert page.get_attribute("#buyin-amount", "min") == "180"
    assert page.inner_text(".buyin-dialog .hint") == "Entre 180 e 200"
    page.fill("#buyin-amount", "120")
    page.click('[data-buyin="confirm"]')  # the browser refuses it before the server would
    assert page.query_selector(".seat.me") is None
    close(page)
