"""Pages whose server side is not there yet ("Minhas mãos", Ahiko rooms' buy-in), driven
with the API answered by the test (Playwright routes) in the format the client expects."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import open_page, screenshot
from .frames import holdem_showdown
from .helpers import close, open_fixture

pytestmark = pytest.mark.browser

SHOWDOWN_EVENTS = next(f for f in holdem_showdown() if f["t"] == "hand")["events"]
HAND = {
    "id": "h-42",
    "hand_no": 42,
    "room_name": "Mesa da Ana",
    "seat_count": 6,
    "viewer": 3,
    "players": [
        {"seat": s, "name": n}
        for s, n in [(0, "Ana"), (1, "Rita"), (3, "joao"), (4, "Bruno"), (5, "Caio")]
    ],
    "events": [
        {**SHOWDOWN_EVENTS[0], "seats": [0, 1, 3, 4, 5], "stacks": [1000, 1000, 1000, 15, 1000]},
        {"kind": "hole_dealt", "seat": 3, "cards": ["Qd", "Qs"], "positions": [2, 7]},
        *SHOWDOWN_EVENTS[1:],
    ],
}


def mocked_app(browser: Any, base: str, routes: dict[str, Any]) -> Any:
    page = open_page(browser)
    page.context.add_init_script("localStorage.setItem('ahiko.signedIn', '1')")

    def answer(route: Any) -> None:
        path = route.request.url.split("://", 1)[1].split("/", 1)[1].split("?")[0]
        body = routes.get("/" + path)
        if body is None:
            route.fulfill(
                status=404,
                content_type="application/json",
                body=json.dumps({"error": "not_found", "message": path}),
            )
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/api/**", answer)
    return page


def test_my_hands_lists_downloads_and_replays_a_hand_step_by_step(browser, static_url):
    page = mocked_app(
        browser,
        static_url,
        {
            "/api/me": {"id": 1, "username": "joao", "wallet": 900},
            "/api/hands": [
                {
                    "id": "h-42",
                    "hand_no": 42,
                    "room_name": "Mesa da Ana",
                    "ended_at": "2026-11-29T21:00:00+00:00",
                    "net": 195,
                }
            ],
            "/api/hands/h-42": HAND,
        },
    )
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="h-42"]')
    formats = page.eval_on_selector_all("[data-format]", "els => els.map(e => e.dataset.format)")
    assert formats == ["pokerstars", "phh", "proof"]
    assert page.get_attribute('[data-format="phh"]', "href") == "/api/hands/h-42/phh"
    page.click('tr[data-hand="h-42"] button')
    page.wait_for_selector(".replayer .seat")
    assert page.inner_text(".replay-step") == f"Passo 1 de {len(HAND['events']) - 1}"
    assert page.locator('.replayer [data-seat="3"] .card[data-card="Qd"]').count() == 0
    page.click('[data-replay="next"]')
    page.click('[data-replay="next"]')
    page.click('[data-replay="next"]')
    assert page.locator('.replayer [data-seat="3"] .card[data-card="Qd"]').count() == 1
    page.click('[data-replay="last"]')
    assert "joao ganha 75" in page.inner_text(".replayer .results")
    assert page.locator(".replayer .board .card").count() == 5
    screenshot(page, "my-hands-1280")
    close(page)


def capture_posts(page: Any, answer: dict[str, Any]) -> list[tuple[str, Any]]:
    posts: list[tuple[str, Any]] = []

    def handle(route: Any) -> None:
        request = route.request
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
