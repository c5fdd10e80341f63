"""Hosting a multi-table tournament from the lobby, in Chromium against a real server (until
now only ``POST /api/mtt`` could): the "Criar um torneio" form checks its fields in the page,
in the page's language, then creates the MTT, which the list shows with its host; in English
the site's scheduled MTT is named in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, SCREENSHOTS
from .live import live_server
from .play import sign_up

pytestmark = pytest.mark.browser
SCREENSHOTS.mkdir(parents=True, exist_ok=True)

WORDS = {
    "pt-BR": {
        "missing": "Dê um nome ao torneio.",
        "range": "Permitido: de 0 a 10.000.",
        "levels": "Permitido: de 1 a 100.",
        "done": 'Torneio "Mesa das quintas" criado: você é o anfitrião.',
        "scheduled": "Torneio grátis",
    },
    "en": {
        "missing": "Give the tournament a name.",
        "range": "Allowed: from 0 to 10,000.",
        "levels": "Allowed: from 1 to 100.",
        "done": 'Tournament "Mesa das quintas" created: you are its host.',
        "scheduled": "Free tournament",
    },
}


def _json(page: Any, path: str) -> Any:
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


@pytest.mark.parametrize(
    "viewport,language", [(DESKTOP, "pt-BR"), (PHONE, "en")], ids=["1280-pt", "375-en"]
)
def test_a_signed_in_player_hosts_an_mtt_from_the_lobby(
    browser: Any, tmp_path: Path, viewport: dict[str, int], language: str
) -> None:
    words = WORDS[language]
    with live_server(tmp_path / "live", {"AHIKO_MTT_EVERY_MINUTES": "30"}) as base:
        page = sign_up(browser, base, "anfitria", viewport)
        if language == "en":
            page.click(".lang-switch")
        page.goto(f"{base}/#/lobby/tournament")
        page.wait_for_selector("tr[data-mtt]")
        scheduled = next(m for m in _json(page, "/api/mtt")["mtts"] if m["scheduled"])
        assert scheduled["name"] == "Torneio grátis" and scheduled["spec"] == "mtt-free"
        assert page.inner_text(f'tr[data-mtt="{scheduled["id"]}"] td >> nth=0').startswith(
            words["scheduled"]
        )
        page.click('[data-mtthost="open"]')
        page.fill("#mtt-buy-in", "20000")
        page.fill("#mtt-levels", "0")
        page.click('[data-mtthost="create"]')
        assert page.inner_text("#mtt-name-error") == words["missing"]
        assert page.inner_text("#mtt-buy-in-error") == words["range"]
        assert page.inner_text("#mtt-levels-error") == words["levels"]
        assert page.get_attribute("#mtt-name", "aria-invalid") == "true"
        assert len(_json(page, "/api/mtt")["mtts"]) == 1  # nothing was sent
        page.screenshot(
            path=str(SCREENSHOTS / f"mtt-host-refused-{viewport['width']}.png"), full_page=True
        )

        page.fill("#mtt-name", "Mesa das quintas")
        page.fill("#mtt-buy-in", "50")
        page.fill("#mtt-levels", "8")
        page.click('[data-mtthost="create"]')
        page.wait_for_function(
            "text => document.querySelector('.mtt-note').innerText === text", arg=words["done"]
        )
        hosted = next(m for m in _json(page, "/api/mtt")["mtts"] if m["name"] == "Mesa das quintas")
        assert (hosted["buy_in"], hosted["level_hands"], hosted["scheduled"]) == (50, 8, False)
        assert hosted["host_me"] is True
        page.wait_for_selector(f'tr[data-mtt="{hosted["id"]}"] [data-mtt="cancel"]')
        assert page.inner_text("#mtt-name-error") == ""
        page.screenshot(
            path=str(SCREENSHOTS / f"mtt-host-created-{viewport['width']}.png"), full_page=True
        )
        assert not page.console_errors, page.console_errors
        page.context.close()
