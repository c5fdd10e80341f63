"""Helpers for the rules-engine tests: decks that put chosen cards where the layouts deal them."""

from __future__ import annotations

from ahiko.poker.cards import Card, parse_cards
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.layout import (
    draw_hole_position,
    draw_replacement_position,
    holdem_board_position,
    holdem_hole_position,
)


def _fill(placed: dict[int, Card]) -> list[Card]:
    assert len(set(placed.values())) == len(placed), "a card placed twice"
    spare = iter(c for c in range(52) if c not in set(placed.values()))
    return [placed[p] if p in placed else next(spare) for p in range(52)]


def holdem_deck(holes: list[str], board: str = "") -> list[Card]:
    """``holes[j]`` are the hole cards of the j-th dealt seat (first after the button)."""
    n = len(holes)
    placed: dict[int, Card] = {}
    for j, text in enumerate(holes):
        for k, card in enumerate(parse_cards(text)):
            placed[holdem_hole_position(n, j, k)] = card
    for b, card in enumerate(parse_cards(board)):
        placed[holdem_board_position(n, b)] = card
    return _fill(placed)


def draw_deck(hands: list[str], replacements: str = "") -> list[Card]:
    """``hands[j]``: the five cards of the j-th dealt seat; then the replacement cards in order."""
    n = len(hands)
    placed: dict[int, Card] = {}
    for j, text in enumerate(hands):
        for k, card in enumerate(parse_cards(text)):
            placed[draw_hole_position(n, j, k)] = card
    for r, card in enumerate(parse_cards(replacements)):
        placed[draw_replacement_position(n, r)] = card
    return _fill(placed)


def holdem(
    stacks: list[int],
    *,
    blinds: tuple[int, int] = (10, 20),
    ante: int = 0,
    holes: list[str] | None = None,
    board: str = "",
    button: int | None = None,
) -> HoldemHand:
    """A hand at seats 0..n-1 with the button on the last seat, so seat 0 is first after it."""
    n = len(stacks)
    deck = holdem_deck(holes or [""] * n, board)
    hand, _ = HoldemHand.start(
        HoldemConfig(blinds[0], blinds[1], ante),
        list(range(n)),
        stacks,
        n - 1 if button is None else button,
        deck,
    )
    return hand


def draw(
    stacks: list[int],
    *,
    ante: int = 1,
    small_bet: int = 10,
    cap: int = 4,
    hands: list[str] | None = None,
    replacements: str = "",
) -> DrawHand:
    n = len(stacks)
    deck = draw_deck(hands or [""] * n, replacements)
    hand, _ = DrawHand.start(
        DrawConfig(ante=ante, small_bet=small_bet, raise_cap=cap),
        list(range(n)),
        stacks,
        n - 1,
        deck,
    )
    return hand
