"""A game is data: one definition per variant in ``ahiko.poker.games``, which the engine's
hands read (cards, streets, betting, seats, layout) instead of constants of their own."""

from __future__ import annotations

import doctest

import pytest

import ahiko.poker.games
import ahiko.poker.hands
from ahiko.poker.config import DRAW_MAX_DISCARDS, DRAW_MAX_PLAYERS, HOLDEM_MAX_PLAYERS
from ahiko.poker.draw import DrawHand
from ahiko.poker.games import (
    BY_LAYOUT,
    BY_PHH_CODE,
    DRAW,
    GAMES,
    HOLDEM,
    POT_LIMIT_OMAHA,
    BettingStructure,
    Evaluator,
    UnknownGame,
    game,
)
from ahiko.poker.hands import HAND_CLASSES, hand_class
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.layout import DRAW_HAND_CARDS, HOLDEM_BOARD_CARDS, HOLDEM_HOLE_CARDS


def test_the_games_docstring_example_runs() -> None:
    result = doctest.testmod(ahiko.poker.games, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


def test_R_HE_01_R_DR_01_the_hands_take_their_seats_and_layout_from_their_game() -> None:
    assert (HoldemHand.game, DrawHand.game, OmahaHand.game) == (HOLDEM, DRAW, POT_LIMIT_OMAHA)
    for plays in (HoldemHand, DrawHand, OmahaHand):
        played = plays.game
        assert plays.variant == played.name
        assert plays.layout == played.layout
        assert (plays.min_players, plays.max_players) == (
            played.min_players,
            played.max_players,
        )
    assert (HOLDEM_MAX_PLAYERS, DRAW_MAX_PLAYERS, DRAW_MAX_DISCARDS) == (9, 6, 3)
    assert (HOLDEM_HOLE_CARDS, HOLDEM_BOARD_CARDS, DRAW_HAND_CARDS) == (2, 5, 5)


def test_R_HE_06_R_DR_03_each_game_names_its_betting_and_evaluator() -> None:
    assert HOLDEM.betting is BettingStructure.NO_LIMIT
    assert DRAW.betting is BettingStructure.FIXED_LIMIT
    assert HOLDEM.evaluator is Evaluator.BEST_FIVE_OF_SEVEN
    assert DRAW.evaluator is Evaluator.FIVE_CARD_DRAW
    assert HOLDEM.has_board and not HOLDEM.has_draw
    assert DRAW.has_draw and not DRAW.has_board


def test_every_name_layout_and_code_is_unique() -> None:
    games = list(GAMES.values())
    assert len(BY_PHH_CODE) == len(BY_LAYOUT) == len(games)
    assert len({g.pokerstars_name for g in games}) == len(games)
    assert all(game(g.name) is g for g in games)


def test_an_unknown_game_is_refused_naming_the_choices() -> None:
    with pytest.raises(UnknownGame, match="unknown game 'Holdem': one of holdem, draw"):
        game("Holdem")


def test_every_game_has_a_hand_class_that_plays_it() -> None:
    result = doctest.testmod(ahiko.poker.hands, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 1 and result.failed == 0
    assert set(HAND_CLASSES) == set(GAMES)
    for name, played in GAMES.items():
        assert hand_class(name).game is played
