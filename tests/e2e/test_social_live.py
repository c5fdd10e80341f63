"""The social table in real Chromium against a real server (issue 19): two people chat and
one mutes the other."""

from __future__ import annotations

import pytest

from .helpers import LIVE_WAIT_MS, close, until
from .play import create_room, host_menu, sign_up, sit

pytestmark = pytest.mark.browser


def chat_texts(page):  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(".chat-line .chat-text", "els => els.map(e => e.textContent)")


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
    # Ana's own line reaches her page on its own frame, not necessarily before Bia's.
    until(lambda: chat_texts(ana)[-1:] == ["silêncio"])
    assert "você me ouve?" not in chat_texts(ana)
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
    assert "30 min" in page.inner_text(".reentry-note")
    why = page.inner_text('[data-why="limits.why_reentry"]')
    assert "180" in why and "30 minutos" in why and "o mínimo é 180" in why
    assert page.get_attribute("#buyin-amount", "min") == "180"
    assert page.inner_text(".buyin-dialog .hint") == "Permitido: de 180 a 200."
    page.fill("#buyin-amount", "120")
    page.press("#buyin-amount", "Enter")  # the page refuses it before the server would
    assert page.inner_text(".field-error") == "O mínimo é 180."
    assert page.is_disabled('[data-buyin="confirm"]')
    assert page.query_selector(".seat.me") is None
    close(page)


def _new_room(page, server, **settings):  # type: ignore[no-untyped-def]
    room = page.evaluate(
        """(body) => fetch("/api/rooms", {method: "POST", headers: {"Content-Type":
             "application/json", "X-Ahiko-CSRF": "1"}, body: JSON.stringify(body)})
             .then(r => r.json())""",
        settings,
    )
    page.goto(f"{server}/#/room/{room['id']}")
    page.wait_for_selector('.conn[data-conn="online"]')
    return room["id"]


def test_time_bank_runs_on_screen_after_the_deadline(browser, server):
    page = sign_up(browser, server, "relogio")
    _new_room(
        page, server, name="Relógio", action_deadline_s=2.0, time_bank_s=8.0, time_bank_cap_s=8.0
    )
    sit(page, 0)
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    page.wait_for_selector(".action-bar:not([hidden])", timeout=30_000)
    button = page.wait_for_selector('[data-control="time_bank"]')
    assert button.inner_text() == "Usar banco de tempo (8 s)"
    # The deadline runs out: the bank starts by itself and the table says so.
    page.wait_for_selector(".act-timer.bank", timeout=LIVE_WAIT_MS)
    assert page.inner_text(".act-timer.bank").startswith("Banco de tempo:")
    page.wait_for_selector('[data-seat="0"] .clock.bank')
    assert page.query_selector('[data-control="time_bank"]') is None  # running: no button
    page.click('[data-action="check"], [data-action="call"]')
    page.wait_for_selector(".act-timer.bank", state="detached")
    close(page)


def test_sit_out_and_return(browser, server):
    page = sign_up(browser, server, "foradamao")
    _new_room(
        page, server, name="Pausa", action_deadline_s=2.0, time_bank_s=0.0, time_bank_cap_s=0.0
    )
    sit(page, 0)
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    page.wait_for_selector('[data-seat="0"] .card, [data-seat="0"] .seat-cards', timeout=30_000)
    page.click('[data-control="sit_out"]')
    page.wait_for_selector('[data-seat="0"] .badge-sitout')
    assert page.inner_text('[data-seat="0"] .badge-sitout') == "Fora"
    page.wait_for_selector(".sitting-out-note")
    # The hand in play ends (the clock answers for us); no new hand deals a sitting player in.
    page.wait_for_selector(".result-line", timeout=30_000)
    before = page.inner_text(".hand-no")
    page.wait_for_timeout(2500)  # longer than the room's 1 s between hands
    assert page.inner_text(".hand-no") == before
    page.click('[data-control="sit_in"]')
    page.wait_for_selector('[data-seat="0"] .badge-sitout', state="detached")
    until(lambda: page.inner_text(".hand-no") != before)
    page.wait_for_selector('[data-control="sit_out"]')
    close(page)
