"""The table after the new-player walkthrough (/tmp/ux/REPORT.md): each test names the report
item it covers, and runs at 1280×800 and 375×812 where the layout matters."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import LIVE_WAIT_MS, box, close, open_fixture, push, sent_frames

pytestmark = pytest.mark.browser

SIZES = {"1280": DESKTOP, "375": PHONE}


def frames(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.fixture.frames")


# --- 1. ghost seat --------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item1_after_leaving_the_seat_is_not_mine_and_the_seats_are_free(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_left", viewport=SIZES[size])
    # R-RM-14: the hand she left after ends on the felt as she played it, then she is gone.
    page.wait_for_selector(".seat.me", state="detached", timeout=LIVE_WAIT_MS)
    assert page.locator(".seat.me").count() == 0  # the last hand's viewer is not a seat now
    assert page.locator(".sit-btn").count() == 8  # 8 free seats
    assert page.locator('[data-control="reload"], [data-control="leave-now"]').count() == 0
    assert page.locator('[data-control="leave"], [data-control="stay"]').count() == 0
    assert page.inner_text(".seat-controls") == "Você está assistindo"
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_issue16_a_room_everyone_left_shows_no_finished_hand(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_left", viewport=SIZES[size])
    felt = page.locator(".felt")
    # The result has its few seconds on the felt (R-RM-14), then leaves it.
    page.wait_for_selector(".felt .seat-name", state="detached", timeout=LIVE_WAIT_MS)
    # no frozen showdown: no names, stacks, cards, hand names, results or dealer button
    assert felt.locator(".seat-name, .seat-stack, .card, .seat-hand, .marker").count() == 0
    assert page.locator(".results, .result-line, .dock-result-line").count() == 0
    assert page.locator(".board").evaluate("e => getComputedStyle(e).visibility") == "hidden"
    assert felt.locator(".seat-empty .sit-btn").count() == 8  # only the ways in
    assert page.inner_text(".table-status") == "Escolha um lugar vazio para jogar"
    close(page)


# --- 2. names of a finished hand -------------------------------------------------------------


def test_item2_a_finished_hand_keeps_the_names_after_everyone_left(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_left")
    # the felt is empty (issue 16), the hand's log still says who played it
    log = page.eval_on_selector_all(".log-lines li", "els => els.map(e => e.innerText)")
    assert "ana posta SB 1" in log and "Bot Ahiko: Passou" in log
    assert "Pote principal: ana ganha 4 com Full house, reis e dez" in log
    assert not [line for line in log if re.search(r"#\d", line)]
    close(page)


def test_item2_without_server_names_the_client_keeps_those_seated_at_the_deal(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_left", upto=2)
    push(
        page,
        "(() => { const h = structuredClone(window.fixture.frames[2]); delete h.names; return h; })()",
    )
    push(page, "window.fixture.frames[4]")  # everybody gone
    assert "Pote principal: ana ganha 4" in page.inner_text(".log-lines")
    assert "Bot Ahiko: Passou" in page.inner_text(".log-lines")
    close(page)


# --- N1 (second walkthrough): sitting again after leaving --------------------------------------

SAT_AGAIN = """(() => { const r = structuredClone(window.fixture.frames[0].room);
    r.seats = [{seat: 2, player_id: r.seats[0].player_id, name: "ana", stack: 120, is_bot: false,
                bot_level: null, connected: true, waiting: false, leaving: false},
               {...r.seats[1], leaving: false}];
    r.seats_taken = 2;
    return {t: "room", seq: 6, room: r}; })()"""


@pytest.mark.parametrize("size", SIZES)
def test_n1_after_sitting_again_i_appear_once(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_left", viewport=SIZES[size])
    push(page, SAT_AGAIN)  # ana left after the hand, then bought in again at seat 2
    names = page.eval_on_selector_all(".seat-name", "els => els.map(e => e.title)")
    assert sorted(names) == ["Bot Ahiko", "ana"]  # once each
    assert page.inner_text(".seat.me .seat-name") == "ana (Você)"
    assert page.locator('.seat.me[data-seat="2"]').count() == 1
    assert page.inner_text(".seat.me .seat-stack") == "120"
    # her old seat is empty again: no cards, no star, no hand's name, no dealer button
    old = page.locator('[data-seat="0"]')
    assert "seat-empty" in (old.get_attribute("class") or "")
    assert old.locator(".card, .marker, .seat-hand, .seat-name").count() == 0
    # the Bot Ahiko never left: still the last hand's seat, cards and hand's name
    assert page.locator('[data-seat="4"] .seat-hand').inner_text() == "Par de dez"
    # the finished hand's words still say who played it
    assert page.inner_text(".result-line") == (
        "Pote principal: ana ganha 4 com Full house, reis e dez"
    )
    log = page.eval_on_selector_all(".log-lines li", "els => els.map(e => e.textContent)")
    assert "ana posta SB 1" in log
    close(page)


def test_n1_someone_else_in_a_last_hand_seat_is_not_given_that_hand(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_left")
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
            r.seats = [{...r.seats[0], player_id: "p9", name: "bia", stack: 180, leaving: false},
                       {...r.seats[1], leaving: false}];
            r.seats_taken = 2;
            return {t: "room", seq: 6, room: r}; })()""",
    )
    seat = page.locator('[data-seat="0"]')
    assert seat.locator(".seat-name").inner_text() == "bia"
    assert seat.locator(".seat-stack").inner_text() == "180"
    assert "winner" not in (seat.get_attribute("class") or "")
    assert seat.locator(".card, .marker, .seat-hand").count() == 0
    assert page.inner_text(".result-line").startswith("Pote principal: ana ganha 4")
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_R_RM_14_n1_a_seat_left_after_the_hand_shows_its_result_then_offers_sentar(
    browser, static_url, size
):
    page = open_fixture(browser, static_url, "ahiko_left", viewport=SIZES[size], upto=4)
    push(page, BOT_STAYED)  # ana was paid out and left; the Bot Ahiko still sits
    page.route(
        "**/api/wallet",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body='{"balance": 500, "claims": []}'
        ),
    )
    seat = page.locator('[data-seat="0"]')
    # R-RM-14: the hand she left after ends on the felt as she played it, for the usual few
    # seconds, without a way in over her own result.
    assert "winner" in (seat.get_attribute("class") or "")
    assert "last-hand" not in (seat.get_attribute("class") or "")
    assert seat.locator(".sit-btn").count() == 0
    page.wait_for_selector(
        '[data-seat="0"] .sit-btn', timeout=LIVE_WAIT_MS
    )  # then her seat empties
    button = seat.locator(".sit-btn")
    assert button.is_visible()
    assert button.evaluate("e => Number(getComputedStyle(e).opacity)") == 1
    # the button is on top of the faded seat: a click reaches it, and opens that seat's buy-in
    button.click()
    page.wait_for_selector(".buyin-dialog")
    close(page)


