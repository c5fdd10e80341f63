"""Five-card draw hand reading: what a hand is, which cards to throw (R-DR-05: 0 to 3) and
the draws it holds. Shared by every draw bot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ahiko.poker.cards import Card, rank_of, suit_of

from .cards7 import FLUSH, PAIR, STRAIGHT, TRIPS, TWO_PAIR, category, hand_value

MAX_DISCARDS = 3  # R-DR-05


@dataclass(frozen=True, slots=True)
class DrawHandInfo:
    value: int
    category: int
    pair_rank: int  # rank of the (highest) pair, -1 without one
    keep: tuple[Card, ...]  # cards the standard strategy keeps
    discard: tuple[Card, ...]  # cards it throws
    four_flush: bool
    open_ended: bool

    @property
    def draw_count(self) -> int:
        return len(self.discard)

    @property
    def is_drawing_hand(self) -> bool:
        """A four-flush or open-ended straight draw with nothing better than no pair."""
        return self.category == 0 and (self.four_flush or self.open_ended)


def _four_flush(hand: Sequence[Card]) -> tuple[Card, ...] | None:
    suits = Counter(suit_of(c) for c in hand)
    suit, n = suits.most_common(1)[0]
    if n == 4:
        return tuple(c for c in hand if suit_of(c) == suit)
    return None


def _open_ended(hand: Sequence[Card]) -> tuple[Card, ...] | None:
    """Four consecutive distinct ranks that can be completed at both ends (not A-2-3-4/J-Q-K-A)."""
    by_rank = {rank_of(c): c for c in hand}
    for low in range(0, 9):  # 2-3-4-5 .. T-J-Q-K
        ranks = range(low, low + 4)
        if all(r in by_rank for r in ranks) and low + 4 <= 12:
            return tuple(by_rank[r] for r in ranks)
    return None


def analyse(hand: Sequence[Card], max_discards: int = MAX_DISCARDS) -> DrawHandInfo:
    value = hand_value(hand)
    cat = category(value)
    counts = Counter(rank_of(c) for c in hand)
    paired = sorted((r for r, n in counts.items() if n >= 2), reverse=True)
    pair_rank = paired[0] if paired else -1
    flush4 = _four_flush(hand) if cat < STRAIGHT else None
    straight4 = _open_ended(hand) if cat < STRAIGHT else None
    if cat >= STRAIGHT or cat == 7:  # straight, flush, full house, quads: stand pat
        keep = tuple(hand)
    elif cat in (TRIPS, TWO_PAIR):
        keep = tuple(c for c in hand if counts[rank_of(c)] >= 2)
    elif cat == PAIR:
        keep = tuple(c for c in hand if rank_of(c) == pair_rank)
    elif flush4:
        keep = flush4
    elif straight4:
        keep = straight4
    else:
        keep = tuple(sorted(hand, key=rank_of, reverse=True)[:2])
    discard = tuple(c for c in hand if c not in keep)
    if len(discard) > max_discards:
        spare = sorted(discard, key=rank_of, reverse=True)
        keep = keep + tuple(spare[: len(discard) - max_discards])
        discard = tuple(spare[len(discard) - max_discards :])
    return DrawHandInfo(
        value=value,
        category=cat,
        pair_rank=pair_rank,
        keep=keep,
        discard=discard,
        four_flush=flush4 is not None,
        open_ended=straight4 is not None,
    )


def improvement_probability(
    hand: Sequence[Card],
    discard: Sequence[Card],
    samples: int,
    rng: random.Random,
    target: int | None = None,
) -> float:
    """Chance that throwing ``discard`` and drawing replaces the hand's category with a better
    one (a four-flush or straight draw improves only by completing; ``target`` sets the
    category to reach), by simulation over the 47 unseen cards."""
    info = analyse(hand)
    keep = [c for c in hand if c not in discard]
    unseen = [c for c in range(52) if c not in hand]
    if target is None:
        target = STRAIGHT if info.category == 0 and info.is_drawing_hand else info.category + 1
        if info.category == 0 and info.four_flush:
            target = FLUSH
    hits = 0
    for _ in range(samples):
        if category(hand_value(keep + rng.sample(unseen, len(discard)))) >= target:
            hits += 1
    return hits / samples
