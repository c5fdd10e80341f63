"""Issue 20 in Chromium against a real server: a host cancels their MTT from the lobby. Ana
opens a paid MTT, Bia registers from the "Torneios" tab (the buy-in leaves her wallet); Ana
sees "Cancelar torneio" on her row (Bia does not), confirms, and Bia's lobby, without a
reload, shows the MTT cancelled and says her buy-in is back; her wallet is whole again and
registering is refused."""

from __future__ import annotations

import pytest

from ahiko.wallet.policy import SIGNUP_GRANT

from .conftest import PHONE, SCREENSHOTS
from .helpers import LIVE_WAIT_MS
from .live import live_server
from .play import sign_up
from .test_mtt_live import _json

pytestmark = pytest.mark.browser
BUY_IN = 100

POST = """([path, body]) => fetch(path, {method: "POST", credentials: "same-origin",
  headers: {"Content-Type": "application/json", "X-Ahiko-CSRF": "1"},
  body: JSON.stringify(body ?? {})}).then(async r => ({status: r.status, json: await r.json()}))"""


def test_the_host_cancels_and_a_registered_browser_learns_it(browser, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with live_server(tmp_path / "live", {"AHIKO_MTT_EVERY_MINUTES": "30"}) as base:
        ana = sign_up(browser, base, "ana")
        bia = sign_up(browser, base, "bia", PHONE)
        made = ana.evaluate(
            POST, ["/api/mtt", {"name": "Noite da Ana", "buy_in": BUY_IN, "starts_in_minutes": 60}]
        )
        assert made["status"] == 201, made
        mid = made["json"]["mtt"]["id"]
        row = f'tr[data-mtt="{mid}"]'
        for page in (ana, bia):
            page.goto(f"{base}/#/lobby/tournament")
            page.wait_for_selector(f'{row} [data-mtt="register"]')
        assert ana.query_selector(f'{row} [data-mtt="cancel"]') is not None
        assert bia.query_selector(f'{row} [data-mtt="cancel"]') is None  # not her MTT
        bia.click(f'{row} [data-mtt="register"]')
        bia.wait_for_selector(f'{row} [data-mtt="unregister"]')
        assert _json(bia, "/api/wallet")["balance"] == SIGNUP_GRANT - BUY_IN
        ana.reload()
        ana.wait_for_selector(f'{row} [data-registered="1"]')

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        ana.screenshot(path=str(SCREENSHOTS / "mtt-host-cancel-1280.png"), full_page=True)
        asked: list[str] = []

        def accept(dialog):  # type: ignore[no-untyped-def]
            asked.append(dialog.message)
            dialog.accept()

        ana.once("dialog", accept)
        ana.click(f'{row} [data-mtt="cancel"]')
        ana.wait_for_selector(f'{row} [data-status="cancelled"]')
        assert asked and "Noite da Ana" in asked[0]
        assert "entradas devolvidas: 1" in ana.inner_text(".mtt-note")
        assert ana.query_selector(f'{row} [data-mtt="cancel"]') is None
        # Bia's lobby polls: it shows the MTT cancelled and says her buy-in came back
        bia.wait_for_selector(f'.mtt-cancelled[data-mtt="{mid}"]', timeout=LIVE_WAIT_MS)
        assert "100 moedas" in bia.inner_text(".mtt-cancelled")
        assert bia.query_selector(f'{row} [data-mtt="register"]') is None
        assert bia.get_attribute(f"{row} [data-status]", "data-status") == "cancelled"
        assert bia.is_visible(f"{row} [data-cancelled]")  # phones: no status column
        assert _json(bia, "/api/wallet")["balance"] == SIGNUP_GRANT
        ana.screenshot(path=str(SCREENSHOTS / "mtt-cancelled-host-1280.png"), full_page=True)
        bia.screenshot(path=str(SCREENSHOTS / "mtt-cancelled-375.png"), full_page=True)
        assert ana.console_errors == [] and bia.console_errors == []
        again = bia.evaluate(POST, [f"/api/mtt/{mid}/register", {"key": "again"}])
        assert again["status"] == 409 and again["json"]["error"] == "cancelled"
