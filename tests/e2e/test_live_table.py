"""End to end against a real Ahiko server (tests/e2e/live.py) in real headless Chromium."""

from __future__ import annotations

import json

import pytest

from .conftest import PHONE, screenshot
from .helpers import LIVE_WAIT_MS, assert_ahiko_verifies, close, record_states
from .play import acts_sent, create_room, host_menu, join_and_sit, play, sign_up, sit

pytestmark = pytest.mark.browser


def test_R_RM_03_sign_up_create_room_with_two_bots_and_play_three_hands(browser, server, tmp_path):
    page = sign_up(browser, server, "ana")
    create_room(page, "Mesa da Ana")
    sit(page, 0)
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "add_bot", level="normal")
    page.wait_for_selector('[data-seat="2"] .badge-bot')
    host_menu(page, "start")
    shots: dict[str, bool] = {}

    def take_shots(log):  # type: ignore[no-untyped-def]
        if "mid" not in shots and page.query_selector(".action-bar:not([hidden])"):
            screenshot(page, "table-live-1280")
            shots["mid"] = True

    log = play(
        [page],
        lambda g: len(g.finished) >= 3 and g.showdowns and g.raised_to,
        raise_by_slider=True,
        on_tick=take_shots,
    )
    raises = [a for a in acts_sent(page) if a["action"] in ("raise", "bet")]
    assert raises and raises[0]["amount"] == log.raised_to  # the slider's amount went out
    assert len(acts_sent(page)) == log.clicks

    # R-FD-03: every card this browser saw checks against the commitment
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    oks = page.eval_on_selector_all(".verify-row", "els => els.map(e => e.dataset.ok)")
    assert oks and set(oks) == {"true"}
    assert page.get_attribute(".verify-signature", "data-status") == "pass"
    # pokerfair/2: from the second hand on, this browser's secret shaped the shuffle
    assert page.get_attribute(".verify-contribution", "data-contributed") == "true"
    assert "Seu navegador contribuiu para este embaralhamento" in page.inner_text(".verify-dialog")
    assert "moldado pelos segredos dos jogadores" in page.inner_text(".verify-caveat")
    screenshot(page, "verify-dialog-v2-1280")
    page.set_viewport_size(PHONE)
    screenshot(page, "verify-dialog-v2-375")
    with page.expect_download() as info:
        page.click('[data-verify="download"]')
    proof_path = tmp_path / "proof.json"
    info.value.save_as(proof_path)
    proof = json.loads(proof_path.read_text())
    assert proof["format"] == "pokerfair-proof/2" and proof["own"]["seat"] == 0
    key = page.evaluate("fetch('/api/fairness/public-key').then(r => r.json())")["public_key"]
    assert_ahiko_verifies(proof_path, key, proof["commitment"]["digest"])
    close(page)


def test_two_people_in_two_browsers_play_a_hand_against_each_other(browser, server):
    ana = sign_up(browser, server, "ana2")
    room_id = create_room(ana, "Ana contra Bia")
    sit(ana, 0)
    bia = sign_up(browser, server, "bia", viewport=PHONE)
    join_and_sit(bia, server, room_id, 1)
    ana.wait_for_selector('[data-seat="1"] .seat-box')
    host_menu(ana, "start")
    log = play([ana, bia], lambda g: len(g.finished) >= 1, timeout_s=60)
    assert acts_sent(ana) and acts_sent(bia)
    hand = min(log.finished)
    ana_lines = ana.eval_on_selector_all(".result-line", "els => els.map(e => e.innerText)")
    bia_lines = bia.eval_on_selector_all(".result-line", "els => els.map(e => e.innerText)")
    assert hand >= 1 and ana_lines and ana_lines == bia_lines
    screenshot(bia, "table-live-375")
    assert "null" not in bia.inner_text(".table-top")
    close(ana)
    close(bia)


