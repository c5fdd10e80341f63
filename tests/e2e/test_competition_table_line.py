"""Issue 20 in Chromium against a real server, two gaps of test_competition_live.py: at a live
table an opponent's public numbers line (hands, VPIP/PFR: ``table/playerline.js``) appears on
hover at desktop width and on tap on a 390-wide touch phone, only for the opponent and with the
numbers the server gives; and a shared hand's page offers PokerStars and PHH downloads that
work: the PokerStars text names the hand and its table, and the PHH file is read and replayed
to its end by Ahiko's own reader, holding only what the link shows."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ahiko.history.phh import loads, parse_phh_cards
from ahiko.history.phh_holdem import holdem_from_phh
from ahiko.poker.cards import format_card
from ahiko.store.hand_archive import ArchivedHand
from archive_factory import Sitter

from .conftest import open_page
from .helpers import archive_hands, close
from .live import live_server
from .play import create_room, host_menu, sign_up, sit

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}


def _json(page: Any, path: str) -> Any:
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def _line_text(line: dict[str, Any]) -> str:
    """The line as playerline.js words it in Portuguese (JavaScript's Math.round)."""

    def pct(v: float | None) -> str:
        return "—" if v is None else f"{math.floor(v + 0.5)}%"

    return f"{line['hands']} mãos · VPIP {pct(line['vpip'])} / PFR {pct(line['pfr'])}"


def _cards(hand: ArchivedHand, kind: str, seat: int) -> list[str]:
    """The cards of ``seat`` in ``hand``'s events of ``kind`` (dealt, or shown), in order."""
    return [
        format_card(c)
        for e in hand.events
        if e["kind"] == kind and e["seat"] == seat
        for c in e["cards"]
    ]


def _hidden(hand: ArchivedHand, seat: int) -> set[str]:
    """``seat``'s hole cards that nobody saw in ``hand``."""
    return set(_cards(hand, "hole_dealt", seat)) - set(_cards(hand, "cards_shown", seat))


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real server of this test's own, and the data folder its archive is in."""
    data_dir = tmp_path / "live"
    with live_server(data_dir) as base:
        yield base, data_dir


def _reveal(gesture: Any, page: Any, seat: int, player_id: int, line: dict[str, Any]) -> Any:
    """``gesture`` (hover, tap) on the name at ``seat`` shows that player's line, the only
    one on ``page``; returns it."""
    assert page.locator(".player-line").count() == 0
    gesture(f'[data-seat="{seat}"] .seat-name')
    shown = page.locator(f'[data-seat="{seat}"] .player-line')
    shown.wait_for()
    assert shown.get_attribute("data-player-line") == str(player_id)
    assert shown.inner_text() == _line_text(line)
    assert page.locator(".player-line").count() == 1
    return shown


def test_table_line_of_an_opponent_on_hover_at_desktop_and_on_tap_on_a_phone(
    browser: Any, live: tuple[str, Path]
) -> None:
    base, data_dir = live
    ana = sign_up(browser, base, "ana")
    bia = sign_up(browser, base, "bia", viewport=PHONE_390, has_touch=True, is_mobile=True)
    ids = {p: int(_json(page, "/api/me")["id"]) for p, page in (("ana", ana), ("bia", bia))}
    archive_hands(
        data_dir,
        {0: Sitter("ana", ids["ana"]), 4: Sitter("bia", ids["bia"]), 6: Sitter("robo")},
    )
    lines = {p: _json(ana, f"/api/players/by-id/{ids[p]}/line") for p in ids}
    assert lines["ana"]["hands"] == lines["bia"]["hands"] == 24
    assert lines["bia"]["vpip"] is not None and lines["bia"]["pfr"] is not None

    room_id = create_room(ana, "Mesa dos números")
    sit(ana, 0)
    bia.goto(f"{base}/#/room/{room_id}")
    bia.wait_for_selector('.conn[data-conn="online"]')
    sit(bia, 1)
    ana.wait_for_selector('[data-seat="1"] .seat-name[data-player-id]')
    # Nobody's line shows before it is asked for; one's own seat never offers one.
    assert ana.locator('[data-seat="0"] .seat-name[data-player-id]').count() == 0

    # Desktop: hovering bia's name shows her line under it.
    _reveal(ana.hover, ana, 1, ids["bia"], lines["bia"])
    assert ana.get_attribute('[data-seat="1"] .seat-name', "title") == _line_text(lines["bia"])

    # Phone, 390 wide: tapping ana's name shows hers, inside the screen.
    bia.wait_for_selector('[data-seat="0"] .seat-name[data-player-id]')
    box = _reveal(bia.tap, bia, 0, ids["ana"], lines["ana"]).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_390["width"]

    # A hand starts and the seats are drawn again: the lines asked for stay.
    host_menu(ana, "start")
    for page in (ana, bia):
        page.wait_for_selector(".hand-no")  # drawn with the hand's seats
    ana.wait_for_selector('[data-seat="1"] .player-line')
    bia.wait_for_selector('[data-seat="0"] .player-line')
    assert ana.inner_text('[data-seat="1"] .player-line') == _line_text(lines["bia"])
    close(ana)
    close(bia)


def test_R_FD_03_a_shared_hand_page_downloads_pokerstars_and_phh_that_ahiko_reads(
    browser: Any, tmp_path: Path, live: tuple[str, Path]
) -> None:
    base, data_dir = live
    ana = sign_up(browser, base, "ana")
    me = int(_json(ana, "/api/me")["id"])
    hands = archive_hands(data_dir, {0: Sitter("ana", me), 3: Sitter("robo")}, hands=8)
    hand = next(h for h in reversed(hands) if _hidden(h, 3))  # the bot showed nothing
    hidden = _hidden(hand, 3)
    own = _cards(hand, "hole_dealt", 0)
    link = ana.evaluate(
        """id => fetch(`/api/hands/${id}/share`, {method: "POST",
             headers: {"Content-Type": "application/json", "X-Ahiko-CSRF": "1"},
             body: JSON.stringify({show_own: true, rabbit: false})}).then(r => r.json())""",
        hand.id,
    )["url"]

    stranger = open_page(browser)  # anyone with the link: not signed in
    stranger.goto(f"{base}/{link}")
    stranger.wait_for_selector('.downloads [data-format="phh"]')
    files = {}
    for fmt in ("pokerstars", "phh"):
        with stranger.expect_download() as info:
            stranger.click(f'.downloads [data-format="{fmt}"]')
        files[fmt] = tmp_path / info.value.suggested_filename
        info.value.save_as(files[fmt])
    assert files["pokerstars"].name.endswith("-shared.txt")
    assert files["phh"].name.endswith("-shared.phh")

    stars = files["pokerstars"].read_text()
    assert stars.startswith(f"PokerStars Hand #{hand.id}:  Hold'em No Limit (1/2)")
    assert f"Table '{hand.room_name}' " in stars and "*** SUMMARY ***" in stars
    assert f"Dealt to ana [{' '.join(own)}]" in stars  # the sharer chose to show them
    in_stars = {c for group in re.findall(r"\[([^\]]*)\]", stars) for c in group.split()}
    assert set(own) <= in_stars and not hidden & in_stars

    document = loads(files["phh"].read_text())
    replayed = holdem_from_phh(document)
    assert replayed.is_over
    start = next(e for e in hand.events if e["kind"] == "hand_started")
    final = next(e for e in hand.events if e["kind"] == "hand_ended")["stacks"]
    order = hand.commitment["dealt_seats"]
    assert document.starting_stacks == [start["stacks"][start["seats"].index(s)] for s in order]
    assert document.finishing_stacks == [final[str(s)] for s in order]
    assert sorted(document.players or []) == ["ana", "robo"]
    in_phh = {
        format_card(c)
        for words in map(str.split, document.actions)
        if words[-2] in ("dh", "sm")
        for c in parse_phh_cards(words[-1])
        if c is not None
    }
    assert set(own) <= in_phh and not hidden & in_phh
    assert stranger.console_errors == []
    close(ana)
    close(stranger)