BOT_STAYED = """(() => { const r = structuredClone(window.fixture.frames[0].room);
    r.seats = [{...r.seats[1], leaving: false}];
    r.seats_taken = 1;
    return {t: "room", seq: 6, room: r}; })()"""


# --- 3. the turn clock -----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item3_my_turn_shows_a_countdown(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=SIZES[size])
    # 14 s were left when the frame came; a loaded machine may take a second to draw it
    assert page.inner_text(".act-timer") in ("Seu tempo: 14 s", "Seu tempo: 13 s")
    assert page.inner_text('[data-seat="3"] .clock-secs') in ("14 s", "13 s")
    assert page.locator(".act-timer").is_visible()
    page.wait_for_function(
        "() => document.querySelector('.act-timer').textContent === 'Seu tempo: 12 s'",
        timeout=4000,
    )
    close(page)


def test_item3_a_frame_without_my_clock_still_counts_the_rooms_time(browser, static_url):
    """An older server sends no deadline on your own turn: the room's 20 s are shown."""
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    push(
        page,
        "(() => { const h = structuredClone(window.fixture.frames[2]); h.deadline = null; return h; })()",
    )
    assert page.inner_text(".act-timer") == "Seu tempo: 20 s"
    assert page.locator('[data-seat="3"] .clock').count() == 1
    close(page)


