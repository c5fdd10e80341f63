"""Playing as a screen-reader user does: the test knows the table only from what it hears
(the polite live log of the screen-reader mode and the lines read on demand by keys) and
answers only with keys. Nothing of the page's markup is read for the game's state."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .helpers import LIVE_WAIT_MS

# The ranks as the Portuguese table says them, weakest first: the client's own words.
_PT = Path(__file__).resolve().parents[2] / "src/ahiko/web/js/locales/pt-BR.js"
RANKS = re.search(r'"rank.one": "([^"]+)"', _PT.read_text()).group(1).split(",")  # type: ignore[union-attr]
CARD = re.compile(r"(\w+) de (?:paus|ouros|copas|espadas)")
HEARD_JS = "() => [...document.querySelectorAll('.sr-log p')].map(p => [Number(p.dataset.n), p.textContent])"


def ranks_of(text: str) -> list[int]:
    """The ranks of the cards said in ``text``, in the order said."""
    return [RANKS.index(word) for word in CARD.findall(text) if word in RANKS]


def amount_after(label: str, text: str) -> int | None:
    """The chips said after ``label`` ("A pagar: 1.000" -> 1000)."""
    match = re.search(re.escape(label) + r":? ([\d.]+)", text)
    return int(match.group(1).replace(".", "")) if match else None


class Ear:
    """What one page says aloud: the running account, and a read asked for by a key."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.last = 0
        self.heard: list[str] = []

    def new_lines(self) -> list[str]:
        lines = [text for n, text in self.page.evaluate(HEARD_JS) if n > self.last]
        if lines:
            self.last += len(lines)
            self.heard.extend(lines)
        return lines

    def read(self, key: str) -> str:
        """Press a reading key and return what the status line then says."""
        self.page.keyboard.press(key)
        handle = self.page.wait_for_function(
            "() => document.querySelector('.sr-read').textContent || null", timeout=LIVE_WAIT_MS
        )
        return str(handle.json_value())


@dataclass
class Hand:
    lines: list[str] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    won: bool = False
    over: bool = False


def play_by_ear(
    ear: Ear,
    me: str,
    decide: Callable[[Ear, Hand, str], None],
    until: Callable[[list[Hand]], bool],
    max_hands: int = 60,
    silence_s: float = 120,
) -> list[Hand]:
    """Listen; on "Sua vez" call ``decide``; a new hand starts at "Mão nº". Bounded by
    progress, not by the clock: gives up after ``max_hands`` hands, or when the table says
    nothing new for ``silence_s`` (a loaded machine plays slowly, a stuck one says nothing)."""
    hands: list[Hand] = []
    heard_at = time.monotonic()
    while time.monotonic() - heard_at < silence_s:
        lines = ear.new_lines()
        if lines:
            heard_at = time.monotonic()
        for line in lines:
            if line.startswith("Mão nº") or not hands:
                hands.append(Hand())
            hand = hands[-1]
            hand.lines.append(line)
            if line.startswith(("Suas cartas:", "Suas novas cartas:")):
                hand.cards = ranks_of(line)
            elif line.startswith("Sua vez"):
                decide(ear, hand, line)
            elif line.startswith("Pote"):
                hand.over = True
                hand.won = hand.won or f"{me} ganha" in line
        if until(hands):
            return hands
        if len(hands) > max_hands:
            raise AssertionError(f"not done in {max_hands} hands; heard: {ear.heard[-30:]}")
        ear.page.wait_for_timeout(80)
    raise AssertionError(f"nothing new heard for {silence_s}s; heard: {ear.heard[-30:]}")


def strong(ranks: list[int]) -> bool:
    """A pair or better, or a queen or higher: worth raising against a loose bot."""
    return len(set(ranks)) < len(ranks) or max(ranks, default=0) >= RANKS.index("dama")


def bet_by_ear(ear: Ear, hand: Hand, turn: str) -> None:
    """Raise a good hand, check when free, call what is cheap, fold the rest."""
    can_size = "Apostar:" in turn or "Aumentar para:" in turn
    if strong(hand.cards) and can_size:
        ear.page.keyboard.press("r")
        ear.page.keyboard.press("Enter")  # with the box focused (no-limit) it sends the minimum
        return
    if "Pode passar" in turn:
        ear.page.keyboard.press("c")
        return
    to_call = amount_after("A pagar", turn) or 0
    seats = ear.read("s")
    mine = re.search(rf"{re.escape(MY_NAME_MARK)}.*?([\d.]+) fichas", seats)
    stack = int(mine.group(1).replace(".", "")) if mine else 0
    ear.page.keyboard.press("c" if to_call * 4 <= stack else "f")


MY_NAME_MARK = "(você), "


def discards_by_ear(ranks: list[int]) -> list[int]:
    """Positions (0-based) to throw away: keep what pairs; else keep the two highest."""
    counts = {r: ranks.count(r) for r in ranks}
    paired = [i for i, r in enumerate(ranks) if counts[r] > 1]
    loose = sorted((i for i in range(len(ranks)) if i not in paired), key=lambda i: ranks[i])
    keep_loose = 0 if paired else 2
    return loose[: max(0, min(3, len(loose) - keep_loose))]