def test_a_dropped_websocket_reconnects_and_the_hand_continues(browser, server):
    page = sign_up(browser, server, "caio")
    routes = []

    def proxy(ws):  # type: ignore[no-untyped-def]
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket("**/ws/rooms/**", proxy)
    create_room(page, "Mesa instável")
    sit(page, 0)
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    page.wait_for_selector(".action-bar:not([hidden])", timeout=LIVE_WAIT_MS)
    hand_before = page.inner_text(".hand-no")
    # every state the indicator takes, recorded as it changes: a loaded machine may reconnect
    # before a poll sees the short offline spell
    record_states(page, "__connStates", "document.querySelector('.conn')?.dataset.conn")
    routes[-1].close()
    page.wait_for_function(
        "() => window.__connStates.includes('offline')"
        " && document.querySelector('.conn').dataset.conn === 'online'",
        timeout=LIVE_WAIT_MS,
    )
    assert len(routes) == 2
    assert "since=" in routes[1].url and "epoch=" in routes[1].url  # the gap is replayed
    page.wait_for_selector(".action-bar:not([hidden])", timeout=LIVE_WAIT_MS)
    assert page.inner_text(".hand-no") == hand_before  # the same hand, from the snapshot
    log = play([page], lambda g: len(g.finished) >= 1, timeout_s=60)
    assert log.clicks >= 1
    close(page)


def _api(page, method, path, body=None):  # type: ignore[no-untyped-def]
    return page.evaluate(
        """([method, path, body]) => fetch(path, {method, headers: {"Content-Type":
             "application/json", "X-Ahiko-CSRF": "1"}, body: body && JSON.stringify(body)})
             .then(r => r.json())""",
        [method, path, body],
    )


def test_lobby_lists_public_rooms_and_tournaments_with_their_columns(browser, server):
    page = sign_up(browser, server, "dora")
    _api(
        page,
        "POST",
        "/api/rooms",
        {"name": "Sexta do draw", "variant": "draw", "seats": 5, "ante": 1, "small_bet": 4},
    )
    _api(
        page, "POST", "/api/rooms", {"name": "Torneio de domingo", "kind": "tournament", "seats": 9}
    )
    secret = _api(page, "POST", "/api/rooms", {"name": "Só amigos", "public": False})
    page.click('[data-tab="public"]')
    page.wait_for_selector('tr[data-room] >> text="Sexta do draw"')
    row = page.locator("tr", has_text="Sexta do draw")
    cells = row.locator("td").all_inner_texts()
    assert cells[:6] == ["Sexta do draw", "Draw de cinco cartas", "4/8", "—", "0/5", "Aguardando"]
    assert page.locator("tr", has_text="Só amigos").count() == 0  # private: only by link
    screenshot(page, "lobby-1280")
    page.set_viewport_size(PHONE)
    screenshot(page, "lobby-375")
    page.click('[data-tab="tournament"]')
    page.wait_for_selector('tr >> text="Torneio de domingo"')
    page.fill("#join-link", f"{server}/#/room/{secret['id']}")
    page.press("#join-link", "Enter")
    page.wait_for_selector('.room-name >> text="Só amigos"')
    close(page)


def test_create_room_form_sends_every_option(browser, server):
    page = sign_up(browser, server, "edu")
    page.click('[data-nav="create"]')
    page.fill("#name", "Draw rápido")
    page.check('input[name="variant"][value="draw"]')
    assert page.locator("#seats").get_attribute("max") == "6"
    page.fill("#seats", "4")
    page.fill("#starting_chips", "500")
    page.fill("#ante", "2")
    page.fill("#small_bet", "10")
    page.check('input[name="doubling"][value="minutes"]')
    page.fill("#doubling_every", "15")
    page.check('input[name="deadline"][value="seconds"]')
    page.fill("#deadline_seconds", "25")
    page.check('input[name="visibility"][value="private"]')
    page.check('input[name="limit"][value="hands"]')
    page.fill("#limit_value", "50")
    page.click('[data-create="submit"]')
    page.wait_for_selector('.room-name >> text="Draw rápido"')
    room_id = page.url.rsplit("/", 1)[-1]
    room = _api(page, "GET", f"/api/rooms/{room_id}")
    assert (room["variant"], room["seats_total"], room["starting_chips"]) == ("draw", 4, 500)
    assert room["blinds"]["ante"] == 2 and room["blinds"]["small_bet"] == 10
    assert (room["public"], room["action_deadline_s"], room["limit_hands"]) == (False, 25, 50)
    assert page.inner_text(".stakes") == "Ante 2 · 10/20"
    close(page)