def test_item3_the_clock_is_the_seat_to_act(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    push(
        page,
        """(() => { const h = structuredClone(window.fixture.frames[2]);
                    h.view.to_act = 5; h.view.legal = null;
                    h.deadline = {seat: 5, seconds_left: 9}; return h; })()""",
    )
    clocks = page.eval_on_selector_all(
        ".clock", "els => els.map(e => e.closest('[data-seat]').dataset.seat)"
    )
    assert clocks == ["5"]
    assert page.inner_text('[data-seat="5"] .clock-secs') == "9 s"
    assert page.locator(".act-timer").count() == 0
    close(page)


# --- 5. language switch -----------------------------------------------------------------------


def test_item5_switching_language_relabels_what_was_built_once(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    assert page.inner_text(".hand-log summary") == "Histórico da mão"
    page.click(".lang-switch")
    assert page.inner_text(".hand-log summary") == "Hand log"
    assert page.get_attribute(".action-bar", "aria-label") == "Your actions"
    assert page.get_attribute(".felt", "aria-label") == "Board"
    assert "Q, 5, 5" not in page.inner_text(".log-lines")
    assert "Flop: queen of hearts" in page.inner_text(".log-lines")
    assert sent_frames(page) == []
    close(page)


def test_item5_a_phone_can_switch_language_at_the_table(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=PHONE)
    switch = page.locator(".lang-switch")
    assert switch.is_visible()
    assert switch.inner_text() == "EN"
    assert switch.get_attribute("aria-label") == "Mudar o idioma para inglês"
    top = box(page, ".table-top")
    sw = switch.bounding_box()
    assert sw["x"] + sw["width"] <= 375 and sw["y"] + sw["height"] <= top["y"] + top["height"]
    switch.click()
    assert page.inner_text('[data-action="fold"]') == "Fold"
    assert page.locator(".lang-switch").inner_text() == "PT"
    close(page)


# --- 6. toasts and bot names ----------------------------------------------------------------


def test_item6_known_error_codes_read_in_the_players_language(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_room_seated", lang="en")
    push(
        page,
        {
            "t": "error",
            "seq": 3,
            "id": "x",
            "code": "not_seated",
            "rule": "R-RM-01",
            "message": "1 has no seat here (R-RM-01)",
        },
    )
    assert page.inner_text(".toast") == "You have no seat at this table."
    push(
        page,
        {
            "t": "error",
            "seq": 3,
            "id": "y",
            "code": "brand_new",
            "rule": "R-XX-09",
            "message": "something odd (R-XX-09)",
        },
    )
    assert page.inner_text(".toast") == "something odd"  # unknown code: the words, no rule id
    close(page)


def test_item6_a_notice_is_information_not_an_error(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_waiting")
    push(
        page,
        {
            "t": "notice",
            "seq": 1,
            "code": "bot_reserve_unavailable",
            "rule": "R-BA-02",
            "message": "reserve empty",
        },
    )
    assert page.get_attribute(".toast", "data-kind") == "info"
    assert page.inner_text(".toast") == (  # R-BA-02, the original's words
        "A reserva do Bot Ahiko está indisponível: aguarde outra pessoa ou levante para "
        "receber seu saldo."
    )
    close(page)


def test_item6_bots_are_named_without_the_english_level_and_get_a_badge(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=PHONE)
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
                    r.seats[1].name = "Bot 1 (hard)"; r.seats[1].bot_level = "hard";
                    return {t: "room", seq: 4, room: r}; })()""",
    )
    assert page.inner_text('[data-seat="1"] .seat-name').strip().endswith("Bot 1")
    assert page.inner_text('[data-seat="1"] .badge-bot') == "Bot Difícil"
    name = page.locator('[data-seat="1"] .seat-name')
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth")  # not cut short
    close(page)


# --- 7. pot total -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item7_the_pot_total_counts_the_bets_out(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=SIZES[size])
    assert page.inner_text(".pot-total") == "Pote total: 335"  # 75 + 180 + the bet of 80
    assert page.locator(".pot-total").is_visible()
    close(page)
    page = open_fixture(browser, static_url, "holdem_showdown")
    assert page.locator(".pot-total").is_hidden()  # awarded: nothing left to size
    assert page.inner_text(".pot-total") == ""
    close(page)


# --- 9. the table stands still; the buttons keep their places --------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item9_the_table_does_not_move_when_my_turn_starts_or_ends(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=SIZES[size], upto=2)
    waiting = """(() => { const h = structuredClone(window.fixture.frames[2]);
                          h.view.to_act = 5; h.view.legal = null;
                          h.deadline = {seat: 5, seconds_left: 9}; return h; })()"""
    push(page, waiting)
    assert page.locator(".action-bar").is_hidden()
    before = [box(page, s) for s in (".felt", '[data-seat="3"] .seat-box', ".board")]
    push(page, "window.fixture.frames[2]")  # my turn
    assert page.locator(".action-bar").is_visible()
    during = [box(page, s) for s in (".felt", '[data-seat="3"] .seat-box', ".board")]
    assert during == before
    bar = box(page, ".action-bar")
    assert bar["y"] + bar["height"] <= SIZES[size]["height"]
    page.click('[data-action="call"]')
    push(page, waiting)
    assert [box(page, s) for s in (".felt", '[data-seat="3"] .seat-box', ".board")] == before
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_item9_buttons_keep_fixed_slots_from_turn_to_turn(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=SIZES[size])
    facing = {a: box(page, f'[data-action="{a}"]') for a in ("fold", "call", "raise", "allin")}
    push(
        page,
        """(() => { const h = structuredClone(window.fixture.frames[2]); h.seq = 4;
                    h.view.legal = {...h.view.legal, can_check: true, call_cost: 0,
                                    bet_kind: "bet", min_to: 20, max_to: 940};
                    return h; })()""",
    )
    checking = {a: box(page, f'[data-action="{a}"]') for a in ("fold", "check", "bet", "allin")}
    assert checking["fold"] == facing["fold"]
    assert checking["check"] == facing["call"]  # "Passar" lands where "Pagar" was
    assert checking["bet"] == facing["raise"]
    assert checking["allin"] == facing["allin"]
    # a turn with only fold / call / all-in leaves the raise slot empty, nothing shifts
    push(
        page,
        """(() => { const h = structuredClone(window.fixture.frames[2]); h.seq = 5;
                    h.view.legal = {...h.view.legal, min_to: 940, max_to: 940}; return h; })()""",
    )
    assert page.locator('[data-action="raise"]').count() == 0
    assert box(page, '[data-action="fold"]') == facing["fold"]
    assert box(page, '[data-action="call"]') == facing["call"]
    assert box(page, '[data-action="allin"]') == facing["allin"]
    close(page)


# --- 10, 11. nothing drawn over anything ------------------------------------------------------

OVERLAPS = r"""() => {
  const R = (e) => e.getBoundingClientRect();
  const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  const seatOf = (e) => e.closest('[data-seat]')?.dataset.seat ?? e.dataset.betSeat ?? '-';
  const name = (e) => `${(e.className.baseVal ?? e.className).split(' ')[0]}@${seatOf(e)}`;
  const visible = (sel) => [...document.querySelectorAll(sel)].filter((e) => {
    const r = R(e); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  });
  const out = [];
  const pairs = (a, b, same) => { for (const x of a) for (const y of b) {
    if (x === y || (same && seatOf(x) === seatOf(y))) continue;
    if (hit(R(x), R(y))) out.push(`${name(x)} x ${name(y)}`);
  } };
  const bets = visible('.bet'), boxes = visible('.seat-box'), cards = visible('.seat-cards .card');
  const centre = visible('.board .card, .pot, .pot-total, .results');
  pairs(bets, [...bets, ...boxes, ...cards, ...visible('.marker'), ...centre], true);
  pairs(boxes, [...boxes, ...cards], true);
  pairs([...boxes, ...cards, ...visible('.seat-hand')], centre, false);
  const top = R(document.querySelector('.table-top')).bottom;
  for (const e of [...boxes, ...cards]) { const r = R(e);
    if (r.left < 0 || r.right > innerWidth || r.top < top - 1) out.push(`off-screen ${name(e)}`); }
  return [...new Set(out)];
}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "fixture", ["holdem_midhand", "holdem_full", "holdem_showdown", "ahiko_left", "draw_table"]
)
def test_items10_11_seats_bets_cards_and_results_never_cover_each_other(
    browser, static_url, fixture, size
):
    page = open_fixture(browser, static_url, fixture, viewport=SIZES[size])
    assert page.evaluate(OVERLAPS) == []
    close(page)


def crowded_table(seats: int, showdown: bool) -> list[dict[str, Any]]:
    """Every seat taken and betting (or every hand shown), a five-card board, two pots."""
    me = 0
    room = {
        "id": "crowd",
        "name": "Mesa cheia",
        "kind": "recreational",
        "status": "running",
        "host_id": "p0",
        "blinds": {"small_blind": 10, "big_blind": 20},
        "seats_total": seats,
        "action_deadline_s": 20.0,
        "hand_no": 3,
        "seats": [
            {
                "seat": s,
                "player_id": f"p{s}",
                "name": f"Jogador {s}",
                "stack": 880,
                "is_bot": s % 2 == 1,
                "bot_level": "hard" if s % 2 else None,
            }
            for s in range(seats)
        ],
    }
    snapshot = {
        "t": "snapshot",
        "seq": 1,
        "you": {"player_id": "p0", "seat": me, "host": True},
        "room": room,
        "hand": None,
        "last_hand": None,
    }
    button = 3 % seats
    history: list[dict[str, Any]] = [
        {"kind": "hand_started", "hand_no": 3, "button": button, "dealt_seats": list(range(seats))},
        {"kind": "blind_posted", "seat": 4 % seats, "amount": 10, "blind": "sb"},
        {"kind": "blind_posted", "seat": 5 % seats, "amount": 20, "blind": "bb"},
    ]
    if showdown:
        history += [
            {"kind": "cards_shown", "seat": s, "cards": ["9h", "9c"]} for s in range(1, seats)
        ]
        history += [
            {
                "kind": "pot_awarded",
                "index": i,
                "amount": 300,
                "winners": [w],
                "shares": {str(w): 300},
                "hand_names": {str(w): {"pt-BR": name, "en": name}},
            }
            for i, (w, name) in enumerate([(0, "Trinca de damas"), (1, "Par de noves")])
        ]
    view = {
        "variant": "holdem",
        "viewer": me,
        "street": "over" if showdown else "river",
        "button": button,
        "seats": [
            {
                "seat": s,
                "stack": 880,
                "bet": 0 if showdown or s == me else 120,
                "status": "active",
                "last_action": None if showdown else {"kind": "raise", "amount": 120},
                "cards": ["Qd", "Qs"] if s == me else (["9h", "9c"] if showdown else None),
                "card_count": 2,
            }
            for s in range(seats)
        ],
        "board": ["Ah", "Kd", "Tc", "7s", "2d"],
        "pots": [{"amount": 400}, {"amount": 300}],
        "to_act": None if showdown else 3 % seats,
        "legal": None,
        "history": history,
    }
    hand = {"t": "hand", "seq": 2, "hand_no": 3, "events": [], "view": view, "openings": []}
    hand["deadline"] = None if showdown else {"seat": 3 % seats, "seconds_left": 12}
    return [snapshot, hand]


@pytest.mark.parametrize("size", SIZES)
def test_item11_every_table_size_from_two_to_nine_seats_stays_clear(browser, static_url, size):
    page = open_fixture(browser, static_url, "host_waiting", viewport=SIZES[size])
    found = {}
    for seats in range(2, 10):
        for showdown in (False, True):
            for frame in crowded_table(seats, showdown):
                push(page, frame)
            overlaps = page.evaluate(OVERLAPS)
            if overlaps:
                found[(seats, showdown)] = overlaps
    assert found == {}
    close(page)


@pytest.mark.parametrize("size", SIZES)
def test_item10_the_top_seats_cards_stay_under_the_top_bar(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_left", viewport=SIZES[size], upto=3)
    top_bar = box(page, ".table-top")
    cards = box(page, '[data-seat="4"] .seat-cards .card')
    assert cards["y"] >= top_bar["y"] + top_bar["height"]
    close(page)


def test_item11_three_handed_phone_bets_and_button_apart(browser, static_url):
    """The report's m20: SB 10 beside Bot 2's 50, the D button on top of it."""
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=PHONE, upto=1)
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
                    r.seats = r.seats.filter(s => [0, 1, 3].includes(s.seat));
                    return {t: "room", seq: 2, room: r}; })()""",
    )
    push(
        page,
        """(() => { const h = structuredClone(window.fixture.frames[2]);
                    h.view.seats = h.view.seats.filter(s => [0, 1, 3].includes(s.seat));
                    h.view.button = 1; h.view.street = "preflop"; h.view.board = [];
                    h.view.pots = [];
                    h.view.seats[0].bet = 10; h.view.seats[1].bet = 50; h.view.seats[2].bet = 20;
                    h.view.seats[1].last_action = {kind: "raise", amount: 50};
                    h.events = h.events.slice(0, 3); h.openings = h.openings.slice(0, 2);
                    return h; })()""",
    )
    assert page.locator(".bet").count() == 3
    assert page.evaluate(OVERLAPS) == []
    close(page)


def test_item11_phone_results_are_read_under_the_felt(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_showdown", viewport=PHONE)
    dock = page.locator(".dock-result-line")
    assert dock.count() == 2 and dock.first.is_visible()
    assert dock.first.inner_text().startswith("Pote principal: joao ganha 75")
    felt = box(page, ".felt-wrap")
    assert box(page, ".dock-results")["y"] >= felt["y"] + felt["height"]
    close(page)


# --- 12. the waiting Ahiko room -----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item12_a_lone_player_is_told_the_bot_ahiko_is_coming(browser, static_url, size):
    page = open_fixture(browser, static_url, "ahiko_waiting", viewport=SIZES[size])
    status = page.locator(".table-status")
    assert status.is_visible()
    waiting, bot = status.inner_text().split("\n")
    assert waiting == "Aguardando adversário…"
    assert bot in ("O Bot Ahiko entra em 20 s", "O Bot Ahiko entra em 19 s")  # a loaded machine
    page.wait_for_function(
        "() => document.querySelector('.bot-ahiko').textContent === 'O Bot Ahiko entra em 19 s'",
        timeout=3000,
    )
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
                    r.seats.push({seat: 4, player_id: "bot-ahiko", name: "Bot Ahiko", stack: 150,
                                  is_bot: true, bot_level: "normal", connected: true,
                                  waiting: false, leaving: false});
                    return {t: "room", seq: 2, room: r}; })()""",
    )
    push(page, {"t": "countdown", "seq": 3, "countdowns": {"next_hand": 8.0}})
    assert page.inner_text(".table-status") == "Próxima mão em 8 s"
    assert page.locator('[data-seat="4"] .badge-bot').inner_text() == "Bot Normal"
    name = page.locator('[data-seat="4"] .seat-name')
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth")  # "Bot Ahiko" in full
    push(page, "window.fixture.frames[0]")  # a hand is committed: the banner speaks now
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
                    r.seats.push({seat: 4, player_id: "bot-ahiko", name: "Bot Ahiko", stack: 150,
                                  is_bot: true, bot_level: "normal", connected: true});
                    return {t: "room", seq: 2, room: r}; })()""",
    )
    push(
        page,
        """({t: "commitment", seq: 3, hand_no: 1, cards_in_s: 2,
             commitment: {v: "pokerfair/1", table_id: "iniciante-1", hand_no: 1,
                          digest: "cd".repeat(32), layout: "holdem-noburn-v1"}})""",
    )
    assert page.locator(".table-status").count() == 0
    assert page.locator(".commit-banner").is_visible()
    close(page)


# --- 13. the host's checklist -----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item13_host_checklist_sits_adds_bots_and_starts(browser, static_url, size):
    page = open_fixture(browser, static_url, "host_waiting", viewport=SIZES[size])
    checklist = page.locator(".host-checklist")
    assert checklist.is_visible()
    assert page.locator('[data-host="start"]').is_disabled()
    page.click('[data-host="sit"]')
    page.select_option(".host-bot-level", "hard")
    page.click('[data-host="add_bot"]')
    sent = [{k: v for k, v in f.items() if k != "id"} for f in sent_frames(page)]
    assert sent == [{"t": "sit", "seat": 0}, {"t": "add_bot", "level": "hard"}]
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
                    r.seats = [
                      {seat: 0, player_id: "p0", name: "Ana", stack: 1000, is_bot: false,
                       connected: true},
                      {seat: 1, player_id: "bot-1", name: "Bot 1", stack: 1000, is_bot: true,
                       bot_level: "hard", connected: true}];
                    return {t: "room", seq: 2, room: r}; })()""",
    )
    steps = page.eval_on_selector_all(".host-step", "els => els.map(e => e.className)")
    assert steps == ["host-step done", "host-step done", "host-step"]
    assert page.input_value(".host-bot-level") == "hard"  # kept across the re-render
    page.click('[data-host="start"]')
    assert sent_frames(page)[-1]["t"] == "start"
    dock = box(page, ".bottom-dock")
    assert dock["y"] + dock["height"] <= SIZES[size]["height"] + 1
    close(page)


