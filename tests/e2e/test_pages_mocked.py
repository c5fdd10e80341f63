"""Pages driven with the API answered by the test (Playwright routes): "Minhas mãos" in the
shapes of docs/hands-api.md, and Ahiko rooms' buy-in. The live counterpart of "Minhas mãos"
is tests/e2e/test_my_hands_live.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from .conftest import DESKTOP, open_page, screenshot
from .frames import holdem_showdown
from .helpers import LIVE_WAIT_MS, close, open_fixture

pytestmark = pytest.mark.browser

SHOWDOWN_EVENTS = next(f for f in holdem_showdown() if f["t"] == "hand")["events"]
HAND = {  # GET /api/hands/{id}?format=json
    "id": 42,
    "hand_no": 7,
    "room_id": "r1",
    "room_name": "Mesa da Ana",
    "room_kind": "recreational",
    "variant": "holdem",
    "seat_count": 6,
    "viewer": 3,
    "players": [
        {"seat": s, "name": n, "bot": s == 4}
        for s, n in [(0, "Ana"), (1, "Rita"), (3, "joao"), (4, "Bruno"), (5, "Caio")]
    ],
    "started_at": "2026-11-29T20:59:00+00:00",
    "ended_at": "2026-11-29T21:00:00+00:00",
    "events": [
        {**SHOWDOWN_EVENTS[0], "seats": [0, 1, 3, 4, 5], "stacks": [1000, 1000, 1000, 15, 1000]},
        {"kind": "hole_dealt", "seat": 3, "cards": ["Qd", "Qs"], "positions": [2, 7]},
        *SHOWDOWN_EVENTS[1:],
    ],
}


Answer = Any | Callable[[dict[str, str]], Any]


def mocked_app(
    browser: Any,
    base: str,
    routes: dict[str, Answer],
    viewport: dict[str, int] = DESKTOP,
    lang: str | None = None,
    signed_in: bool = True,
    **context_args: Any,
) -> Any:
    """A page whose /api/* calls get ``routes[path]`` (or ``routes[path](query)``), else 404."""
    page = open_page(browser, viewport, **context_args)
    if signed_in:
        page.context.add_init_script("localStorage.setItem('ahiko.signedIn', '1')")
    if lang:
        page.context.add_init_script(f"localStorage.setItem('ahiko.lang', '{lang}')")

    def answer(route: Any) -> None:
        url = urlsplit(route.request.url)
        found = routes.get(url.path, ALWAYS.get(url.path))
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        body = found(query) if callable(found) else found
        if body is None:
            route.fulfill(
                status=404,
                content_type="application/json",
                body=json.dumps({"error": "not_found", "message": url.path}),
            )
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/api/**", answer)
    return page


# What every signed-in page may ask besides its own routes: the lobby's leaderboard (issue 20).
ALWAYS: dict[str, Any] = {
    "/api/leaderboards": {"board": "ahiko", "period": "week", "rows": [], "me": None}
}


def hand_page(query: dict[str, str]) -> dict[str, Any]:
    """GET /api/hands: 25 hands, newest (id 42) first."""
    page, per_page = int(query.get("page", "1")), int(query.get("per_page", "20"))
    ids = list(range(42, 17, -1))[(page - 1) * per_page : page * per_page]
    return {
        "page": page,
        "per_page": per_page,
        "total": 25,
        "pages": -(-25 // per_page),
        "hands": [
            {
                "id": i,
                "room_id": "r1",
                "room_name": "Mesa da Ana",
                "room_kind": "recreational",
                "variant": "holdem",
                "hand_no": i - 35,
                "seat": 3,
                "net": 195 if i == 42 else -10,
                "started_at": "2026-11-29T20:59:00+00:00",
                "ended_at": "2026-11-29T21:00:00+00:00",
            }
            for i in ids
        ],
    }


def test_R_RM_18_my_hands_pages_downloads_and_replays_a_hand_step_by_step(browser, static_url):
    page = mocked_app(
        browser,
        static_url,
        {
            "/api/me": {"id": 1, "username": "joao", "wallet": 900},
            "/api/hands": hand_page,
            "/api/hands/42": HAND,
        },
    )
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    assert page.locator("tbody tr").count() == 20
    assert page.inner_text(".pager-page") == "Página 1 de 2"
    assert page.is_disabled('[data-pager="newer"]')
    page.click('[data-pager="older"]')
    page.wait_for_selector('tr[data-hand="18"]')
    assert page.locator("tbody tr").count() == 5
    assert page.inner_text(".pager-page") == "Página 2 de 2"
    page.click('[data-pager="newer"]')
    page.wait_for_selector('tr[data-hand="42"]')
    first = 'tr[data-hand="42"]'
    assert page.inner_text(f"{first} td.num") == "+195"
    formats = page.eval_on_selector_all(
        f"{first} [data-format]", "els => els.map(e => e.dataset.format)"
    )
    assert formats == ["pokerstars", "phh", "proof"]
    hrefs = {f: page.get_attribute(f'{first} [data-format="{f}"]', "href") for f in formats}
    assert hrefs == {
        "pokerstars": "/api/hands/42?format=pokerstars",
        "phh": "/api/hands/42?format=phh",
        "proof": "/api/hands/42/proof",
    }
    page.click(f'{first} [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    assert page.inner_text(".replayer h2") == "Mesa da Ana · Mão nº 7"
    assert page.inner_text(".replay-step") == f"Passo 1 de {len(HAND['events']) - 1}"
    assert page.locator('.replayer [data-seat="3"] .card[data-card="Qd"]').count() == 0
    page.click('[data-replay="next"]')
    page.click('[data-replay="next"]')
    page.click('[data-replay="next"]')
    assert page.locator('.replayer [data-seat="3"] .card[data-card="Qd"]').count() == 1
    page.click('[data-replay="last"]')
    assert "joao ganha 75" in page.inner_text(".replayer .results")
    assert page.locator(".replayer .board .card").count() == 5
    close(page)


def capture_posts(page: Any, answer: dict[str, Any]) -> list[tuple[str, Any]]:
    posts: list[tuple[str, Any]] = []

    def handle(route: Any) -> None:
        request = route.request
        if request.method == "GET":  # the buy-in range (issue 19): answered by open_fixture
            route.fallback()
            return
        posts.append((request.url.split("/api/", 1)[1], request.post_data_json))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route("**/api/ahiko/**", handle)
    return posts


def test_R_RM_12_ahiko_buy_in_confirms_the_amount_leaving_the_wallet(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_room")
    page.route(
        "**/api/wallet",
        lambda r: r.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"balance": 750, "in_seats": 0, "total": 750}),
        ),
    )
    posts = capture_posts(page, {"seat": 2, "reserved": True})
    page.click('[data-seat="2"] .sit-btn')
    page.wait_for_selector(".buyin-dialog")
    assert page.get_attribute("#buyin-amount", "min") == "100"  # R-RM-10 Iniciante 100–200
    assert page.get_attribute("#buyin-amount", "max") == "200"
    page.fill("#buyin-amount", "150")
    page.dispatch_event("#buyin-amount", "input")
    assert page.inner_text(".buyin-leaves") == "150 moedas sairão da sua carteira (saldo 750)."
    assert "reservado" in page.inner_text(".buyin-dialog")  # R-RM-16: a hand is under way
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".buyin-dialog", state="detached")
    ((path, body),) = posts
    assert path == "ahiko/rooms/fixture/buy_in"
    assert (body["seat"], body["amount"]) == (2, 150) and body["key"]
    close(page)


