"""The games Ahiko deals, each as data: the one place that says what a variant is.

A game is a few lines of composition, as pokerkit writes Pot-Limit Omaha (a pot-limit
mixin, an Omaha mixin, a hole-dealing count): how many private cards, which streets deal
the board or hold a draw, the betting structure, the forced bets, how hands are valued,
how many may sit, the deck layout the fair deal commits to, and the names other formats use
for it (PHH, PokerStars). The engine, the rooms, the bots, the histories and the fair deal
ask :func:`game` (or a game's fields) instead of comparing variant names:

>>> from ahiko.poker.games import GAMES, BettingStructure, ForcedBet, game
>>> plo = game("plo")
>>> plo.hole_cards, plo.betting is BettingStructure.POT_LIMIT, plo.evaluator.value
(4, True, 'omaha')
>>> [street.name for street in plo.streets], [street.board_cards for street in plo.streets]
(['preflop', 'flop', 'turn', 'river'], [0, 3, 1, 1])
>>> ForcedBet.STRADDLE in game("holdem").forced_bets, game("draw").forced_bets
(True, frozenset({<ForcedBet.ANTE: 'ante'>}))
>>> game("holdem").phh_code, game("plo").phh_code, game("draw").pokerstars_name
('NT', 'PO', '5 Card Draw Limit')
>>> [g.name for g in GAMES.values()]
['holdem', 'draw', 'plo']
>>> game("stud")
Traceback (most recent call last):
...
ahiko.poker.games.UnknownGame: unknown game 'stud': one of holdem, draw, plo
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum


class BettingStructure(StrEnum):
    """How much a bet or raise may be (R-HE-07 no-limit, R-DR-03 fixed limit)."""

    NO_LIMIT = "no-limit"  # up to the whole stack
    POT_LIMIT = "pot-limit"  # up to the pot after calling
    FIXED_LIMIT = "fixed-limit"  # one fixed size a street, capped raises


class ForcedBet(StrEnum):
    """The forced bets a game may take (which ones a hand posts is its stakes' choice)."""

    ANTE = "ante"  # from every player, before the deal
    BLINDS = "blinds"  # small and big blind, left of the button
    STRADDLE = "straddle"  # a third blind left of the big blind, before the cards


class Evaluator(StrEnum):
    """How a showdown hand is valued; every one ranks five cards (R-RK-01..07)."""

    BEST_FIVE_OF_SEVEN = "best-five"  # any five of two hole cards and the board
    OMAHA = "omaha"  # exactly two of the hole cards and three of the board
    FIVE_CARD_DRAW = "draw"  # the five cards held after the draw


@dataclass(frozen=True, slots=True)
class Street:
    """A step of the deal followed by a betting round: board cards dealt face up, or a
    draw (each player replaces up to ``max_discards`` of their cards)."""

    name: str
    board_cards: int = 0
    max_discards: int = 0


@dataclass(frozen=True, slots=True)
class Game:
    name: str  # the variant's id everywhere in Ahiko (events, rooms, archives)
    hole_cards: int
    streets: tuple[Street, ...]
    betting: BettingStructure
    forced_bets: frozenset[ForcedBet]
    evaluator: Evaluator
    min_players: int
    max_players: int
    layout: str  # the deal layout the fair deal commits to (FAIRNESS.md)
    phh_code: str  # PHH's ``variant``
    pokerstars_name: str  # the game as a PokerStars hand history names it
    title_en: str = ""  # the game as players read its name, in English
    title_pt: str = ""  # and in Portuguese (pt-BR)
    short_name: str = ""  # where space is short: a profile's stakes ("PLO 5/10")

    @property
    def board_cards(self) -> int:
        return sum(street.board_cards for street in self.streets)

    @property
    def has_board(self) -> bool:
        return self.board_cards > 0

    @property
    def has_draw(self) -> bool:
        return any(street.max_discards for street in self.streets)

    def to_json(self) -> dict[str, object]:
        """What a browser needs of the game, so that it asks this instead of comparing
        variant names (rooms' summaries, replays): how many cards each player holds, the
        board, the draw, how bets are limited, how a hand is valued, the seats, the deal
        layout, and the game's name in both languages."""
        return {
            "name": self.name,
            "hole_cards": self.hole_cards,
            "board_cards": self.board_cards,
            "has_draw": self.has_draw,
            "betting": self.betting.value,
            "forced_bets": sorted(bet.value for bet in self.forced_bets),
            "evaluator": self.evaluator.value,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "layout": self.layout,
            "title": {"en": self.title_en, "pt-BR": self.title_pt},
            "short_name": self.short_name,
        }


class UnknownGame(ValueError):
    """A variant name no game answers to."""


# The parts games are composed of.
BOARD_STREETS = (Street("preflop"), Street("flop", 3), Street("turn", 1), Street("river", 1))
ONE_DRAW = (Street("predraw"), Street("draw", max_discards=3), Street("postdraw"))  # R-DR-05
BLINDS_ANTE_STRADDLE = frozenset({ForcedBet.BLINDS, ForcedBet.ANTE, ForcedBet.STRADDLE})

HOLDEM = Game(
    "holdem",
    hole_cards=2,
    streets=BOARD_STREETS,
    betting=BettingStructure.NO_LIMIT,
    forced_bets=BLINDS_ANTE_STRADDLE,
    evaluator=Evaluator.BEST_FIVE_OF_SEVEN,
    min_players=2,
    max_players=9,  # R-HE-01
    layout="holdem-noburn-v1",
    phh_code="NT",
    pokerstars_name="Hold'em No Limit",
    title_en="No-Limit Hold'em",
    title_pt="Hold'em sem limite",
    short_name="hold'em",
)

DRAW = Game(
    "draw",
    hole_cards=5,
    streets=ONE_DRAW,
    betting=BettingStructure.FIXED_LIMIT,
    forced_bets=frozenset({ForcedBet.ANTE}),  # R-DR-02: no blinds
    evaluator=Evaluator.FIVE_CARD_DRAW,
    min_players=2,
    max_players=6,  # R-DR-01
    layout="draw5-v1",
    phh_code="FD-AHIKO",  # PHH has no code for ours (docs/history-formats.md)
    pokerstars_name="5 Card Draw Limit",
    title_en="Five-card draw",
    title_pt="Draw de cinco cartas",
    short_name="draw",
)

# Hold'em's deal, streets and blinds with four hole cards, pot-limit bets and the Omaha hand.
POT_LIMIT_OMAHA = replace(
    HOLDEM,
    name="plo",
    hole_cards=4,
    betting=BettingStructure.POT_LIMIT,
    evaluator=Evaluator.OMAHA,
    layout="omaha4-noburn-v1",
    phh_code="PO",
    pokerstars_name="Omaha Pot Limit",
    title_en="Pot-Limit Omaha",
    title_pt="Omaha Pot-Limit",
    short_name="PLO",
)

GAMES: dict[str, Game] = {g.name: g for g in (HOLDEM, DRAW, POT_LIMIT_OMAHA)}
BY_PHH_CODE: dict[str, Game] = {g.phh_code: g for g in GAMES.values()}
BY_LAYOUT: dict[str, Game] = {g.layout: g for g in GAMES.values()}


def game(name: str) -> Game:
    """The game a variant name stands for; :class:`UnknownGame` names the choices."""
    found = GAMES.get(name)
    if found is None:
        raise UnknownGame(f"unknown game {name!r}: one of {', '.join(GAMES)}")
    return found
