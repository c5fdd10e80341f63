"""Issue 16, "a table that reads at a glance on every screen": each test pins one item of the
walkthrough and fails on the table as it was (1280×800 and 375×812 where the layout matters)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, open_page
from .helpers import LIVE_WAIT_MS, box, close, open_fixture, push

pytestmark = pytest.mark.browser

SIZES = {"1280": DESKTOP, "375": PHONE}


def intersects(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


ROOM_AFTER = """(changes => { const r = structuredClone(window.fixture.frames[0].room);
    r.seats = r.seats.map(s => ({...s, ...(changes[s.seat] ?? {})})).filter(s => !s.gone);
    r.seats_taken = r.seats.length; return {t: "room", seq: 10, room: r}; })"""


def room_after(page: Any, changes: dict[int, dict[str, Any]]) -> None:
    page.evaluate(
        f"c => window.fixture.push(({ROOM_AFTER})(c))", {str(k): v for k, v in changes.items()}
    )


def route_wallet(page: Any, reload_answer: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    posted: list[dict[str, Any]] = []
    page.route(
        "**/api/wallet",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body='{"balance": 500, "claims": []}'
        ),
    )

    def reload(route: Any) -> None:
        posted.append(json.loads(route.request.post_data or "{}"))
        route.fulfill(
            status=200, content_type="application/json", body=json.dumps(reload_answer or {})
        )

    page.route("**/api/ahiko/rooms/*/reload", reload)
    return posted


# --- a reload shows at once ------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_R_RM_13_a_reload_shows_on_the_stack_at_once_with_a_toast(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_kicker", viewport=SIZES[size])
    posted = route_wallet(page, {"amount": 30, "stack": 182, "applied": True})
    assert page.inner_text(".seat.me .seat-stack") == "152"
    page.click('[data-control="reload"]')
    dialog = page.locator(".buyin-dialog")
    assert dialog.locator("h2").inner_text() == "Recarregar fichas"
    assert "Fichas a acrescentar" in dialog.inner_text()  # its own words, not the buy-in's
    assert "Sua pilha agora: 152" in dialog.inner_text()
    page.fill("#buyin-amount", "30")
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".toast:not([hidden])")
    assert posted and posted[0]["amount"] == 30
    assert page.inner_text(".toast") == "Recarga feita: +30 fichas na sua pilha."
    room_after(page, {0: {"stack": 182}})  # the room frame the server sends with the reply
    # the finished hand is still on the felt: the stack is the room's, at once
    assert page.locator(".seat.me .seat-hand").count() == 1
    assert page.inner_text(".seat.me .seat-stack") == "182"
    close(page)


def test_R_RM_13_a_reload_confirmed_as_a_hand_starts_says_next_hand(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_kicker", viewport=PHONE)
    route_wallet(page, {"amount": 30, "stack": 182, "applied": True})
    page.click('[data-control="reload"]')
    page.fill("#buyin-amount", "30")
    frames = page.evaluate("window.fixture.frames")
    running = json.loads(json.dumps(frames[2]))
    running["view"]["street"] = "preflop"
    running["view"]["board"] = []
    running["events"] = running["events"][:3]
    running["hand_no"] = 2
    push(page, running)  # the next hand is dealt while the dialog is open
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".toast:not([hidden])")
    assert page.inner_text(".toast") == "Recarga feita: +30 fichas na próxima mão."
    assert page.inner_text(".seat.me .badge-reload") == "+30 na próxima mão"
    close(page)


# --- left alone after a hand --------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_R_BA_01_left_alone_after_a_hand_the_waiting_line_and_the_servers_countdown(
    browser, static_url, size
):
    page = open_fixture(browser, static_url, "ahiko_kicker", viewport=SIZES[size])
    room_after(page, {4: {"gone": True}})  # the Bot Ahiko left after the hand
    push(page, {"t": "countdown", "seq": 11, "countdowns": {"bot_ahiko": 20.0}})
    status = page.locator(".table-status")
    assert status.is_visible()
    assert status.inner_text().split("\n") == [
        "Aguardando adversário…",
        "O Bot Ahiko entra em 20 s",
    ]
    # the finished hand leaves the felt after a few seconds; the waiting line stays
    page.wait_for_function("() => !document.querySelector('.seat-hand')", timeout=LIVE_WAIT_MS)
    assert page.locator(".board .card").count() == 0
    assert page.inner_text(".table-status").startswith("Aguardando adversário…")
    close(page)


def test_R_RM_11_the_next_hands_countdown_is_the_servers(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_kicker")
    push(page, {"t": "countdown", "seq": 11, "countdowns": {"next_hand": 3.0}})
    assert page.inner_text(".table-status") == "Próxima mão em 3 s"  # not a copy of 8 s
    push(page, {"t": "countdown", "seq": 12, "countdowns": {}})  # called off
    assert page.locator(".next-hand").count() == 0
    close(page)


# --- five-card draw collects the bets ------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("fixture", ["draw_at_the_draw", "holdem_at_the_flop"])
def test_R_DR_03_a_closed_rounds_bets_are_in_the_pot(browser, static_url, size, fixture):
    page = open_fixture(browser, static_url, fixture, viewport=SIZES[size])
    assert page.locator(".bet").count() == 0
    lasts = page.eval_on_selector_all(".seat-last", "els => els.map(e => e.textContent)")
    assert not [x for x in lasts if x.startswith(("Apostou", "Pagou", "Aumentou"))], lasts
    pots = page.eval_on_selector_all(".pot", "els => els.map(e => e.innerText)")
    assert pots == ["Pote: 9" if fixture == "draw_at_the_draw" else "Pote: 12"]
    assert page.locator(".pot-total.empty").count() == 1  # no second, different total
    close(page)


# --- the phone hand log -------------------------------------------------------------------------


def open_phone_log(page: Any) -> None:
    """Opens the phone log and waits for its sheet: <details> fires `toggle` a task after the
    click, and the sheet stays hidden until handlog.js has placed it under the felt."""
    page.click(".hand-log summary")
    page.wait_for_selector(".hand-log.sheet .log-lines", state="visible", timeout=LIVE_WAIT_MS)


def test_issue16_the_phone_log_is_a_sheet_that_covers_neither_cards_nor_board(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_showdown", viewport=PHONE)
    lines = page.locator(".log-lines li").count()
    assert lines >= 17
    felt_before = box(page, ".felt")
    open_phone_log(page)
    sheet = box(page, ".log-body")
    assert box(page, ".felt") == felt_before  # the felt never resizes
    for selector in (".seat.me .seat-cards", ".board", ".seat.me .seat-box"):
        assert not intersects(sheet, box(page, selector)), selector
    # closes by its close button, by Esc and by itself at the next hand
    page.click(".log-close")
    assert not page.locator(".log-lines").is_visible()
    open_phone_log(page)
    page.keyboard.press("Escape")
    assert not page.locator(".log-lines").is_visible()
    open_phone_log(page)
    push(
        page,
        """({t: "commitment", seq: 9, hand_no: 43, cards_in_s: 2,
             commitment: {v: "pokerfair/1", table_id: "fixture", hand_no: 43,
                          digest: "ab".repeat(32), layout: "holdem-noburn-v1"}})""",
    )
    assert not page.locator(".log-lines").is_visible()
    close(page)


def test_issue16_the_phone_log_title_can_be_tapped_closed(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_full", viewport=PHONE)
    open_phone_log(page)
    page.locator(".hand-log summary").click()  # nothing of the felt catches the tap
    assert not page.locator(".log-lines").is_visible()
    close(page)


# --- seats round the oval -----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_issue16_heads_up_the_opponent_sits_opposite(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_waiting", viewport=SIZES[size])
    room_after(page, {})
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
            r.seats.push({seat: 1, player_id: "bot-ahiko", name: "Bot Ahiko", stack: 150,
                          is_bot: true, bot_level: "normal", connected: true});
            return {t: "room", seq: 11, room: r}; })()""",
    )
    me, bot, felt = (
        box(page, ".seat.me .seat-box"),
        box(page, '[data-seat="1"] .seat-box'),
        box(page, ".felt"),
    )
    assert abs(centre(me)[0] - centre(bot)[0]) < 2  # face to face, both on the centre line
    assert centre(me)[1] - centre(bot)[1] > felt["height"] * 0.5
    # the six free seats are drawn faintly, not as places to sit
    assert page.locator(".seat-free").count() == 6
    assert page.locator(".sit-btn").count() == 0
    close(page)


