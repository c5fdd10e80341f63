"""The level bots as rooms and the arena use them: one class per level that plays both
variants, handing each view to the hold'em or the draw bot of that level.

Hard keeps a memory of the public record (ahiko.bots.memory): ``observe(view)``, called with
the bot's own final view at the end of each hand, feeds it; ``HardNoMemoryBot`` is the same
bot with its memory switched off (the yardstick of adaptation). Normal reads one number from
its memory in both variants (how loose each opponent is); Easy remembers nothing."""

from __future__ import annotations

import random
from typing import Any

from ahiko.poker.actions import Action

from .draw_easy import DrawEasyBot
from .draw_hard import DrawHardBot
from .draw_normal import DrawNormalBot
from .holdem_easy import HoldemEasyBot
from .holdem_hard import HoldemHardBot
from .holdem_normal import HoldemNormalBot
from .memory import TableMemory
from .protocol import Bot


class _ByVariant:
    holdem: Bot
    draw: Bot

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        bot = self.holdem if view["variant"] == "holdem" else self.draw
        return bot.decide(view, rng)


class EasyBot(_ByVariant):
    def __init__(self) -> None:
        self.holdem, self.draw = HoldemEasyBot(), DrawEasyBot()


class NormalBot(_ByVariant):
    def __init__(self) -> None:
        self.memory = TableMemory()
        self.holdem = HoldemNormalBot(self.memory)
        self.draw = DrawNormalBot(self.memory)

    def observe(self, view: dict[str, Any]) -> None:
        """Learn from a finished hand (Normal reads only how loose each opponent is)."""
        self.memory.observe(view)


class HardBot(_ByVariant):
    remembers = True

    def __init__(self) -> None:
        self.memory = TableMemory()
        self.holdem = HoldemHardBot(self.memory)
        self.draw = DrawHardBot(self.memory)

    def observe(self, view: dict[str, Any]) -> None:
        """Learn from a finished hand: ``view`` is this bot's seat's final view."""
        if self.remembers:
            self.memory.observe(view)


class HardNoMemoryBot(HardBot):
    """Hard with its memory switched off: every opponent is played by the defaults."""

    remembers = False
