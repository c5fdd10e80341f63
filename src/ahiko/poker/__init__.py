"""The rules of Ahiko's games, pure: no I/O, no clock, no randomness.

The whole engine is importable from here. A hand is started with its stakes, seats, stacks,
button and deck, then driven one action at a time, python-chess style (``board.push(move)``):

>>> from ahiko.poker import Action, HoldemConfig, HoldemHand, IllegalAction, view
>>> hand, events = HoldemHand.start(
...     HoldemConfig(10, 20), seats=[1, 2, 3], stacks=[1000, 1000, 1000], button=3,
...     deck=list(range(52)))
>>> hand.to_act  # pre-flop the seat after the big blind acts first (R-HE-05)
3
>>> legal = hand.legal_actions()
>>> legal.call_cost, legal.bet_kind.value, legal.min_to, legal.max_to
(20, 'raise', 40, 1000)
>>> [e.kind for e in hand.act(3, Action.raise_to(60))]  # make the move; its events back
['action']
>>> hand.act(1, Action.raise_to(70))  # an illegal action raises and changes nothing
Traceback (most recent call last):
...
ahiko.poker.actions.IllegalAction: R-HE-07: min raise is to 100, max 1000; got 70
>>> hand.act(1, Action.raise_to(40.5))  # chips are whole numbers (the engine's door)
Traceback (most recent call last):
...
ahiko.poker.actions.IllegalAction: R-HE-07: the amount must be a whole number of chips, got float 40.5
>>> _ = hand.act(1, Action.fold()); _ = hand.act(2, Action.call())
>>> hand.street, [format_card(c) for c in hand.board]
('flop', ['3h', '3s', '4c'])
>>> view(hand, None)["seats"][0]["cards"] is None  # a spectator sees no private card
True
"""

from .actions import Action, ActionKind, IllegalAction, LegalActions
from .cards import Card, CardError, format_card, format_cards, parse_card, parse_cards
from .config import DrawConfig, HoldemConfig
from .draw import DrawHand
from .events import Event, event_from_dict, event_to_dict, public_event_dict
from .games import GAMES, BettingStructure, Game, game
from .hand import AnyHand, BaseHand
from .holdem import HoldemHand, OmahaHand
from .ranking import HandCategory, HandValue, hand_value
from .result import HandResult, PotResult
from .view import public_history, view

__all__ = [
    "GAMES",
    "Action",
    "ActionKind",
    "AnyHand",
    "BaseHand",
    "BettingStructure",
    "Card",
    "CardError",
    "DrawConfig",
    "DrawHand",
    "Event",
    "Game",
    "HandCategory",
    "HandResult",
    "HandValue",
    "HoldemConfig",
    "HoldemHand",
    "IllegalAction",
    "LegalActions",
    "OmahaHand",
    "PotResult",
    "event_from_dict",
    "event_to_dict",
    "format_card",
    "format_cards",
    "game",
    "hand_value",
    "parse_card",
    "parse_cards",
    "public_event_dict",
    "public_history",
    "view",
]
