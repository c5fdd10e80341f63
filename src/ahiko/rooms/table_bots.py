"""The bots sitting at one room, by player id: made from a level, gone with their seat.

A ``TableBots`` is the room's mapping of bot player ids to the bots that decide for them (the
turns ask it whose seat a bot answers for, the dealer shows them the public record). It makes
a new bot from its level, names it ``bot-N`` in the order bots arrived, and closes a bot that
leaves: a third party's bot (``ahiko.bots.sandbox``) takes its process with it.
"""

from __future__ import annotations

from collections.abc import Callable

from ahiko.bots import levels
from ahiko.bots.protocol import Bot, BotLoadError
from ahiko.poker.games import Game

from .commands import Refusal
from .seats import Occupant

BotFactory = Callable[[str], Bot]


def plays(bot: Bot, played: Game) -> bool:
    """Whether ``bot`` can play ``played``. A level bot (``ahiko.bots.levels``) holds one
    bot per game it plays, under the game's name or the name of how the game values hands
    (``holdem``, ``draw``; ``omaha`` for Pot-Limit Omaha); a bot that lists its ``games``
    plays those; any other bot (random, a third party's) answers every view it is given,
    whatever the game."""
    games = getattr(bot, "games", None)
    if games is not None:
        return played.name in games
    if type(bot).__module__ == levels.__name__:
        held = (getattr(bot, name, None) for name in (played.name, played.evaluator.value))
        return any(one is not None for one in held)
    return True


def close_bot(bot: Bot | None) -> None:
    """A third party's bot (``ahiko.bots.sandbox``) takes its process with it."""
    close = getattr(bot, "close", None)
    if close is not None:
        close()


class TableBots(dict[str, Bot]):
    def __init__(self, factory: BotFactory) -> None:
        super().__init__()
        self._factory = factory
        self._made = 0

    def new(self, level: str, chips: int, played: Game) -> Occupant:
        """A bot of ``level`` with ``chips`` for a table of ``played``, ready to sit (a level
        that will not load, or has no bot for this game yet, is a refusal naming it)."""
        try:
            bot = self._factory(level)
        except BotLoadError as exc:
            raise Refusal("bad_bot", str(exc), "R-RM-05") from None
        if not plays(bot, played):
            close_bot(bot)
            raise Refusal(
                "bot_not_for_game",
                f"the {level} bot does not play {played.title_en} yet",
                "R-RM-05",
            )
        self._made += 1
        player_id = f"bot-{self._made}"
        self[player_id] = bot
        # The level travels as ``bot_level``; the name is the order it came in.
        return Occupant(player_id, f"Bot {self._made}", chips, is_bot=True, bot_level=level)

    def drop(self, player_id: str) -> None:
        close_bot(self.pop(player_id, None))

    def drop_all(self) -> None:
        for player_id in list(self):
            self.drop(player_id)
