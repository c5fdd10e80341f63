"""Bots: the Bot protocol, hold'em and five-card draw bots by level (random, easy, normal,
hard), Monte Carlo equity, and the duplicate-match arena. Bots see only their seat's view
(R-AI-01)."""

from .protocol import LEVELS, Bot, BotLoadError, load_bot, load_bot_class

__all__ = ["LEVELS", "Bot", "BotLoadError", "load_bot", "load_bot_class"]
