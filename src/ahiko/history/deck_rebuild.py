"""Rebuild a deck in deal-position order from the cards a hand history shows.

Known cards go where the deal layout (FAIRNESS.md, ``poker/layout.py``) puts them; unknown
cards (``??``) and positions never dealt receive the cards no line mentions, lowest first, so
the same file always gives the same deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import not_
from typing import cast

from ahiko.poker.cards import DECK_SIZE, Card, format_card
from ahiko.poker.layout import (
    DRAW_HAND_CARDS,
    HOLDEM_BOARD_CARDS,
    HOLDEM_HOLE_CARDS,
    board_game_positions,
    draw_hole_position,
    draw_replacement_position,
    second_board_position,
)

from .phh import DealBoard, DealHole, PhhAction, PhhError, player_label


class _Placement:
    def __init__(self) -> None:
        self.cards: list[Card | None] = [None] * DECK_SIZE  # by deck position
        self.placed = [False] * DECK_SIZE  # by card
        self.unknown: set[int] = set()

    def put(self, positions: Sequence[int], cards: Sequence[Card | None]) -> None:
        """Place ``cards[k]`` at ``positions[k]``; an unknown card (None) leaves it open."""
        at, placed = self.cards, self.placed
        for position, card in zip(positions, cards, strict=True):
            if position >= DECK_SIZE:
                raise PhhError(f"more cards are dealt than the deck's {DECK_SIZE}")
            if card is None:
                self.unknown.add(position)
            elif placed[card]:
                raise PhhError(f"card {format_card(card)} is dealt twice")
            else:
                at[position] = card
                placed[card] = True

    def deck(self) -> tuple[Card, ...]:
        cards = self.cards
        unused = list(compress(range(DECK_SIZE), map(not_, self.placed)))
        open_from = cards.index(None) if unused else DECK_SIZE
        if cards.count(None) == DECK_SIZE - open_from:
            # The usual deal: every open position comes after the known ones, so the unused
            # cards simply follow in ascending order.
            return (*cast(list[Card], cards[:open_from]), *unused)
        unused.reverse()  # lowest last: pop() hands them out lowest first
        spare = unused.pop
        return tuple([spare() if c is None else c for c in cards])


class HoldemDealing:
    """``holdem-noburn-v1`` (and ``omaha4-noburn-v1`` with four hole cards): hole card k of
    position j at ``k*n + j``, board b at ``hole_cards*n + b``. Takes the dealing lines one
    at a time, so a reader can place cards as it parses."""

    __slots__ = (
        "_board",
        "_board_count",
        "_boards",
        "_hole",
        "_hole_cards",
        "_hole_counts",
        "_lines",
        "_placement",
        "_second_count",
    )

    def __init__(
        self, player_count: int, hole_cards: int = HOLDEM_HOLE_CARDS, second_board: str = ""
    ) -> None:
        """``second_board`` for a hand with one (``*-2board-v1``): "double", whose lines
        alternate between the boards street by street, or "rerun" (run it twice), whose
        second run-out's lines follow the first board's five."""
        self._placement = _Placement()
        self._hole, self._board = board_game_positions(player_count, hole_cards)
        self._hole_cards = hole_cards
        self._hole_counts = [0] * player_count
        self._board_count = 0
        self._boards = second_board
        self._second_count = 0
        self._lines = 0

    def hole(self, deal: DealHole) -> None:
        j = deal.player
        k = self._hole_counts[j]
        end = k + len(deal.cards)
        if end > self._hole_cards:
            raise PhhError(f"{player_label(j)} is dealt more than {self._hole_cards} cards")
        self._placement.put(self._hole[j][k:end], deal.cards)
        self._hole_counts[j] = end

    def hole_pair(self, j: int, first: Card, second: Card) -> None:
        """Both known hole cards of position ``j`` at once (the usual ``d dh`` line)."""
        placement = self._placement
        placed = placement.placed
        if (
            self._hole_counts[j]
            or placed[first]
            or placed[second]
            or first == second
            or self._hole_cards != HOLDEM_HOLE_CARDS
        ):
            self.hole(DealHole(j, (first, second)))  # the general path names the error
            return
        hole = self._hole[j]
        placement.cards[hole[0]] = first
        placement.cards[hole[1]] = second
        placed[first] = placed[second] = True
        self._hole_counts[j] = HOLDEM_HOLE_CARDS

    def board(self, deal: DealBoard) -> None:
        b = self._board_count
        self._lines += 1
        second = self._boards
        if second and (self._lines % 2 == 0 if second == "double" else b == HOLDEM_BOARD_CARDS):
            k = self._second_count
            end = k + len(deal.cards)
            if end > HOLDEM_BOARD_CARDS:
                raise PhhError("more than 5 cards on the second board")
            start = self._board[0]
            positions = [second_board_position(start, i) for i in range(k, end)]
            self._placement.put(positions, deal.cards)
            self._second_count = end
            return
        end = b + len(deal.cards)
        if end > HOLDEM_BOARD_CARDS:
            raise PhhError("more than 5 board cards")
        self._placement.put(self._board[b:end], deal.cards)
        self._board_count = end

    def deck(self) -> tuple[Card, ...]:
        return self._placement.deck()


def holdem_deck(
    actions: Sequence[PhhAction], player_count: int, hole_cards: int = HOLDEM_HOLE_CARDS
) -> tuple[Card, ...]:
    """The deck of a board game's hand from its parsed lines (see :class:`HoldemDealing`)."""
    dealing = HoldemDealing(player_count, hole_cards)
    for action in actions:
        if isinstance(action, DealHole):
            dealing.hole(action)
        elif isinstance(action, DealBoard):
            dealing.board(action)
    return dealing.deck()


def draw_deck(
    actions: Sequence[PhhAction], player_count: int
) -> tuple[tuple[Card, ...], frozenset[int]]:
    """``draw5-v1``: card k of position j at ``k*n + j``; replacements from ``5n`` on in the
    order their ``d dh`` lines appear. Also returns the positions that were unknown (``??``)
    in the file, so that unknown discards can be matched to them."""
    n = player_count
    placement = _Placement()
    first_deal = [0] * n
    replacements = 0
    for action in actions:
        if isinstance(action, DealBoard):
            raise PhhError("five-card draw has no board cards ('d db')")
        if not isinstance(action, DealHole):
            continue
        if first_deal[action.player] == 0:
            if len(action.cards) != DRAW_HAND_CARDS:
                raise PhhError(
                    f"{player_label(action.player)} must first be dealt 5 cards, "
                    f"got {len(action.cards)}"
                )
            positions = [draw_hole_position(n, action.player, k) for k in range(DRAW_HAND_CARDS)]
            placement.put(positions, action.cards)
            first_deal[action.player] = DRAW_HAND_CARDS
        else:
            count = len(action.cards)
            start = draw_replacement_position(n, replacements)
            placement.put(range(start, start + count), action.cards)
            replacements += count
    return placement.deck(), frozenset(placement.unknown)