# --- showdown names the kicker ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "win", "lose"),
    [
        ("pt-BR", "Par de ases, kicker rei", "Par de ases, kicker dama"),
        ("en", "Pair of aces, king kicker", "Pair of aces, queen kicker"),
    ],
)
def test_R_RK_03_the_showdown_names_the_kicker(browser, static_url, lang, win, lose):
    page = open_fixture(browser, static_url, "ahiko_kicker", lang=lang)
    assert page.inner_text('[data-seat="0"] .seat-hand') == win
    assert page.inner_text('[data-seat="4"] .seat-hand') == lose
    assert win in page.inner_text(".result-line")
    close(page)


def test_R_RK_03_a_mucked_hand_decides_no_kicker_on_the_table(browser, static_url):
    """The result line is the table's, the same for every viewer: the kicker is named only
    between hands that were shown. Ana mucked her ace-queen: the bot's pair of aces wins with
    no kicker named on her screen either, though her own cards are still hers to see."""
    page = open_fixture(browser, static_url, "ahiko_kicker_mucked")
    assert page.inner_text('[data-seat="4"] .seat-hand') == "Par de ases"
    result = page.inner_text(".result-line")
    assert "Par de ases" in result and "kicker" not in result
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_issue16_you_and_long_hand_names_are_never_cut(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_kicker", viewport=SIZES[size], upto=0)
    long = "Maximiliano Albuquerque de Souza"
    page.evaluate(
        """long => { const [snap, commit, hand] = structuredClone(window.fixture.frames);
            snap.room.seats[0].name = long; hand.names["0"] = long;
            for (const f of [snap, commit, hand]) window.fixture.push(f); }""",
        long,
    )
    you = box(page, ".seat.me .you-tag")
    name = box(page, ".seat.me .seat-name")
    assert you["x"] + you["width"] <= name["x"] + name["width"] + 0.5  # "(Você)" in full
    assert page.inner_text(".seat.me .you-tag").strip() == "(Você)"
    hand = page.locator(".seat.me .seat-hand")
    assert hand.evaluate("e => e.scrollWidth <= e.clientWidth")
    close(page)


# --- the table tells what happened ---------------------------------------------------------------


def test_R_TM_01_a_clock_that_ran_out_is_said_under_the_seat_and_in_the_log(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    frames = page.evaluate("window.fixture.frames")
    hand = frames[2]
    hand["auto_action"] = {"seat": 0, "action": "check", "reason": "timeout"}
    push(page, hand)
    assert page.inner_text('[data-seat="0"] .seat-last') == "Tempo esgotado: passou"
    assert "Tempo esgotado: Ana passou" in page.inner_text(".log-lines")
    close(page)


def test_R_TM_02_a_disconnection_its_countdown_and_a_withdrawal_are_said(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    room_after(page, {3: {"connected": True}, 1: {"connected": False}})
    assert "Robô Rita perdeu a conexão" in page.inner_text(".log-lines")
    frames = page.evaluate("window.fixture.frames")
    hand = frames[2]
    hand["view"]["to_act"] = 1
    hand["view"]["legal"] = None
    hand["deadline"] = {"seat": 1, "seconds_left": 30.0}
    push(page, hand)
    assert page.inner_text('[data-seat="1"] .badge-off') == "Desconectado · 30 s"
    room_after(page, {1: {"connected": False}, 5: {"gone": True}})
    assert "Robô Caio saiu da mesa" in page.inner_text(".log-lines")
    close(page)


# --- sound and attention --------------------------------------------------------------------------


def test_issue16_my_turn_beeps_and_marks_the_tab_on_a_desktop(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.wait_for_function("() => document.title.startsWith('● Sua vez')", timeout=3000)
    assert page.evaluate("window.__ahikoSounds") == ["turn"]
    assert page.get_attribute(".sound-toggle", "data-sound") == "on"
    close(page)


def test_issue16_phones_start_muted_and_the_choice_is_remembered(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=PHONE)
    assert page.get_attribute(".sound-toggle", "data-sound") == "off"
    assert page.evaluate("window.__ahikoSounds") == []
    page.wait_for_function("() => document.title.startsWith('● Sua vez')", timeout=3000)
    page.click(".sound-toggle")
    assert page.evaluate("localStorage.getItem('ahiko.sound')") == "on"
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute(".sound-toggle", "data-sound") == "on"
    assert page.evaluate("window.__ahikoSounds") == ["turn"]
    close(page)


# --- the commitment is labelled, motion is short and optional -------------------------------------


def test_R_FD_02_the_fingerprint_in_the_top_bar_says_what_it_is(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    commit = page.locator(".table-top .commit")
    assert commit.locator(".commit-label").inner_text() == "COMPROMISSO"  # small capitals
    assert "Impressão digital do baralho" in (commit.get_attribute("title") or "")
    assert commit.locator(".check-cards").inner_text() == "Conferir cartas"
    close(page)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_issue16_cards_are_dealt_in_unless_less_motion_is_asked(browser, static_url, motion):
    page = open_page(browser, DESKTOP, reduced_motion=motion)
    page.goto(f"{static_url}/tests/e2e/fixtures/table.html?f=holdem_midhand&upto=2")
    page.wait_for_selector("body[data-ready=true]")
    names = page.evaluate(
        """() => { window.fixture.push(window.fixture.frames[2]);
                   return [...document.querySelectorAll('.board .card')]
                       .map(e => getComputedStyle(e).animationName); }"""
    )
    assert names == (["deal-in"] * 3 if motion == "no-preference" else ["none"] * 3)
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_issue16_each_bet_sits_by_its_own_seat(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_full", viewport=SIZES[size])
    seats = {
        s: centre(box(page, f'[data-seat="{s}"] .seat-box'))
        for s in page.eval_on_selector_all(
            ".seat[data-seat]", "els => els.map(e => e.dataset.seat)"
        )
    }
    for seat in page.eval_on_selector_all(
        "[data-bet-seat]", "els => els.map(e => e.dataset.betSeat)"
    ):
        bx, by = centre(box(page, f'[data-bet-seat="{seat}"]'))
        dist = {s: ((x - bx) ** 2 + (y - by) ** 2) ** 0.5 for s, (x, y) in seats.items()}
        assert min(dist, key=dist.get) == seat, (seat, dist)  # type: ignore[arg-type]
        size_px = page.locator(f'[data-bet-seat="{seat}"] .bet-amount').evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size_px >= 11  # readable, not a 10 px chip
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_issue16_the_seat_controls_fit_the_screen_with_whole_words(browser, static_url, size):
    """The walkthrough's phone dock showed "Ficar fora nas próximas m…" cut at the screen's
    edge: on a phone the one-line dock uses short labels (the whole text stays the name a
    screen reader says); on a desktop the whole text shows."""
    page = open_fixture(browser, static_url, "ahiko_kicker", viewport=SIZES[size])
    button = page.wait_for_selector('[data-control="sit_out"]')
    assert button.get_attribute("aria-label") == "Ficar fora nas próximas mãos"
    shown = "Ficar fora" if size == "375" else "Ficar fora nas próximas mãos"
    assert button.inner_text() == shown
    row = page.locator(".table-side")  # on a phone, one row under the felt
    assert row.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    visible = page.locator(".table-side button:visible, .table-side summary:visible")
    assert visible.count() >= 3  # sitting out, the log, the chat
    for each in visible.all():
        edge = each.bounding_box()
        assert edge is not None and edge["x"] + edge["width"] <= SIZES[size]["width"]
    close(page)