def test_R_RM_14_leave_after_this_hand_in_an_ahiko_room(browser, static_url):
    page = open_fixture(browser, static_url, "ahiko_room_seated")
    posts = capture_posts(page, {})
    assert page.locator('[data-control="reload"]').count() == 0  # not during a hand (R-RM-13)
    page.click('[data-control="leave"]')
    page.wait_for_timeout(200)
    assert posts == [("ahiko/rooms/fixture/leave", {"after_hand": True})]
    close(page)


# --- the tournament lobby when the cluster's leader is out of reach (503s, docs/protocol.md) ---
LEADER_503 = {  # code -> what the lobby says (pt-BR)
    "no_leader": "Os torneios estão voltando; tente de novo em instantes.",
    "leader_unreachable": "O servidor dos torneios demorou a responder. Tente de novo: o pedido conta uma vez só.",
    "leader_changed": "Os torneios estão mudando de servidor; tente de novo em instantes.",
    "leader_starting": "Os torneios estão abrindo; tente de novo em instantes.",
}
RETRYING = "Os torneios estão voltando; tentando de novo…"
AUTO_RETRY = {"leader_changed", "leader_starting"}  # the lobby tries once more by itself
ME_JOAO = {"id": 1, "username": "joao", "wallet": 900}


def mtt_entry(registered_me: bool) -> dict[str, Any]:
    """An MTT as GET /api/mtt lists it (``MttService.entry``)."""
    return {
        "id": "m1",
        "name": "Torneio das 21h",
        "buy_in": 0,
        "starts_at": "2026-12-03T21:00:00+00:00",
        "status": "registering",
        "registered": 3 + registered_me,
        "pool": 0,
        "prizes": [],
        "host": None,
        "scheduled": True,
        "registered_me": registered_me,
        "host_me": False,
        "room_id": None,
        "late": False,
    }


