"""The Ahiko buy-in, reload and re-entry dialogs in Chromium against a real server, in both
languages and at both sizes: every form checks what was typed in the page and says, in the
page's language, the allowed range and why (never the browser's own validation bubble); the
button says only what it would do; a reload at the table's maximum is shut with the reason
(no "De 1 a 0 fichas"); the fair re-entry minimum is said (R-RM-12, R-RM-13)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, SCREENSHOTS, open_page
from .play import sign_up

pytestmark = pytest.mark.browser
SCREENSHOTS.mkdir(parents=True, exist_ok=True)


WORDS = {
    "pt-BR": {
        "range": "Permitido: de {min} a {max}.",
        "exactly": "Permitido: exatamente {n}.",
        "below": "O mínimo é {min}.",
        "above": "O máximo é {max}.",
        "whole": "Digite um número inteiro de fichas.",
        "confirm": "Confirmar {n}",
        "confirm_plain": "Confirmar",
        "reload_plain": "Recarregar",
        "tier": "a entrada da mesa Iniciante 1/2 vai de 100 a 200 moedas",
        "ceiling": "a mesa vai até 200 fichas e sua pilha tem 150",
        "full": "Sua pilha (200) já está no máximo da mesa (200): não há o que recarregar.",
        "reentry": "retorno justo: você saiu deste nível com 200 fichas há menos de 30 minutos, "
        "então o mínimo é 200",
    },
    "en": {
        "range": "Allowed: from {min} to {max}.",
        "exactly": "Allowed: exactly {n}.",
        "below": "The minimum is {min}.",
        "above": "The maximum is {max}.",
        "whole": "Type a whole number of chips.",
        "confirm": "Confirm {n}",
        "confirm_plain": "Confirm",
        "reload_plain": "Reload",
        "tier": "the Beginner 1/2 table's buy-in is 100 to 200 coins",
        "ceiling": "the table goes up to 200 chips and your stack has 150",
        "full": "Your stack (200) is already at the table maximum (200): there is nothing to reload.",
        "reentry": "fair re-entry: you left this tier with 200 chips less than 30 minutes ago, "
        "so the minimum is 200",
    },
}


def _type(page: Any, text: str) -> None:
    page.fill("#buyin-amount", text)
    page.dispatch_event("#buyin-amount", "input")


def _refused(page: Any, text: str, said: str) -> None:
    """``text`` typed and submitted with Enter: the page says ``said``, the dialog stays, the
    button cannot send, and the browser's bubble has nothing to show (the form validates)."""
    _type(page, text)
    page.press("#buyin-amount", "Enter")
    assert page.inner_text(".field-error") == said
    assert page.get_attribute("#buyin-amount", "aria-invalid") == "true"
    assert page.is_disabled('[data-buyin="confirm"]')
    assert page.locator(".buyin-dialog[open]").count() == 1


def _why(page: Any) -> list[str]:
    return page.eval_on_selector_all(".buyin-why li", "els => els.map(e => e.innerText)")


