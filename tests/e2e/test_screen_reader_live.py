"""Issue 47: a whole hold'em hand and a whole draw hand played by keyboard alone, by a test
that knows the table only from what a screen reader says (the live log of the screen-reader
mode and the keys' reads), against a real server and its bots; it plays until it wins a pot."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .axe import assert_accessible
from .conftest import DESKTOP, PHONE, SCREENSHOTS, screenshot
from .ear import Ear, Hand, bet_by_ear, discards_by_ear, play_by_ear, ranks_of
from .helpers import LIVE_WAIT_MS, close, open_fixture
from .play import acts_sent, host_menu, sign_up, sit

pytestmark = pytest.mark.browser


def _start_against_a_bot(page, variant: str, name: str) -> None:  # type: ignore[no-untyped-def]
    page.click('[data-nav="create"]')
    page.fill("#name", name)
    page.check(f'input[name="variant"][value="{variant}"]')
    page.click('[data-create="submit"]')
    page.wait_for_selector('.conn[data-conn="online"]')
    sit(page, 0)
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    page.keyboard.press("Escape")  # from here on: keys only


def _record(name: str, hand: Hand) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"{name}.txt").write_text("\n".join(hand.lines) + "\n")


def _played_and_won(hand: Hand) -> bool:
    # A walk (everyone folds to the big blind) is a pot won without a turn; the test wants a
    # pot the player won by acting, so that "Sua vez" was said in it.
    return hand.won and any(line.startswith("Sua vez") for line in hand.lines)


def _won(hands: list[Hand]) -> bool:
    return any(_played_and_won(h) for h in hands)


def test_R_HE_06_holdem_played_by_ear_and_keys_wins_a_pot(browser: Any, server: str) -> None:
    # A browser that asks for reduced motion gets the screen-reader mode by itself.
    page = sign_up(browser, server, "lia", reduced_motion="reduce")
    _start_against_a_bot(page, "holdem", "Mesa falada")
    ear = Ear(page)
    reads: dict[str, str] = {}

    def decide(ear: Ear, hand: Hand, turn: str) -> None:
        # What a player asks before acting: the cards, the board, the time left.
        reads["h"] = ear.read("h")
        assert ranks_of(reads["h"]) == hand.cards, (reads["h"], hand.lines)
        reads["b"] = ear.read("b")
        reads["t"] = ear.read("t")
        bet_by_ear(ear, hand, turn)

    hands = play_by_ear(ear, "lia", decide, _won)
    won = next(h for h in hands if _played_and_won(h))
    said = "\n".join(won.lines)
    assert re.search(r"^Mão nº \d+ começou", said, re.M)
    assert re.search(r"^Suas cartas: \w+ de \w+, \w+ de \w+$", said, re.M)
    assert re.search(
        r"^Sua vez\. (Pode passar|A pagar: [\d.]+)\..*Pote: [\d.]+\. Tempo: \d+ s$", said, re.M
    )
    # lia's share of the pot, alone or split ("Bot 1 ganha 20 com ...; lia ganha 20 com ...")
    assert re.search(r"^Pote principal: (.*; )?lia ganha [\d.]+", said, re.M)
    # Each of my actions was said once: as many "lia: ..." lines as actions sent.
    mine = [line for h in hands for line in h.lines if line.startswith("lia: ")]
    assert len(mine) == len(acts_sent(page)), (mine, acts_sent(page))
    assert reads["h"].startswith("Suas cartas:") and reads["t"].startswith(("Tempo", "Sem relógio"))
    assert reads["b"].startswith(("Mesa:", "Mesa sem cartas"))
    pot = ear.read("p")
    assert pot.startswith(("Pote:", "Nenhuma mão"))
    assert "lia (você)" in ear.read("s")
    _record("screen-reader-holdem", won)
    screenshot(page, "screen-reader-holdem-1280")
    page.set_viewport_size(PHONE)
    screenshot(page, "screen-reader-holdem-375")
    assert page.console_errors == []
    close(page)


def test_R_DR_03_draw_played_by_ear_with_discards_by_keys_wins_a_pot(
    browser: Any, server: str
) -> None:
    page = sign_up(browser, server, "rui", reduced_motion="reduce")
    _start_against_a_bot(page, "draw", "Draw falado")
    ear = Ear(page)
    drew: list[list[str]] = []

    def decide(ear: Ear, hand: Hand, turn: str) -> None:
        if "Troque até" not in turn:
            bet_by_ear(ear, hand, turn)
            return
        # The turn is said when its frame lands; the bar takes keys once the ack of our last
        # action is back too (it follows the frames): the digits wait for the open bar. On a
        # loaded machine this line may be read after the turn has passed (the clock stood pat
        # for us): then there is nothing to press.
        ear.page.wait_for_function(
            """() => Boolean(
              document.querySelector('.action-bar:not([hidden]):not(.pending) .act-buttons.draw')
              || !document.querySelector('.action-bar:not([hidden]) .act-buttons.draw'))""",
            timeout=LIVE_WAIT_MS,
        )
        if not ear.page.query_selector(".action-bar:not([hidden]) .act-buttons.draw"):
            return
        picks = discards_by_ear(hand.cards)
        said = [ear.read(str(i + 1)) for i in picks]
        assert all(": trocar (" in line for line in said), said
        drew.append(said)
        ear.page.keyboard.press("Enter")

    def done(hands: list[Hand]) -> bool:
        return _won(hands) and any(
            any("Suas novas cartas" in line for line in h.lines) for h in hands
        )

    hands = play_by_ear(ear, "rui", decide, done)
    won = next(h for h in hands if _played_and_won(h))
    assert drew, "no draw was played"
    said = "\n".join(line for h in hands for line in h.lines)
    assert re.search(r"^rui troca \d$", said, re.M)
    assert re.search(r"^Suas novas cartas: (\w+ de \w+, ){4}\w+ de \w+$", said, re.M)
    assert re.search(r"^Troca\. Pote: [\d.]+$", said, re.M)
    _record("screen-reader-draw-won", won)
    _record(
        "screen-reader-draw",
        next(h for h in hands if any("Suas novas cartas" in x for x in h.lines)),
    )
    assert page.console_errors == []
    close(page)


HEARD = "() => [...document.querySelectorAll('.sr-log p')].map(p => p.textContent)"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_reader_mode_from_the_settings_dialog_tells_the_hand_so_far_in_english(
    browser: Any, static_url: str, viewport: dict[str, int]
) -> None:
    page = open_fixture(browser, static_url, "holdem_full", viewport, lang="en")
    assert page.evaluate(HEARD) == []  # no reduced motion asked: the mode waits to be chosen
    page.focus('[data-open="settings"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.settings-dialog[open]")
    screenshot(page, f"settings-dialog-{viewport['width']}")
    assert_accessible(page, f"settings dialog {viewport['width']}")
    # Focus stays inside the open dialog.
    for _ in range(4):
        page.keyboard.press("Tab")
        assert page.evaluate("() => Boolean(document.activeElement.closest('dialog[open]'))")
    page.focus("#set-reader")
    page.keyboard.press("Space")
    heard = page.evaluate(HEARD)
    assert heard[0] == "Hand #9 started", heard
    assert "Your cards: ace of hearts, ten of diamonds" in heard
    assert any(
        line.startswith("Flop: ten of clubs, seven of spades, two of diamonds. Pot: ")
        for line in heard
    )
    assert heard[-1].startswith("Your turn. To call: ")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.settings-dialog", state="detached")
    page.keyboard.press("b")
    page.wait_for_function("() => document.querySelector('.sr-read').textContent")
    assert page.inner_text(".sr-read") == "Board: ten of clubs, seven of spades, two of diamonds"
    # Remembered by this browser: the next page of the table starts in the mode.
    assert page.evaluate("localStorage.getItem('ahiko.reader')") == "on"
    close(page)