def sitgo_queue(registered: int) -> dict[str, Any]:
    return {
        "id": "s1",
        "queue": "hu-holdem-free",
        "name": "Heads-up grátis",
        "variant": "holdem",
        "buy_in": 0,
        "registered": registered,
        "seats": 2,
        "prizes": [],
        "status": "registering",
        "room_id": None,
    }


def tournament_lobby(
    browser: Any, base: str, viewport: dict[str, int] = DESKTOP
) -> tuple[Any, dict[str, Any]]:
    """The "Torneios" tab with one MTT and one sit & go queue; ``state`` says who registered."""
    state: dict[str, Any] = {"mtt": False, "sitgo": False}
    page = mocked_app(
        browser,
        base,
        {
            "/api/me": ME_JOAO,
            "/api/rooms": [],
            "/api/online": {"online": 4},
            "/api/mtt": lambda q: {"mtts": [mtt_entry(state["mtt"])]},
            "/api/sitgo": lambda q: {
                "queues": [sitgo_queue(int(state["sitgo"]))],
                "running": [],
                "mine": {**sitgo_queue(1), "registered": 1} if state["sitgo"] else None,
            },
        },
        viewport,
    )
    return page, state


def leader_away(page: Any, pattern: str, code: str, failures: int, done: Any) -> list[Any]:
    """The register route answers 503 ``code`` ``failures`` times, then ``done()``'s body;
    returns the keys of the registrations received."""
    keys: list[Any] = []

    def answer(route: Any) -> None:
        keys.append(route.request.post_data_json["key"])
        if len(keys) <= failures:
            body = {"error": code, "message": f"the cluster says {code}"}
            route.fulfill(status=503, content_type="application/json", body=json.dumps(body))
        else:
            route.fulfill(status=201, content_type="application/json", body=json.dumps(done()))

    page.route(pattern, answer)
    return keys


