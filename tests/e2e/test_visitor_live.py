"""Visitors see the site before the form. A logged-out visitor lands on the lobby,
watches a public table (and a private one through its invite link), and is asked for an
account only when they sit, in the seat's own dialog (R-RM-01: playing needs one): a new
player signs up there, a returning one logs in there, and either is seated at the seat
chosen without leaving the table."""

from __future__ import annotations

from typing import Any

import pytest

from .axe import assert_accessible
from .conftest import DESKTOP, PHONE, open_page, screenshot
from .helpers import LIVE_WAIT_MS, close
from .play import create_room, sign_up, sit

pytestmark = pytest.mark.browser

PASSWORD = "segredo-forte-1"


def _watch(browser: Any, base: str, viewport: dict[str, int], room: str) -> Any:
    page = open_page(browser, viewport)  # type: ignore[no-untyped-call]
    page.goto(f"{base}/")
    page.wait_for_selector('[data-visitor="true"]')  # the lobby, not a form
    assert "#/login" not in page.url
    screenshot(page, f"visitor-lobby-{viewport['width']}")
    page.click('[data-tab="public"]')
    page.click(f'tr[data-room] a >> text="{room}"')
    page.wait_for_selector('.conn[data-conn="online"]')
    page.wait_for_selector(".spectating")
    return page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_RM_01_a_visitor_watches_then_signs_up_or_logs_in_at_the_seat_and_sits(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    size = viewport["width"]
    host = sign_up(browser, server, f"anfitria{size}")
    room = f"Mesa aberta {size}"
    create_room(host, room)
    sit(host, 0)

    page = _watch(browser, server, viewport, room)
    screenshot(page, f"visitor-lobby-table-{size}")
    assert page.query_selector('[data-seat="0"].me') is None
    assert_accessible(page, f"visitor watching {size}")
    page.click('[data-seat="2"] .sit-btn')
    page.wait_for_selector("dialog.seat-auth-dialog[open]")
    assert page.inner_text("dialog.seat-auth-dialog h2") == "Sentar no lugar 3"
    screenshot(page, f"seat-auth-dialog-{size}")
    assert_accessible(page, f"seat sign-in dialog {size}")
    # A username the rules refuse: said in Portuguese, nothing created, still watching.
    page.fill("#seat-username", "a b")
    page.fill("#seat-password", PASSWORD)
    page.click('[data-seatauth="signup"]')
    page.wait_for_selector("#seat-auth-error >> text=Usuário inválido")
    assert page.query_selector(".seat.me") is None
    newcomer = f"novato{size}"
    page.fill("#seat-username", newcomer)
    page.click('[data-seatauth="signup"]')
    page.wait_for_selector('[data-seat="2"].me', timeout=LIVE_WAIT_MS)
    assert page.query_selector("dialog[open]") is None
    assert "#/room/" in page.url
    close(page)

    # A returning player logs in at the seat: a wrong password is said and changes nothing.
    back = _watch(browser, server, viewport, room)
    back.click('[data-seat="4"] .sit-btn')
    back.fill("#seat-username", f"anfitria{size}")
    back.fill("#seat-password", "errada-de-todo")
    back.click('[data-seatauth="login"]')
    back.wait_for_selector("#seat-auth-error >> text=Usuário ou senha incorretos.")
    assert back.query_selector(".seat.me") is None
    back.close()
    again = _watch(browser, server, viewport, room)
    again.click('[data-seat="4"] .sit-btn')
    again.fill("#seat-username", newcomer)
    again.fill("#seat-password", PASSWORD)
    again.click('[data-seatauth="login"]')
    # The account sits at seat 2 already (from the other browser): the room says so.
    again.wait_for_selector('[data-seat="2"].me', timeout=LIVE_WAIT_MS)
    close(again)
    close(host)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_R_RM_01_a_friend_opens_the_invite_link_watches_and_sits_with_a_new_account(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    """The home game's way in: a logged-out friend opens a private room's link, watches at
    once, and is seated with an account made in the seat's dialog — no log-in page, no lost
    link."""
    size = viewport["width"]
    host = sign_up(browser, server, f"reservada{size}")
    host.click('[data-nav="create"]')
    host.fill("#name", f"Só convidados {size}")
    host.check('input[name="visibility"][value="private"]')
    host.click('[data-create="submit"]')
    host.wait_for_selector('.conn[data-conn="online"]')
    link = host.url
    shown = host.locator(".private-link code")
    assert shown.text_content() == link
    box = shown.bounding_box()
    assert box is not None and box["width"] <= 240, box  # wraps in the side column
    friend = open_page(browser, viewport)  # type: ignore[no-untyped-call]
    friend.goto(link)
    friend.wait_for_selector(f'.room-name >> text="Só convidados {size}"')
    friend.wait_for_selector(".spectating")
    assert "#/login" not in friend.url
    friend.click('[data-seat="3"] .sit-btn')
    friend.wait_for_selector("dialog.seat-auth-dialog[open]")
    friend.fill("#seat-username", f"amiga{size}")
    friend.fill("#seat-password", PASSWORD)
    friend.click('[data-seatauth="signup"]')
    friend.wait_for_selector('[data-seat="3"].me', timeout=LIVE_WAIT_MS)
    assert friend.url == link  # seated where the link pointed
    screenshot(friend, f"invite-link-seated-{size}")
    host.wait_for_selector(f'[data-seat="3"] >> text=amiga{size}')
    close(friend)
    close(host)


def test_R_RM_01_a_visitor_signing_up_at_an_ahiko_seat_is_asked_for_the_buy_in(
    browser: Any, server: str
) -> None:
    page = open_page(browser, DESKTOP)  # type: ignore[no-untyped-call]
    page.goto(f"{server}/")
    page.wait_for_selector("tr[data-room]")  # the Ahiko rooms' tab, open to a visitor
    page.locator("tr[data-room] a").first.click()
    page.wait_for_selector('.conn[data-conn="online"]')
    page.locator(".sit-btn").first.click()
    page.fill("#seat-username", "visitante")
    page.fill("#seat-password", PASSWORD)
    page.click('[data-seatauth="signup"]')
    page.wait_for_selector(
        "dialog.buyin-dialog[open]", timeout=LIVE_WAIT_MS
    )  # the wallet's coins, now
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector(".seat.me", timeout=LIVE_WAIT_MS)
    close(page)