def test_item13_no_checklist_once_the_room_runs_or_for_guests(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    assert page.locator(".host-checklist").count() == 0
    close(page)


# --- 14. the previous hand's proof ------------------------------------------------------------


def _next_commitment(page: Any) -> None:
    push(
        page,
        """(() => { const c = structuredClone(window.fixture.frames[1]); c.seq = 4;
                    c.hand_no = 43; c.commitment.hand_no = 43;
                    c.commitment.digest = "ab".repeat(32); return c; })()""",
    )


def test_item14_the_last_hand_stays_checkable_when_the_next_is_committed(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_showdown")
    _next_commitment(page)
    assert page.locator('[data-open="verify"]').is_visible()
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    assert page.get_attribute(".verify-body .verify-proof", "data-hand") == "42"
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    assert page.locator(".verify-row").count() == 11
    assert page.get_attribute(".verify-timing", "data-before") == "true"
    assert page.locator('[data-verify="download"]').is_visible()
    close(page)


def test_item14_an_open_dialog_keeps_its_hand_while_the_next_one_starts(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    _next_commitment(page)
    assert page.locator("dialog.verify-dialog[open]").count() == 1
    assert page.get_attribute(".verify-summary", "data-ok") == "true"
    assert page.locator(".verify-row").count() == 5
    page.click('[data-verify="close"]')
    close(page)


def test_item14_with_both_hands_the_dialog_offers_the_choice(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_showdown")
    _next_commitment(page)
    # the new hand deals: this browser gets a card of it
    push(
        page,
        """(() => { const h = structuredClone(window.fixture.frames[2]); h.seq = 5;
                    h.hand_no = 43; h.view.street = "preflop"; h.view.board = [];
                    h.view.history = undefined; h.events = [];
                    h.openings = [{...h.openings[0], position: 99}]; return h; })()""",
    )
    page.click('[data-open="verify"]')
    choices = page.eval_on_selector_all(".verify-choice", "els => els.map(e => e.innerText)")
    assert choices == ["Mão nº 43 (atual)", "Mão nº 42 (anterior)"]
    page.click('.verify-choice[data-current="false"]')
    page.wait_for_selector('.verify-proof[data-hand="42"] .verify-summary[data-ok="true"]')
    close(page)


def test_item14_21_nothing_to_check_no_button(browser, static_url):
    """A hand cancelled before its cards (R-FD-06) has nothing to check."""
    page = open_fixture(browser, static_url, "holdem_midhand", upto=2)
    push(
        page,
        {
            "t": "hand_cancelled",
            "seq": 3,
            "hand_no": 42,
            "rule": "R-FD-06",
            "reason": "seat 4 left before the deal",
        },
    )
    assert page.locator('[data-open="verify"]').count() == 0
    assert page.get_attribute(".toast", "data-kind") == "info"
    close(page)


# --- 16. the "10" glyph -----------------------------------------------------------------------


def test_item16_the_ten_has_room_for_both_digits(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_full")
    gap = page.evaluate(
        """() => { const t = document.querySelector('.card[data-card="Td"] text');
                   const one = t.getExtentOfChar(0), zero = t.getExtentOfChar(1);
                   return {gap: zero.x - (one.x + one.width), right: zero.x + zero.width}; }"""
    )
    assert gap["gap"] >= -0.5  # the "1" ends before the "0" starts
    assert gap["right"] <= 31  # inside the corner, clear of the small suit
    back = page.locator(".card-back").first
    assert back.locator("path").count() == 0  # no diamond on the back
    close(page)


# --- 17. mucked hands -------------------------------------------------------------------------


def test_item17_a_mucked_hand_is_dimmed_and_says_so(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_mucked")
    seat = page.locator('[data-seat="5"]')
    assert "mucked" in seat.get_attribute("class")
    assert seat.locator(".seat-last").inner_text() == "Não mostrou"
    opacity = seat.locator(".card").first.evaluate("e => Number(getComputedStyle(e).opacity)")
    assert opacity < 0.6
    live = page.locator('[data-seat="4"] .card').first.evaluate(
        "e => Number(getComputedStyle(e).opacity)"
    )
    assert live == 1
    close(page)


# --- 18. a raise below the minimum ------------------------------------------------------------


def test_item18_a_raise_below_the_minimum_is_said_not_silently_changed(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.keyboard.press("r")
    page.keyboard.type("77")
    assert page.inner_text(".act-hint") == "O mínimo é 160"
    assert page.locator('[data-action="raise"]').is_disabled()
    assert page.get_attribute(".amount-box", "aria-invalid") == "true"
    page.keyboard.press("Enter")
    assert sent_frames(page) == []  # corrected and shown first
    assert page.input_value(".amount-box") == "160"
    assert page.inner_text(".act-hint") == "Abaixo do mínimo: ajustado para 160"
    assert page.inner_text('[data-action="raise"]').replace("\n", " ") == "Aumentar para 160"
    page.keyboard.press("Enter")
    frame = sent_frames(page)[-1]
    assert (frame["action"], frame["amount"]) == ("raise", 160)
    close(page)


# --- N8 (second walkthrough): the keyboard after the amount box ------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_n8_tab_from_the_amount_goes_to_raise_and_enter_raises(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=SIZES[size])
    page.keyboard.press("r")
    page.keyboard.type("77")
    page.keyboard.press("Tab")  # leaving the box settles the amount and lands on its button
    assert page.evaluate("document.activeElement.dataset.action") == "raise"
    assert page.input_value(".amount-box") == "160"
    assert page.inner_text(".act-hint") == "Abaixo do mínimo: ajustado para 160"
    assert page.inner_text('[data-action="raise"]').replace("\n", " ") == "Aumentar para 160"
    assert sent_frames(page) == []
    page.keyboard.press("Enter")
    frames_sent = sent_frames(page)
    assert len(frames_sent) == 1
    assert (frames_sent[0]["action"], frames_sent[0]["amount"]) == ("raise", 160)
    close(page)


def test_n8_tab_with_a_legal_amount_and_enter_in_the_box_never_fold(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.keyboard.press("r")
    page.keyboard.type("200")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "raise"
    assert page.inner_text(".act-hint") == ""
    page.keyboard.press("Shift+Tab")  # left alone: fold and call stay reachable backwards
    assert page.evaluate("document.activeElement.dataset.action") == "call"
    page.keyboard.press("r")  # back into the box, where Enter sends the amount
    assert page.evaluate("document.activeElement.className") == "amount-box"
    page.keyboard.press("Enter")
    assert [(f["action"], f["amount"]) for f in sent_frames(page)] == [("raise", 200)]
    close(page)


# --- 19. "Sair após esta mão" can be taken back -----------------------------------------------


def test_item19_leave_after_this_hand_can_be_undone(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_room_seated")
    calls: list[str] = []

    def answer(route):  # type: ignore[no-untyped-def]
        calls.append(route.request.post_data or "")
        route.fulfill(status=200, content_type="application/json", body='{"after_hand": true}')

    page.route("**/api/ahiko/rooms/*/leave", answer)
    page.click('[data-control="leave"]')
    for _ in range(50):
        if calls:
            break
        page.wait_for_timeout(20)
    assert calls and '"after_hand":true' in calls[0].replace(" ", "")
    push(
        page,
        """(() => { const r = structuredClone(window.fixture.frames[0].room);
                    r.seats.find(s => s.seat === 3).leaving = true;
                    return {t: "room", seq: 4, room: r}; })()""",
    )
    assert page.inner_text(".leaving-note") == "Você sai após esta mão"
    page.click('[data-control="stay"]')
    frame = sent_frames(page)[-1]
    assert {k: frame[k] for k in ("t", "on")} == {"t": "leave_after_hand", "on": False}
    close(page)


# --- 21. a closed room ------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_item21_a_closed_room_is_news_and_offers_only_the_way_out(browser, static_url, size):
    page = open_fixture(browser, static_url, "holdem_midhand", viewport=SIZES[size])
    push(page, {"t": "closed", "seq": 4, "reason": "host", "stacks": {}})
    assert page.get_attribute(".toast", "data-kind") == "info"
    assert page.inner_text(".toast") == "O anfitrião fechou a sala. Obrigado por jogar!"
    assert page.locator('[data-open="room-menu"]').count() == 0
    assert page.locator("[data-action], .pre-actions:not([hidden]), .sit-btn").count() == 0
    assert page.locator('[data-control="leave"]').count() == 0
    assert page.locator('[data-control="lobby"]').is_visible()
    assert page.inner_text(".table-status") == "Sala fechada"
    close(page)


# --- 22. the proof's file name ----------------------------------------------------------------


def test_item22_the_table_saves_the_proof_under_the_my_hands_name(browser, static_url):
    page = open_fixture(browser, static_url, "holdem_midhand")
    page.click('[data-open="verify"]')
    page.wait_for_selector(".verify-summary[data-ok]", timeout=LIVE_WAIT_MS)
    with page.expect_download() as info:
        page.click('[data-verify="download"]')
    assert info.value.suggested_filename == "ahiko-fixture-hand42-proof.json"
    close(page)
