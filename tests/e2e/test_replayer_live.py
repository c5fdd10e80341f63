"""The replayer and shared hands in Chromium against a real server (the audit's findings):
the replayer's last step shows every stack as a number (it showed "NaN"); "Minhas mãos" shows
each hand's cards, board, room and a reference unique across rooms (two rooms' hand nº 2 were
two "#2" rows); a shared hand opened by someone not signed in never calls the sharer's seat
"(Você)"."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from ahiko.poker.cards import format_card
from ahiko.store.hand_archive import ArchivedHand
from archive_factory import Sitter

from .conftest import DESKTOP, PHONE, SCREENSHOTS, open_page
from .helpers import LIVE_WAIT_MS, archive_hands
from .live import live_server
from .play import sign_up

pytestmark = pytest.mark.browser

HANDS_PER_ROOM = 3


def _json(page, path):  # type: ignore[no-untyped-def]
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def _two_rooms_of_hands(data_dir: Path, sitters: dict[int, Sitter]) -> list[ArchivedHand]:
    """The same hand numbers (1..3) at two Ahiko tables, written into the live archive."""
    return [
        hand
        for k, room in enumerate(("ahiko-ini-1", "ahiko-ini-2"))
        for hand in archive_hands(data_dir, sitters, HANDS_PER_ROOM, seed=5 + k, room_id=room)
    ]


def _hole_cards(hand: ArchivedHand, seat: int) -> list[str]:
    dealt = next(e for e in hand.events if e["kind"] == "hole_dealt" and e["seat"] == seat)
    return [format_card(c) for c in dealt["cards"]]


def _final_stacks(document: dict) -> dict[int, int]:  # type: ignore[type-arg]
    ended = next(e for e in document["events"] if e["kind"] == "hand_ended")
    return {int(seat): int(stack) for seat, stack in ended["stacks"].items()}


def _last_step_stacks(page) -> dict[int, str]:  # type: ignore[no-untyped-def]
    if page.locator('.replayer [data-replay="last"]:not([disabled])').count():
        page.click('.replayer [data-replay="last"]')
    page.wait_for_selector('.replayer [data-replay="next"][disabled]')
    return page.eval_on_selector_all(
        ".replayer .seat[data-seat]",
        "els => Object.fromEntries(els.filter(e => e.querySelector('.seat-stack'))"
        ".map(e => [e.dataset.seat, e.querySelector('.seat-stack').innerText.trim()]))",
    )


def _digits(text: str) -> int:
    return int("".join(ch for ch in text if ch.isdigit()))


@pytest.fixture(scope="module")
def archived(browser, tmp_path_factory):  # type: ignore[no-untyped-def]
    data_dir = tmp_path_factory.mktemp("replayer-live")
    with live_server(data_dir) as base:
        bia = httpx.post(
            f"{base}/api/accounts",
            json={"username": "bia", "password": "segredo-forte-1"},
            headers={"X-Ahiko-CSRF": "1"},
        ).json()
        page = sign_up(browser, base, "ana")
        me = _json(page, "/api/me")
        page.context.close()
        sitters = {
            0: Sitter("ana", int(me["id"])),
            3: Sitter("bia", int(bia["id"])),
            5: Sitter("robo"),
        }
        yield base, _two_rooms_of_hands(data_dir, sitters)


def _signed_in(browser, base: str, viewport: dict[str, int]):  # type: ignore[no-untyped-def]
    page = open_page(browser, viewport)
    page.goto(f"{base}/#/login")
    page.fill("#auth-username", "ana")
    page.fill("#auth-password", "segredo-forte-1")
    page.click('[data-auth="login"]')
    page.wait_for_selector("table.rooms")
    return page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_my_hands_list_cards_board_room_and_a_unique_reference(browser, archived, viewport) -> None:  # type: ignore[no-untyped-def]
    base, hands = archived
    page = _signed_in(browser, base, viewport)
    page.goto(f"{base}/#/hands")
    page.wait_for_selector("tbody tr[data-hand]", timeout=LIVE_WAIT_MS)
    rows = page.locator("tbody tr[data-hand]")
    assert rows.count() == 2 * HANDS_PER_ROOM
    listed = {str(h["id"]): h for h in _json(page, "/api/hands")["hands"]}
    references = page.eval_on_selector_all("td.hand-no", "els => els.map(e => e.innerText.trim())")
    assert len(set(references)) == len(references) == 2 * HANDS_PER_ROOM, references
    for hand in hands:
        row = f'tr[data-hand="{hand.id}"]'
        assert page.inner_text(f"{row} td.hand-no") == f"#{hand.id}"
        assert f"mão nº {hand.hand_no}" in page.inner_text(f"{row} td.hand-room")
        mine = _hole_cards(hand, 0)
        assert page.get_attribute(f"{row} .glance-mine", "data-mine") == " ".join(mine)
        assert page.locator(f"{row} .glance-mine .card").count() == 2
        board = [format_card(c) for e in hand.events if e["kind"] == "street" for c in e["cards"]]
        assert listed[str(hand.id)]["board"] == board
        assert page.locator(f"{row} .glance-board .card").count() == len(board)
        # Another seat's hole cards never reach the list.
        others = set(_hole_cards(hand, 3) + _hole_cards(hand, 5))
        assert not others & set(listed[str(hand.id)]["cards"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(
        path=str(SCREENSHOTS / f"my-hands-list-{viewport['width']}.png"), full_page=True
    )
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_the_replayers_last_step_shows_every_final_stack(browser, archived, viewport) -> None:  # type: ignore[no-untyped-def]
    base, hands = archived
    page = _signed_in(browser, base, viewport)
    for hand in hands:
        page.goto(f"{base}/#/hands/{hand.id}")
        page.wait_for_selector(f'.replayer[data-hand="{hand.id}"] .seat')
        document = _json(page, f"/api/hands/{hand.id}?format=json")
        shown = _last_step_stacks(page)
        assert "NaN" not in page.inner_text(".replayer")
        expected = _final_stacks(document)
        assert {int(s): _digits(v) for s, v in shown.items()} == expected, (shown, expected)
    page.screenshot(
        path=str(SCREENSHOTS / f"replayer-last-step-{viewport['width']}.png"), full_page=True
    )
    assert not page.console_errors, page.console_errors
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_a_shared_hand_opened_logged_out_names_the_sharer_not_you(
    browser, archived, viewport
) -> None:  # type: ignore[no-untyped-def]
    base, hands = archived
    hand = hands[-1]
    page = _signed_in(browser, base, viewport)
    link = page.evaluate(
        """id => fetch(`/api/hands/${id}/share`, {method: "POST", credentials: "same-origin",
             headers: {"Content-Type": "application/json", "X-Ahiko-CSRF": "1"},
             body: JSON.stringify({show_own: true, rabbit: false})}).then(r => r.json())""",
        hand.id,
    )["url"]
    page.context.close()

    stranger = open_page(browser, viewport)  # a new context: not signed in
    stranger.goto(f"{base}/{link.lstrip('/')}")
    stranger.wait_for_selector(".replayer .seat")
    stranger.wait_for_selector(".proof-verdict[data-verdict]", timeout=LIVE_WAIT_MS)
    assert stranger.locator(".replayer .you-tag").count() == 0
    assert stranger.locator(".replayer .seat.me").count() == 0
    said = []
    while stranger.locator('.replayer [data-replay="next"]:not([disabled])').count():
        stranger.click('.replayer [data-replay="next"]')
        said.append(stranger.inner_text(".replay-event"))
        if said[-1].startswith("Cartas de ana"):
            shown = stranger.eval_on_selector_all(
                '.replayer [data-seat="0"] .card[data-card]', "els => els.map(e => e.dataset.card)"
            )
            assert sorted(shown) == sorted(_hole_cards(hand, 0))  # the sharer's, as theirs
    assert "Cartas de ana: " in " ".join(said)
    assert not any(x.startswith("Suas cartas") for x in said), said
    text = stranger.inner_text(".replayer")
    assert "Você" not in text and "NaN" not in text
    document = _json(stranger, f"/api/shared/{link.rsplit('/', 1)[-1]}")
    shown_stacks = _last_step_stacks(stranger)
    assert {int(s): _digits(v) for s, v in shown_stacks.items()} == _final_stacks(document)
    stranger.screenshot(
        path=str(SCREENSHOTS / f"shared-hand-logged-out-{viewport['width']}.png"), full_page=True
    )
    assert not stranger.console_errors, stranger.console_errors
    stranger.context.close()