@pytest.mark.parametrize(
    "viewport,language",
    [(DESKTOP, "pt-BR"), (DESKTOP, "en"), (PHONE, "pt-BR"), (PHONE, "en")],
    ids=["1280-pt", "1280-en", "375-pt", "375-en"],
)
def test_R_RM_12_R_RM_13_buy_in_reload_and_reentry_dialogs_validate_in_the_page(
    browser: Any, server: str, viewport: dict[str, int], language: str
) -> None:
    words = WORDS[language]
    name = f"dlg{viewport['width']}{language[:2]}"
    page = sign_up(browser, server, name, viewport)
    if language == "en":
        page.click(".lang-switch")
    page.wait_for_selector("tr[data-room]")
    page.select_option('select:has(option[value="iniciante"])', "iniciante")
    page.locator("tr[data-room] a").first.click()
    page.wait_for_selector('.conn[data-conn="online"]')

    # The buy-in: range and reason said, mistakes said in the page's language.
    page.locator(".sit-btn").first.click()
    page.wait_for_selector(".buyin-dialog[open]")
    assert page.evaluate("document.querySelector('.buyin-form').noValidate") is True
    assert page.inner_text(".buyin-range .hint") == words["range"].format(min=100, max=200)
    assert _why(page) == [words["tier"]]
    assert page.inner_text('[data-buyin="confirm"]') == words["confirm"].format(n=200)
    _refused(page, "50", words["below"].format(min=100))
    assert page.inner_text('[data-buyin="confirm"]') == words["confirm_plain"]
    _refused(page, "250", words["above"].format(max=200))
    _refused(page, "", words["whole"])
    page.screenshot(path=str(SCREENSHOTS / f"buyin-refused-{viewport['width']}-{language}.png"))
    _type(page, "150")
    assert page.inner_text(".field-error") == ""
    assert page.inner_text('[data-buyin="confirm"]') == words["confirm"].format(n=150)
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector('.seat.me .seat-stack >> text="150"')

    # The reload: up to the table's maximum, and why.
    page.click('[data-control="reload"]')
    page.wait_for_selector(".buyin-dialog[open]")
    assert page.inner_text(".buyin-range .hint") == words["range"].format(min=1, max=50)
    assert _why(page) == [words["ceiling"]]
    _refused(page, "60", words["above"].format(max=50))
    _refused(page, "0", words["below"].format(min=1))
    page.screenshot(path=str(SCREENSHOTS / f"reload-refused-{viewport['width']}-{language}.png"))
    _type(page, "50")
    page.click('[data-buyin="confirm"]')
    page.wait_for_selector('.seat.me .seat-stack >> text="200"')

    # At the maximum the reload is shut, and the table says why.
    page.wait_for_selector('[data-control="reload"][disabled]')
    assert page.inner_text(".reload-why") == words["full"]
    page.screenshot(path=str(SCREENSHOTS / f"reload-at-maximum-{viewport['width']}-{language}.png"))

    # Leaving with 200 and coming back at once: the re-entry minimum is said and enforced.
    page.click('[data-control="leave-now"]')
    page.wait_for_selector(".seat.me", state="detached")
    page.locator(".sit-btn").first.click()
    page.wait_for_selector(".buyin-dialog[open] .reentry-note")
    assert page.inner_text(".buyin-range .hint") == words["exactly"].format(n=200)
    assert _why(page) == [words["tier"], words["reentry"]]
    _refused(page, "150", words["below"].format(min=200))
    page.screenshot(path=str(SCREENSHOTS / f"reentry-{viewport['width']}-{language}.png"))
    page.click('.buyin-dialog button[value="cancel"]')
    page.wait_for_selector(".buyin-dialog", state="detached")
    assert not page.console_errors, page.console_errors
    page.context.close()


def _limits(browser: Any, static_url: str, **args: Any) -> dict[str, Any]:
    page = open_page(browser)
    page.goto(f"{static_url}/tests/e2e/fixtures/modules.html")
    found = page.evaluate(
        """async (args) => {
            const { buyInLimits } = await import("/src/ahiko/web/js/table/buyinlimits.js");
            return buyInLimits(args);
        }""",
        args,
    )
    page.context.close()
    return found  # type: ignore[no-any-return]


def test_R_RM_12_a_wallet_short_of_the_minimum_shuts_the_buy_in_and_says_why(
    browser: Any, static_url: str
) -> None:
    found = _limits(browser, static_url, tier="Alta 10/20", tierMin=1000, tierMax=2000, balance=640)
    assert found["blocked"] == ["limits.wallet_short", {"balance": "640", "min": "1.000"}]
    fits = _limits(browser, static_url, tier="Alta 10/20", tierMin=1000, tierMax=2000, balance=1500)
    assert (fits["min"], fits["max"], fits["blocked"]) == (1000, 1500, None)
    assert [key for key, _ in fits["why"]] == ["limits.why_tier", "limits.why_wallet"]


def test_R_RM_13_a_reload_at_or_above_the_ceiling_is_shut_never_an_empty_range(
    browser: Any, static_url: str
) -> None:
    for stack in (200, 340):  # winnings may exceed the ceiling (R-RM-13)
        found = _limits(browser, static_url, reload=True, tierMin=100, tierMax=200, stack=stack)
        assert found["blocked"][0] == "limits.reload_at_ceiling"
        assert found["max"] == 0
