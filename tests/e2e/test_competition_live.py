"""Issue 20 in Chromium against a real server: a player's profile page shows the numbers the
archive gives; a hand is shared from "Minhas mãos" (own cards and the rabbit chosen), opened by
someone not signed in, every card's proof badge is checked in that browser against the signed
commitment, and the downloaded proof passes `ahiko verify`; the lobby shows the leaderboard
with the player's own rank."""

from __future__ import annotations

import httpx
import pytest

from archive_factory import Sitter

from .conftest import SCREENSHOTS, open_page
from .helpers import LIVE_WAIT_MS, archive_hands, assert_ahiko_verifies
from .live import live_server
from .play import sign_up

pytestmark = pytest.mark.browser


def _json(page, path):  # type: ignore[no-untyped-def]
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def test_profile_shared_hand_badges_and_leaderboard_in_chromium(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    data_dir = tmp_path / "live"
    with live_server(data_dir) as base:
        page = sign_up(browser, base, "ana")
        me = _json(page, "/api/me")
        other = httpx.post(
            f"{base}/api/accounts",
            json={"username": "bia", "password": "segredo-forte-1"},
            headers={"X-Ahiko-CSRF": "1"},
        ).json()
        hands = archive_hands(
            data_dir,
            {
                0: Sitter("ana", int(me["id"])),
                4: Sitter("bia", int(other["id"])),
                6: Sitter("robo"),
            },
        )

        # The profile page shows the archive's numbers.
        expected = _json(page, "/api/players/ana/profile")
        assert expected["hands"] == 24
        page.goto(f"{base}/#/players/ana")
        page.wait_for_selector('[data-figure="hands"] dd')
        assert page.inner_text('[data-figure="hands"] dd') == "24"
        assert page.inner_text('[data-figure="vpip"] dd').startswith(
            str(expected["vpip"]).replace(".", ",")
        )
        assert page.get_attribute(".results-graph", "data-points") == str(len(expected["results"]))
        assert page.locator('tr[data-tier="Iniciante"]').count() == 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "profile-1280.png"), full_page=True)

        # Share a hand that ended before the river, with my cards and the rabbit.
        early = next(
            h
            for h in reversed(hands[-20:])  # the first page of "Minhas mãos"
            if len([c for e in h.events if e.get("kind") == "street" for c in e["cards"]]) < 5
        )
        page.goto(f"{base}/#/hands")
        row = f'tr[data-hand="{early.id}"]'
        page.wait_for_selector(row)
        page.click(f'{row} [data-share="open"]')
        page.check(f'{row} [data-share="own"]')
        page.check(f'{row} [data-share="rabbit"]')
        page.click(f'{row} [data-share="create"]')
        page.wait_for_function(
            "sel => document.querySelector(sel).value.includes('#/shared/')",
            arg=f'{row} [data-share="link"]',
        )
        link = page.input_value(f'{row} [data-share="link"]')

        stranger = open_page(browser)  # a new context: not signed in
        stranger.goto(link)
        stranger.wait_for_selector(".proof-verdict[data-verdict]", timeout=LIVE_WAIT_MS)
        assert stranger.get_attribute(".proof-verdict", "data-verdict") == "consistent"
        token = link.rsplit("/", 1)[-1]
        document = _json(stranger, f"/api/shared/{token}")
        cards = document["proof"]["cards"]
        assert stranger.locator('.proof-card[data-verified="true"]').count() == len(cards) > 2
        assert stranger.locator('.proof-card[data-verified="false"]').count() == 0
        shown = stranger.eval_on_selector_all(".proof-card", "els => els.map(e => e.dataset.card)")
        assert sorted(shown) == sorted(c["card"] for c in cards)
        assert stranger.get_attribute(".rabbit", "data-rabbit") == " ".join(document["rabbit"])
        assert {c["role"] for c in cards} >= {"board", "hole"}
        stranger.wait_for_selector(".replayer .seat")
        stranger.screenshot(path=str(SCREENSHOTS / "shared-hand-1280.png"), full_page=True)
        with stranger.expect_download() as proof_info:
            stranger.click('[data-format="proof"]')
        proof_path = tmp_path / "shared-proof.json"
        proof_info.value.save_as(proof_path)
        public_key = _json(stranger, "/api/fairness/public-key")["public_key"]
        assert_ahiko_verifies(proof_path, public_key)
        assert stranger.console_errors == []

        # The lobby's leaderboard, with my own rank.
        page.goto(f"{base}/#/lobby")
        page.wait_for_selector(".my-rank[data-rank]")
        board = _json(page, "/api/leaderboards?board=ahiko&period=week")
        page.wait_for_function("() => document.querySelector('.my-rank').dataset.rank !== ''")
        assert page.get_attribute(".my-rank", "data-rank") == str(board["me"]["rank"])
        assert page.locator(".leaderboard tbody tr").count() == len(board["rows"])
        # The Ahiko board counts coins, the tournament board points, and the column says so.
        score_head = page.locator(".leaderboard thead th").nth(2)
        assert score_head.text_content() == "Saldo (moedas)"
        page.select_option('select[data-board="board"]', "tournament")
        page.wait_for_function(
            "() => document.querySelectorAll('.leaderboard thead th')[2].textContent === 'Pontos'"
        )
