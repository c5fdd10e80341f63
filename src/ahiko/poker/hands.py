"""Which hand class plays each game: the engine's door for a variant name.

>>> from ahiko.poker.hands import hand_class
>>> hand_class("plo").__name__, hand_class("plo").game.hole_cards
('OmahaHand', 4)
"""

from __future__ import annotations

from .draw import DrawHand
from .games import DRAW, HOLDEM, POT_LIMIT_OMAHA, game
from .hand import AnyHand
from .holdem import HoldemHand, OmahaHand

HAND_CLASSES: dict[str, type[AnyHand]] = {
    HOLDEM.name: HoldemHand,
    DRAW.name: DrawHand,
    POT_LIMIT_OMAHA.name: OmahaHand,
}


def hand_class(name: str) -> type[AnyHand]:
    """The class whose hands play the game ``name`` (``UnknownGame`` names the choices)."""
    return HAND_CLASSES[game(name).name]
