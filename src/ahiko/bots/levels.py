"""The level bots as rooms and the arena use them: one class per level that plays both
variants, handing each view to the hold'em or the draw bot of that level."""

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
        self.holdem, self.draw = HoldemNormalBot(), DrawNormalBot()


class HardBot(_ByVariant):
    def __init__(self) -> None:
        self.holdem, self.draw = HoldemHardBot(), DrawHardBot()