@pytest.mark.parametrize("code", list(LEADER_503))
def test_mtt_registration_says_the_leader_is_away_and_tries_again(browser, static_url, code):
    page, state = tournament_lobby(browser, static_url)

    def registered() -> dict[str, Any]:
        state["mtt"] = True
        return {"mtt": mtt_entry(True), "applied": True}

    # leader_changed / leader_starting: the automatic retry fails too, so the player sees both
    failures = 2 if code in AUTO_RETRY else 1
    keys = leader_away(page, "**/api/mtt/m1/register", code, failures, registered)
    page.goto(f"{static_url}/src/ahiko/web/index.html#/lobby/tournament")
    page.click('tr[data-mtt="m1"] [data-mtt="register"]')
    note = ".mtt-note"
    if code in AUTO_RETRY:
        page.wait_for_selector(f'{note}[data-retry="auto"]')
        assert page.inner_text(note) == RETRYING
        assert page.get_attribute(note, "data-error") == code
    page.wait_for_selector(f'{note} [data-retry="manual"]')
    assert page.get_attribute(note, "data-error") == code
    assert page.inner_text(note) == f"{LEADER_503[code]} Tentar de novo"
    assert "cluster" not in page.inner_text("main")  # never the server's raw words
    assert len(keys) == failures
    page.click(f'{note} [data-retry="manual"]')
    page.wait_for_selector('tr[data-mtt="m1"] [data-mtt="unregister"]')
    assert page.inner_text(note) == ""
    assert page.get_attribute(note, "data-error") is None
    # every try sent the click's key: the leader counts the registration once
    assert len(keys) == failures + 1 and len(set(keys)) == 1
    page.console_errors[:] = [e for e in page.console_errors if "503" not in e]
    close(page)


def test_sitgo_registration_retries_once_by_itself_when_the_lead_moves(browser, static_url):
    page, state = tournament_lobby(browser, static_url)

    def registered() -> dict[str, Any]:
        state["sitgo"] = True
        return {"sitgo": {**sitgo_queue(1)}, "applied": True}

    keys = leader_away(page, "**/api/sitgo/queues/*/register", "leader_changed", 1, registered)
    page.goto(f"{static_url}/src/ahiko/web/index.html#/lobby/tournament")
    page.click('tr[data-sitgo="s1"] [data-sitgo="register"]')
    page.wait_for_selector('.sitgo-note[data-retry="auto"]')
    assert page.inner_text(".sitgo-note") == RETRYING
    page.wait_for_selector('tr[data-sitgo="s1"] [data-sitgo="unregister"]', timeout=LIVE_WAIT_MS)
    assert page.inner_text(".sitgo-note") == ""
    assert len(keys) == 2 and keys[0] == keys[1]
    page.console_errors[:] = [e for e in page.console_errors if "503" not in e]
    close(page)


@pytest.mark.parametrize("viewport", [DESKTOP, {"width": 390, "height": 844}], ids=["1280", "390"])
def test_leader_away_screenshots(browser, static_url, viewport):
    page, _state = tournament_lobby(browser, static_url, viewport)
    leader_away(page, "**/api/mtt/m1/register", "no_leader", 1, lambda: {})
    page.goto(f"{static_url}/src/ahiko/web/index.html#/lobby/tournament")
    page.click('tr[data-mtt="m1"] [data-mtt="register"]')
    page.wait_for_selector('.mtt-note [data-retry="manual"]')
    page.locator(".mtt-note").scroll_into_view_if_needed()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"]  # nothing overflows a phone's edge
    screenshot(page, f"lobby-leader-away-{viewport['width']}")
    page.console_errors[:] = [e for e in page.console_errors if "503" not in e]
    close(page)


def test_the_tournament_listing_says_the_leader_is_away_until_it_answers(browser, static_url):
    page, _state = tournament_lobby(browser, static_url)
    asked: list[str] = []

    def listing(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:  # the first listing: no node speaks for the leader
            body = {"error": "no_leader", "message": "no server leads the cluster"}
            route.fulfill(status=503, content_type="application/json", body=json.dumps(body))
        else:
            route.fallback()

    page.route("**/api/mtt", listing)
    page.goto(f"{static_url}/src/ahiko/web/index.html#/lobby/tournament")
    page.wait_for_selector('.mtt-note[data-error="no_leader"]')
    assert page.inner_text(".mtt-note") == LEADER_503["no_leader"]
    assert not page.is_visible(".mtt .mtt-empty")  # not "no tournament": none is known yet
    # the lobby's polling asks again; the answer clears the line
    page.wait_for_selector('tr[data-mtt="m1"]', timeout=LIVE_WAIT_MS)
    assert page.inner_text(".mtt-note") == ""
    assert page.get_attribute(".mtt-note", "data-error") is None
    page.console_errors[:] = [e for e in page.console_errors if "503" not in e]
    close(page)
