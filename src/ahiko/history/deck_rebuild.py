"""Rebuild a deck in deal-position order from the cards a hand history shows.

Known cards go where the deal layout (FAIRNESS.md, ``poker/layout.py``) puts them; unknown
cards (``??``) and positions never dealt receive the cards no line mentions, lowest first, so
the same file always gives the same deck.
"""

from __future__ import annotations

from collections.abc import Sequence

from ahiko.poker.cards import DECK_SIZE, Card, format_card
from ahiko.poker.layout import (
    DRAW_HAND_CARDS,
    HOLDEM_BOARD_CARDS,
    HOLDEM_HOLE_CARDS,
    draw_hole_position,
    draw_replacement_position,
    holdem_positions,
)

from .phh import DealBoard, DealHole, PhhAction, PhhError, player_label


class _Placement:
    def __init__(self) -> None:
        self.cards: dict[int, Card] = {}
        self.placed: set[Card] = set()
        self.unknown: set[int] = set()

    def put(self, position: int, card: Card | None) -> None:
        if card is None:
            self.unknown.add(position)
            return
        if card in self.placed:
            raise PhhError(f"card {format_card(card)} is dealt twice")
        self.cards[position] = card
        self.placed.add(card)

    def deck(self) -> tuple[Card, ...]:
        placed = self.placed
        unused = [c for c in range(DECK_SIZE) if c not in placed]
        unused.reverse()  # lowest last: pop() hands them out lowest first
        spare = unused.pop
        get = self.cards.get
        return tuple([spare() if (c := get(p)) is None else c for p in range(DECK_SIZE)])


def holdem_deck(actions: Sequence[PhhAction], player_count: int) -> tuple[Card, ...]:
    """``holdem-noburn-v1``: hole card k of position j at ``k*n + j``, board b at ``2n + b``."""
    n = player_count
    placement = _Placement()
    put = placement.put
    hole, board = holdem_positions(n)
    hole_counts = [0] * n
    board_count = 0
    for action in actions:
        if isinstance(action, DealHole):
            j = action.player
            for card in action.cards:
                k = hole_counts[j]
                if k >= HOLDEM_HOLE_CARDS:
                    raise PhhError(f"{player_label(j)} is dealt more than 2 cards")
                put(hole[j][k], card)
                hole_counts[j] = k + 1
        elif isinstance(action, DealBoard):
            for card in action.cards:
                if board_count >= HOLDEM_BOARD_CARDS:
                    raise PhhError("more than 5 board cards")
                put(board[board_count], card)
                board_count += 1
    return placement.deck()


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
            for k, card in enumerate(action.cards):
                placement.put(draw_hole_position(n, action.player, k), card)
            first_deal[action.player] = DRAW_HAND_CARDS
        else:
            for card in action.cards:
                placement.put(draw_replacement_position(n, replacements), card)
                replacements += 1
    return placement.deck(), frozenset(placement.unknown)
