"""The Bot protocol and loading bots by level name or import path.

A bot is any object with ``decide(view, rng) -> Action``: ``view`` is the
``ahiko.poker.view.HandView`` that ``ahiko.poker.view.view`` returns for the bot's own seat
(R-AI-01: own cards, public cards, public history, legal actions; its ``TypedDict``s name
every key: ``SeatView``, ``PotView``, ``LegalView``, ``ViewEvent``), ``rng`` the only source
of randomness it may use. In the draw phase of five-card draw
(``view["legal"]["is_draw_phase"]``) the answer is ``Action.discard(cards)``. On a server a
bot decides on a worker thread (``ahiko.rooms.thinking``), perhaps while the same object
decides for another turn that has since passed, so ``decide`` must not change the bot object.

A bot named by an import path outside ``ahiko.bots`` (a third party's) is loaded into its own
process (``load_bot``: ahiko.bots.sandbox), where it receives only the serialised view: what it
finds by walking frames or ``gc`` is the sandbox loop and that view, never the hand, the other
seats' cards or a room's signing key.

Memory (optional): a bot with ``observe(view)`` is handed its own seat's final view at the end
of every hand it was dealt into (a room adds ``players``: the seats' public names), and may
keep what that view shows (ahiko.bots.memory): the public record only, for as long as the bot
object lives. A room keeps one object per bot for as long as it sits at the table; the arena
one per session (``ahiko arena --session``).
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol, runtime_checkable

from ahiko.poker.actions import Action
from ahiko.poker.games import GAMES
from ahiko.poker.view_types import HandView

VARIANTS = tuple(GAMES)  # the variants a bot can play (``ahiko arena --variant``)

LEVELS: dict[str, str] = {
    "random": "ahiko.bots.random_bot:RandomBot",
    "easy": "ahiko.bots.levels:EasyBot",
    "normal": "ahiko.bots.levels:NormalBot",
    "hard": "ahiko.bots.levels:HardBot",
}


@runtime_checkable
class Bot(Protocol):
    def decide(self, view: HandView, rng: random.Random) -> Action: ...


class BotLoadError(ValueError):
    """A bot name or import path that does not name a bot."""


def bot_path(name: str) -> tuple[str, str]:
    """(module, class) of a level name or ``package.module:Class``, without importing it."""
    path = LEVELS.get(name, name)
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise BotLoadError(
            f"bot {name!r} is neither a level ({', '.join(LEVELS)}) nor 'package.module:Class'"
        )
    return module_name, attr


def load_bot_class(name: str) -> type[Bot]:
    """A level name (``random``, ``easy``, ``normal``, ``hard``) or ``package.module:Class``."""
    path = LEVELS.get(name, name)
    module_name, attr = bot_path(name)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotLoadError(f"cannot import module {module_name!r} for bot {name!r}: {exc}") from exc
    cls = getattr(module, attr, None)
    if cls is None or not callable(getattr(cls, "decide", None)):
        raise BotLoadError(f"{path!r} has no class {attr!r} with a decide(view, rng) method")
    return cls  # type: ignore[no-any-return]


def is_outside(name: str) -> bool:
    """A bot named by an import path outside this package: it runs in its own process."""
    return name not in LEVELS and not name.partition(":")[0].startswith("ahiko.bots.")


def load_bot(name: str) -> Bot:
    """A fresh bot: a level or a class of ``ahiko.bots`` in this process, any other import
    path in a sandbox process of its own (closed with the bot, or by its ``close()``)."""
    if is_outside(name):
        bot_path(name)  # a malformed name fails here, before a process starts
        from .sandbox import SandboxError, sandboxed_bot

        try:
            return sandboxed_bot(name)
        except SandboxError as exc:
            raise BotLoadError(str(exc)) from exc
    return load_bot_class(name)()