def test_R_HE_01_R_TN_03_create_form_defaults_eight_seats_and_tournament_blinds(browser, server):
    page = sign_up(browser, server, "gui")
    page.click('[data-nav="create"]')
    assert page.input_value("#seats") == "8"
    page.check('input[name="variant"][value="draw"]')
    assert page.input_value("#seats") == "6"  # R-DR-01: at most six
    page.check('input[name="variant"][value="holdem"]')
    page.check('input[name="kind"][value="tournament"]')
    assert (page.input_value("#small_blind"), page.input_value("#big_blind")) == ("25", "50")
    assert page.input_value("#starting_chips") == "1000"  # R-TN-02
    close(page)


def test_R_RM_15_wallet_shows_balance_and_statement(browser, server):
    page = sign_up(browser, server, "fabi")
    page.click('a[href="#/wallet"]')
    page.wait_for_selector('.balance[data-balance]:not([data-balance=""])')
    balance = int(page.get_attribute(".balance", "data-balance"))
    assert balance > 0
    page.wait_for_selector(".statement tbody tr td:nth-child(2)")
    first = page.locator(".statement tbody tr").first.locator("td").all_inner_texts()
    assert first[1].startswith("Moedas de boas-vindas") and first[2] == f"+{balance:,}".replace(
        ",", "."
    )
    page.click('[data-nav="logout"]')
    page.wait_for_selector('[data-auth="login"]')
    page.fill("#auth-username", "fabi")
    page.fill("#auth-password", "segredo-forte-1")
    page.click('[data-auth="login"]')
    page.wait_for_selector("table.rooms")
    assert "fabi" in page.inner_text(".who")
    close(page)


def test_R_RM_12_sit_in_an_ahiko_room_with_confirmation_leave_and_see_the_statement(
    browser, server
):
    page = sign_up(browser, server, "gabi")
    page.wait_for_selector('[data-tab="ahiko"][aria-selected="true"]')
    page.wait_for_selector("tr[data-room]")
    page.select_option('select[aria-label="Nível"]', "iniciante")
    rows = page.locator("tr[data-room]")
    assert rows.count() >= 2  # R-RM-10: at least two rooms per tier
    assert rows.first.locator("td").nth(2).inner_text() == "1/2"
    assert rows.first.locator("td").nth(3).inner_text() == "100–200"
    page.select_option('select[aria-label="Nível"]', "all")
    screenshot(page, "lobby-ahiko-1280")
    rows.first.locator("a").click()
    page.wait_for_selector('.conn[data-conn="online"]')
    page.locator(".sit-btn").first.click()
    page.wait_for_selector(".buyin-dialog")
    page.fill("#buyin-amount", "150")
    page.dispatch_event("#buyin-amount", "input")
    assert page.inner_text(".buyin-leaves") == "150 moedas sairão da sua carteira (saldo 5.000)."
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".seat.me")
    assert page.inner_text(".seat.me .seat-stack") == "150"
    page.click('[data-control="reload"]')  # R-RM-13: up to the tier's ceiling of 200
    page.wait_for_selector(".buyin-dialog")
    assert page.input_value("#buyin-amount") == "50"
    assert page.get_attribute("#buyin-amount", "max") == "50"
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector('.seat.me .seat-stack >> text="200"')
    page.click('[data-control="leave-now"]')
    page.wait_for_selector(".seat.me", state="detached")
    page.goto(f"{server}/#/wallet")
    page.wait_for_selector(".statement tbody tr:nth-child(4)")
    lines = page.locator(".statement tbody tr").all()
    texts = [line.locator("td").all_inner_texts() for line in lines]
    kinds = [line.get_attribute("data-kind") for line in lines]
    assert kinds[:3] == ["cash_out", "reload", "buy_in"]  # newest first (R-RM-15)
    assert [t[2] for t in texts[:3]] == ["+200", "-50", "-150"]
    assert texts[0][1].startswith("Saída da mesa")
    assert page.get_attribute(".balance", "data-balance") == "5000"
    screenshot(page, "wallet-1280")
    close(page)


def test_an_unknown_room_says_so_and_stops_retrying(browser, server):
    page = sign_up(browser, server, "hugo")
    page.goto(f"{server}/#/room/r-does-not-exist")
    page.wait_for_selector('.conn[data-conn="gone"]', timeout=LIVE_WAIT_MS)
    assert page.inner_text(".toast") == "Esta sala não existe ou já foi fechada."  # C-ERRORS
    page.wait_for_timeout(700)
    assert page.get_attribute(".conn", "data-conn") == "gone"
    close(page)
