"""Hold'em hand reading from own and public cards only: made-hand strength, draws and
board texture, the vocabulary of the Easy and Normal bots."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ahiko.poker.cards import Card, rank_of, suit_of

from .cards7 import PAIR, STRAIGHT, TWO_PAIR, category, hand_value

NOTHING, WEAK_PAIR, GOOD_PAIR, STRONG, MONSTER = range(5)


@dataclass(frozen=True, slots=True)
class MadeHand:
    level: int  # NOTHING .. MONSTER
    category: int  # R-RK-01 category of the best five
    value: int


@dataclass(frozen=True, slots=True)
class Draws:
    flush_draw: bool
    open_ended: bool
    gutshot: bool
    overcards: int  # hole cards above every board card (with no pair made)

    @property
    def outs(self) -> int:
        outs = 9 if self.flush_draw else 0
        if self.open_ended:
            outs += 8 if not self.flush_draw else 6
        elif self.gutshot:
            outs += 4 if not self.flush_draw else 3
        return outs + 3 * self.overcards // 2


@dataclass(frozen=True, slots=True)
class Texture:
    paired: bool
    flush_possible: bool  # three or more of a suit on board
    flush_draw_possible: bool  # two of a suit (before the river)
    connected: int  # most board ranks inside any five-rank window
    high_card: int

    @property
    def wetness(self) -> float:
        """0 (dry: K72 rainbow) .. 1 (very coordinated)."""
        w = 0.0
        w += 0.35 if self.flush_possible else (0.2 if self.flush_draw_possible else 0.0)
        w += {0: 0.0, 1: 0.0, 2: 0.15, 3: 0.35, 4: 0.45, 5: 0.45}.get(self.connected, 0.45)
        w += 0.1 if self.paired else 0.0
        return min(1.0, w)


def _straight_ranks(ranks: set[int]) -> set[int]:
    """Ranks with the ace also counted low (-1) for wheel straights."""
    return ranks | ({-1} if 12 in ranks else set())


def made_hand(hole: Sequence[Card], board: Sequence[Card]) -> MadeHand:
    value = hand_value([*hole, *board])
    cat = category(value)
    board_cat = category(hand_value(board)) if len(board) >= 5 else _board_category(board)
    hole_ranks = sorted((rank_of(c) for c in hole), reverse=True)
    board_ranks = sorted((rank_of(c) for c in board), reverse=True)
    if cat >= STRAIGHT and cat > board_cat:
        level = MONSTER
    elif cat >= TWO_PAIR and cat > board_cat:
        level = STRONG if cat > TWO_PAIR or _both_hole_used(hole_ranks, board_ranks) else GOOD_PAIR
    elif cat >= PAIR and cat > board_cat:
        level = _pair_level(hole_ranks, board_ranks)
    else:
        level = NOTHING
    return MadeHand(level, cat, value)


def _board_category(board: Sequence[Card]) -> int:
    counts = sorted(Counter(rank_of(c) for c in board).values(), reverse=True)
    if not counts:
        return 0
    if counts[0] >= 3:
        return 3
    if counts[0] == 2:
        return TWO_PAIR if len(counts) > 1 and counts[1] == 2 else PAIR
    return 0


def _both_hole_used(hole_ranks: list[int], board_ranks: list[int]) -> bool:
    return all(r in board_ranks for r in hole_ranks) and hole_ranks[0] != hole_ranks[1]


def _pair_level(hole_ranks: list[int], board_ranks: list[int]) -> int:
    top = board_ranks[0] if board_ranks else -1
    if hole_ranks[0] == hole_ranks[1]:
        return GOOD_PAIR if hole_ranks[0] > top else WEAK_PAIR
    paired = [r for r in hole_ranks if r in board_ranks]
    if paired and paired[0] == top:
        kicker = [r for r in hole_ranks if r != top]
        return GOOD_PAIR if not kicker or kicker[0] >= 8 else WEAK_PAIR  # kicker ten or better
    return WEAK_PAIR


def draws(hole: Sequence[Card], board: Sequence[Card]) -> Draws:
    if len(board) >= 5 or not board:
        return Draws(False, False, False, 0)
    cards = [*hole, *board]
    suits = Counter(suit_of(c) for c in cards)
    flush_draw = (
        any(n == 4 and any(suit_of(h) == s for h in hole) for s, n in suits.items())
        and max(suits.values()) < 5
    )
    all_ranks = _straight_ranks({rank_of(c) for c in cards})
    board_ranks = _straight_ranks({rank_of(c) for c in board})
    open_ended = gutshot = False
    for low in range(-1, 9):
        window = set(range(low, low + 5))
        have = window & all_ranks
        if len(have) == 4 and len(window & board_ranks) < 4:
            missing = (window - have).pop()
            if missing in (low, low + 4) and low + 4 <= 12 and low >= 0:
                open_ended = True
            else:
                gutshot = True
    made = category(hand_value(cards)) if len(cards) >= 5 else 0
    top_board = max(rank_of(c) for c in board)
    over = sum(1 for c in hole if rank_of(c) > top_board) if made == 0 else 0
    if made >= STRAIGHT:
        open_ended = gutshot = flush_draw = False
    return Draws(flush_draw, open_ended, gutshot and not open_ended, over)


def texture(board: Sequence[Card]) -> Texture:
    ranks = [rank_of(c) for c in board]
    suits = Counter(suit_of(c) for c in board)
    rset = _straight_ranks(set(ranks))
    connected = max((len(set(range(lo, lo + 5)) & rset) for lo in range(-1, 9)), default=0)
    return Texture(
        paired=len(set(ranks)) < len(ranks),
        flush_possible=bool(suits) and max(suits.values()) >= 3,
        flush_draw_possible=len(board) < 5 and bool(suits) and max(suits.values()) >= 2,
        connected=connected,
        high_card=max(ranks, default=0),
    )
