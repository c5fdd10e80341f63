"""The table client against recorded frames (tests/e2e/frames.py): what it shows and what it
sends, in real headless Chromium."""

from __future__ import annotations

import json
import time

import pytest

from .conftest import PHONE
from .frames import PUBLIC_KEY_HEX
from .helpers import LIVE_WAIT_MS, assert_ahiko_verifies, close, open_fixture, sent_frames

pytestmark = pytest.mark.browser


def test_R_HE_06_action_bar_offers_only_the_legal_actions(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    actions = page.eval_on_selector_all("[data-action]", "els => els.map(e => e.dataset.action)")
    assert actions == ["fold", "call", "raise", "allin"]
    assert page.inner_text('[data-action="call"]') == "Pagar 80"
    assert page.inner_text('[data-action="raise"]').replace("\n", " ") == "Aumentar para 160"
    assert page.inner_text('[data-action="allin"]') == "All-in 940"
    assert page.locator('[data-action="check"]').count() == 0
    close(page)


def test_R_HE_06_every_seat_has_its_number_and_last_action(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    seats = page.eval_on_selector_all("[data-seat]", "els => els.map(e => e.dataset.seat)")
    assert sorted(seats, key=int) == [str(n) for n in range(6)]
    assert page.inner_text('[data-seat="0"] .seat-last') == "Passou"
    assert page.inner_text('[data-seat="1"] .seat-last') == "Apostou 80"
    assert page.inner_text('[data-seat="4"] .seat-last') == "All-in"
    assert page.locator('[data-seat="1"] .badge-bot').count() == 1  # bots are marked
    assert page.locator('[data-seat="5"] .marker-d').count() == 1
    assert page.locator('[data-seat="0"] .marker-sb').count() == 1
    assert page.locator('[data-seat="1"] .marker-bb').count() == 1
    close(page)


def test_my_seat_is_drawn_at_the_bottom_centre(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    boxes = {s: page.locator(f'[data-seat="{s}"]').bounding_box() for s in ("0", "3", "4", "5")}
    me = boxes["3"]
    assert all(me["y"] > b["y"] for s, b in boxes.items() if s != "3")
    felt = page.locator(".felt").bounding_box()
    assert abs((me["x"] + me["width"] / 2) - (felt["x"] + felt["width"] / 2)) < 2
    close(page)


def test_R_PT_01_side_pot_is_a_separate_labelled_pile(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    pots = page.eval_on_selector_all(".pot", "els => els.map(e => e.innerText)")
    assert pots == ["Pote: 75", "Pote lateral 1: 180"]
    assert page.inner_text('[data-bet-seat="1"] .bet-amount') == "80"
    close(page)


def test_R_HE_07_amount_is_bounded_by_the_legal_min_and_max(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    box = page.locator(".amount-box")
    box.fill("5000")
    box.dispatch_event("change")
    assert box.input_value() == "940"
    box.fill("10")
    box.dispatch_event("change")
    assert box.input_value() == "160"
    page.click('[data-preset="pot"]')
    # pot 255 + bet 80, call 80 first: raise to 80 + (335 + 80) = 495
    assert box.input_value() == "495"
    page.click('[data-preset="half"]')
    assert box.input_value() == str(80 + (335 + 80) // 2)
    slider = page.locator(".amount-range")
    assert slider.get_attribute("min") == "160" and slider.get_attribute("max") == "940"
    slider.fill("300")
    assert box.input_value() == "300"
    assert "300" in page.inner_text('[data-action="raise"]')
    page.click('[data-action="raise"]')
    frame = sent_frames(page)[-1]
    assert {k: frame[k] for k in ("t", "hand_no", "action", "amount")} == {
        "t": "act",
        "hand_no": 42,
        "action": "raise",
        "amount": 300,
    }
    close(page)


def test_a_click_gives_feedback_at_once_before_the_server_answers(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    elapsed = page.evaluate(
        """() => {
            const t0 = performance.now();
            document.querySelector('[data-action="call"]').click();
            const bar = document.querySelector('.action-bar');
            const busy = bar.classList.contains('pending')
              && document.querySelector('[data-action="call"]').classList.contains('chosen');
            return busy ? performance.now() - t0 : -1;
        }"""
    )
    assert 0 <= elapsed < 100
    assert sent_frames(page)[-1]["action"] == "call"
    close(page)


def test_keyboard_C_calls_and_R_focuses_the_amount(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.keyboard.press("r")
    assert page.evaluate("document.activeElement.classList.contains('amount-box')")
    page.keyboard.type("200")
    page.keyboard.press("Escape")
    assert page.locator(".amount-box").input_value() == "160"
    page.keyboard.press("c")
    assert sent_frames(page)[-1]["action"] == "call"
    close(page)


def test_keyboard_R_then_Enter_raises_the_typed_amount(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.keyboard.press("r")
    page.keyboard.type("250")
    page.keyboard.press("Enter")
    frame = sent_frames(page)[-1]
    assert (frame["action"], frame["amount"]) == ("raise", 250)
    close(page)


def test_keyboard_F_folds(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.keyboard.press("f")
    assert sent_frames(page)[-1]["action"] == "fold"
    close(page)


def test_server_refusal_gives_the_choice_back(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.click('[data-action="call"]')
    page.evaluate(
        """window.fixture.push({t: "error", seq: 3, id: "x", code: "illegal_action",
                                rule: "R-HE-07", message: "min raise is to 160"})"""
    )
    assert page.locator('[data-action="call"]').is_enabled()
    # C-ERRORS: a known code reads in the player's language, without rule ids
    assert page.inner_text(".toast") == "Essa jogada não é permitida agora."
    assert page.get_attribute(".toast", "data-kind") == "error"
    close(page)


def test_R_FD_02_commitment_fingerprint_shows_before_the_cards(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    banner = page.locator(".commit-banner")
    assert banner.is_visible()
    fp = page.inner_text(".commit-fp")
    frames = page.evaluate("window.fixture.frames")
    assert fp.replace(" ", "") == frames[1]["commitment"]["digest"][:12]
    assert page.locator(".card:not(.card-back)").count() == 0
    page.evaluate("window.fixture.push(window.fixture.frames[2])")
    assert page.locator(".commit-banner").count() == 0
    assert page.locator('[data-seat="3"] .card[data-card="Qd"]').count() == 1
    close(page)


def test_R_FD_03_check_cards_shows_every_card_consistent(browser, static_url, tmp_path):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    rows = page.eval_on_selector_all(".verify-row", "els => els.map(e => e.dataset.ok)")
    assert rows == ["true"] * 5
    assert page.get_attribute(".verify-timing", "data-before") == "true"  # R-FD-04
    assert "não é uma auditoria" in page.inner_text(".verify-caveat").lower()  # R-FD-05
    with page.expect_download() as info:
        page.click('[data-verify="download"]')
    path = tmp_path / "proof.json"
    info.value.save_as(path)
    proof = json.loads(path.read_text())
    assert proof["format"] == "pokerfair-proof/1"
    assert [c["position"] for c in proof["cards"]] == [2, 7, 10, 11, 12]
    assert proof["client_observation"]["commitment_before_cards"] is True
    assert page.get_attribute(".verify-signature", "data-status") == "pass"
    assert_ahiko_verifies(path, PUBLIC_KEY_HEX, proof["commitment"]["digest"])
    close(page)


def test_R_FD_03_a_tampered_card_is_flagged(browser, static_url):
    page = open_fixture(browser, static_url, "tampered_holdem_midhand")
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-summary", "data-ok") == "false"
    rows = page.eval_on_selector_all(".verify-row", "els => els.map(e => e.dataset.ok)")
    assert rows == ["false", "true", "true", "true", "true"]  # only the changed card
    close(page)


def test_R_FD_04_a_browser_that_joined_mid_hand_says_so(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_joined")
    assert page.locator(".commit-banner").count() == 0
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-timing", "data-before") == "false"
    assert "já em andamento" in page.inner_text(".verify-timing")
    close(page)


def test_showdown_names_each_pots_winning_hand_and_highlights_the_winner(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_showdown")
    lines = page.eval_on_selector_all(".result-line", "els => els.map(e => e.innerText)")
    assert lines == [
        "Pote principal: joao ganha 75 com Full house, damas e cincos",
        "Pote lateral 1: joao ganha 180 com Full house, damas e cincos",
    ]
    assert page.locator('[data-seat="3"].winner').count() == 1
    assert page.locator(".winner").count() == 1
    assert page.locator(".card.lifted").count() == 5  # the five cards that make the hand
    assert page.inner_text('[data-seat="5"] .seat-hand') == "Full house, noves e cincos"
    assert page.locator("[data-action]").count() == 0
    close(page)


def test_R_DR_05_draw_marks_at_most_three_discards(browser, static_url):
    page = open_fixture(browser, static_url, "draw_table")
    assert page.inner_text('[data-action="discard"]') == "Manter"
    for card in ("7d", "4c", "2s", "Kh"):
        page.click(f'.card-pick[data-card="{card}"]')
    picked = page.eval_on_selector_all(".card-pick.picked", "els => els.map(e => e.dataset.card)")
    assert picked == ["7d", "4c", "2s"]
    assert page.inner_text('[data-action="discard"]') == "Trocar 3"
    page.click('.card-pick[data-card="2s"]')
    assert page.inner_text('[data-action="discard"]') == "Trocar 2"
    page.click('[data-action="discard"]')
    frame = sent_frames(page)[-1]
    assert frame["action"] == "discard" and sorted(frame["cards"]) == ["4c", "7d"]
    assert page.inner_text('[data-seat="2"] .seat-last') == "Trocou 3"
    assert page.inner_text('[data-seat="0"] .seat-last') == "Manteve"
    close(page)


def test_english_switch_translates_the_table(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", lang="en")
    assert page.inner_text('[data-action="call"]') == "Call 80"
    assert page.inner_text('[data-action="fold"]') == "Fold"
    assert page.inner_text('[data-seat="1"] .seat-last') == "Bet 80"
    assert page.evaluate("localStorage.getItem('ahiko.lang')") == "en"
    page.click(".lang-switch")  # back to Portuguese, same connection, same hand
    assert page.inner_text('[data-action="call"]') == "Pagar 80"
    assert page.evaluate("localStorage.getItem('ahiko.lang')") == "pt-BR"
    assert sent_frames(page) == []
    close(page)


def test_phone_layout_keeps_every_seat_and_the_bar_on_screen(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    for seat in page.locator(".seat:not(.seat-empty) .seat-box").all():
        box = seat.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    bar = page.locator(".action-bar").bounding_box()
    assert bar["y"] + bar["height"] <= 812
    me = page.locator('[data-seat="3"] .seat-box').bounding_box()
    assert me["y"] + me["height"] <= bar["y"]
    close(page)


def test_aria_live_line_announces_actions(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    live = page.locator('[aria-live="polite"]')
    assert "Sua vez" in live.inner_text()
    time.sleep(0.05)
    close(page)


def test_R_RM_05_host_sala_menu_sends_start_pause_and_bot_commands(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.click('[data-open="room-menu"]')
    assert page.locator('[data-menu="pause"]').count() == 1  # running: pause, not start
    assert page.locator('[data-menu="start"]').count() == 0
    removable = page.eval_on_selector_all(
        '[data-menu="remove_bot"]', "e => e.map(x => x.dataset.seat)"
    )
    assert removable == ["1", "5"]  # only the bots
    page.select_option("#bot-level", "hard")
    page.click('[data-menu="add_bot"]')
    page.click('[data-open="room-menu"]')
    page.click('[data-menu="pause"]')
    page.click('[data-open="room-menu"]')
    page.click('[data-menu="remove_bot"][data-seat="5"]')
    sent = [{k: v for k, v in f.items() if k != "id"} for f in sent_frames(page)]
    assert sent == [
        {"t": "add_bot", "level": "hard"},
        {"t": "pause"},
        {"t": "remove_bot", "seat": 5},
    ]
    assert all(f["id"] for f in sent_frames(page))
    close(page)


def test_the_seat_to_act_shows_a_running_clock(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    clocks = page.eval_on_selector_all(
        ".clock", "els => els.map(e => e.closest('[data-seat]').dataset.seat)"
    )
    assert clocks == ["3"]
    assert page.get_attribute('[data-seat="3"] .clock', "role") == "timer"
    assert "to-act" in page.get_attribute('[data-seat="3"]', "class")
    close(page)


def test_a_spectator_sees_seat_0_at_the_bottom_and_empty_seats_to_take(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_room")
    boxes = {s: page.locator(f'[data-seat="{s}"]').bounding_box() for s in range(6)}
    assert max(boxes.values(), key=lambda b: b["y"]) == boxes[0]
    sit = page.eval_on_selector_all(".sit-btn", "els => els.map(e => e.innerText)")
    assert sit == ["Sentar"]  # seat 2 is the only empty one
    assert page.locator("[data-action]").count() == 0
    assert page.locator(".card:not(.card-back)").count() == 3  # the board only
    top = page.inner_text(".table-top")
    assert "null" not in top and "undefined" not in top
    close(page)


def test_R_FD_06_a_cancelled_hand_is_announced(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    page.evaluate(
        """window.fixture.push({t: "hand_cancelled", seq: 3, hand_no: 42, rule: "R-FD-06",
                                reason: "seat 4 left before the deal"})"""
    )
    assert page.inner_text(".table-status") == "Mão nº 42 cancelada antes das cartas"
    close(page)


def test_R_TN_04_tournament_results_table(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_showdown")
    page.evaluate(
        """window.fixture.push({t: "tournament_over", seq: 4, results: [
             {place: 1, player_id: "p3", name: "joao"}, {place: 2, player_id: "p5", name: "Robô Caio"},
             {place: 3, player_id: "p0", name: "Ana"}]})"""
    )
    rows = page.eval_on_selector_all(
        ".tournament-results tbody tr", "els => els.map(e => e.innerText.replace('\\t', ' '))"
    )
    assert rows == ["1 joao", "2 Robô Caio", "3 Ana"]
    close(page)


def test_pre_action_call_any_acts_when_the_turn_comes(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    page.evaluate(
        """() => {
            const hand = structuredClone(window.fixture.frames[2]);
            hand.view.to_act = 5; hand.view.legal = null; hand.deadline = {seat: 5, seconds_left: 9};
            window.fixture.push(hand);
        }"""
    )
    assert page.locator(".action-bar").is_hidden()
    page.check('[data-pre="call_any"]')
    assert page.locator('[data-pre="call_any"]').is_checked()
    page.evaluate(
        """() => { const hand = structuredClone(window.fixture.frames[2]); hand.seq = 4;
                   window.fixture.push(hand); }"""
    )
    assert sent_frames(page)[-1]["action"] == "call"
    assert page.locator(".pre-actions").is_hidden()
    close(page)
