"""The level bots as rooms and the arena use them: one class per level that plays every
game, handing each view to the hold'em, the Pot-Limit Omaha or the draw bot of that level
(chosen by the game's definition, ahiko.poker.games: a draw, or how hands are valued).

Hard keeps a memory of the public record (ahiko.bots.memory): ``observe(view)``, called with
the bot's own final view at the end of each hand, feeds it; ``HardNoMemoryBot`` is the same
bot with its memory switched off (the yardstick of adaptation). Normal reads one number from
its memory in every game (how loose each opponent is); Easy remembers nothing. The Omaha bots
share their level's memory with the hold'em bot: one table, one record of each opponent."""

from __future__ import annotations

import random

from ahiko.poker.actions import Action
from ahiko.poker.games import Evaluator, game
from ahiko.poker.view_types import HandView

from .draw_easy import DrawEasyBot
from .draw_hard import DrawHardBot
from .draw_normal import DrawNormalBot
from .holdem_easy import HoldemEasyBot
from .holdem_hard import HoldemHardBot
from .holdem_normal import HoldemNormalBot
from .memory import TableMemory
from .plo_easy import PloEasyBot
from .plo_hard import PloHardBot
from .plo_normal import PloNormalBot
from .protocol import Bot


class _ByVariant:
    holdem: Bot
    draw: Bot
    omaha: Bot

    def decide(self, view: HandView, rng: random.Random) -> Action:
        played = game(view["variant"])
        if played.has_draw:
            return self.draw.decide(view, rng)
        if played.evaluator is Evaluator.OMAHA:
            return self.omaha.decide(view, rng)
        return self.holdem.decide(view, rng)


class EasyBot(_ByVariant):
    def __init__(self) -> None:
        self.holdem, self.draw, self.omaha = HoldemEasyBot(), DrawEasyBot(), PloEasyBot()


class NormalBot(_ByVariant):
    def __init__(self) -> None:
        self.memory = TableMemory()
        self.holdem = HoldemNormalBot(self.memory)
        self.draw = DrawNormalBot(self.memory)
        self.omaha = PloNormalBot(self.memory)

    def observe(self, view: HandView) -> None:
        """Learn from a finished hand (Normal reads only how loose each opponent is)."""
        self.memory.observe(view)


class HardBot(_ByVariant):
    remembers = True

    def __init__(self) -> None:
        self.memory = TableMemory()
        self.holdem = HoldemHardBot(self.memory)
        self.draw = DrawHardBot(self.memory)
        self.omaha = PloHardBot(self.memory)

    def observe(self, view: HandView) -> None:
        """Learn from a finished hand: ``view`` is this bot's seat's final view."""
        if self.remembers:
            self.memory.observe(view)


class HardNoMemoryBot(HardBot):
    """Hard with its memory switched off: every opponent is played by the defaults."""

    remembers = False
