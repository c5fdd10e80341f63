"""Five-card draw opponents' ranges and the Monte Carlo of the draw (Draw Hard, R-AI-07).

An opponent's range is a weighted sample library of five-card hands: each library hand
carries the cards the textbook strategy would throw. Its weight comes from the opponent's
public actions before the draw, and only hands that throw as many cards as the opponent
publicly drew are kept. The simulation deals the replacement cards from the cards we cannot
see, then weighs each outcome by how well the opponent's final hand fits its betting after
the draw. No hidden card is ever read: the library is built from a fixed-seed generator.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from ahiko.poker.cards import DECK_SIZE, Card

from .cards7 import PAIR, TWO_PAIR, category, hand_value
from .draw_eval import analyse
from .situation import AGGRESSIVE, Situation

LIBRARY_SIZE = 40_000
LIBRARY_SEED = 20_261_129
JACKS = 9


@dataclass(frozen=True, slots=True)
class LibraryHand:
    keep: tuple[Card, ...]
    draw: int
    category: int
    pair_rank: int
    drawing: bool


@lru_cache(maxsize=1)
def library() -> tuple[LibraryHand, ...]:
    gen = random.Random(LIBRARY_SEED)
    deck = list(range(DECK_SIZE))
    out = []
    for _ in range(LIBRARY_SIZE):
        info = analyse(gen.sample(deck, 5))
        out.append(
            LibraryHand(
                info.keep, info.draw_count, info.category, info.pair_rank, info.is_drawing_hand
            )
        )
    return tuple(out)


def _predraw_weight(h: LibraryHand, style: str) -> float:
    strong = h.category >= TWO_PAIR
    good_pair = h.category == PAIR and h.pair_rank >= JACKS
    pair = h.category == PAIR
    if style == "raised":
        return 1.0 if strong else 0.8 if good_pair else 0.3 if pair else 0.25 if h.drawing else 0.06
    if style == "called":
        return 0.5 if strong else 1.0 if pair else 0.8 if h.drawing else 0.2
    return 0.3 if strong else 0.45 if good_pair else 1.0


@lru_cache(maxsize=64)
def candidates(style: str, draw: int | None) -> tuple[tuple[LibraryHand, ...], tuple[float, ...]]:
    """Library hands fitting a pre-draw style and a public draw count, with cumulative weights."""
    hands = tuple(h for h in library() if draw is None or h.draw == draw)
    if not hands:  # a draw count the textbook never makes (e.g. three from two pair)
        hands = library()
    cum = tuple(accumulate(_predraw_weight(h, style) for h in hands))
    return hands, cum


def _postdraw_weight(value: int, style: str | None) -> float:
    if style is None:
        return 1.0
    cat = category(value)
    pair_rank = (value >> 16) & 0xF if cat == PAIR else -1
    if style == "raised":
        return (
            1.0 if cat >= TWO_PAIR else 0.6 if pair_rank >= JACKS else 0.3 if cat == PAIR else 0.08
        )
    if style == "called":
        return 0.8 if cat >= TWO_PAIR else 1.0 if cat == PAIR else 0.15
    return 0.35 if cat >= 3 else 1.0


def style_of(sit: Situation, seat: int, street: str) -> str | None:
    kinds = [a.kind for a in sit.actions if a.seat == seat and a.street == street]
    if not kinds:
        return None
    if any(k in AGGRESSIVE for k in kinds):
        return "raised"
    if "call" in kinds:
        return "called"
    return "checked"


def draw_equity(
    sit: Situation,
    my_keep: Sequence[Card],
    samples: int,
    rng: random.Random,
) -> float:
    """Share of the pot we win at showdown: we keep ``my_keep`` and draw up to five (nothing
    to draw after the draw), opponents drawn from their ranges and completing their draws."""
    known = set(sit.hole)
    unknown = [c for c in range(DECK_SIZE) if c not in known]
    need_mine = 5 - len(my_keep)
    after_draw = sit.street == "postdraw"
    opps = []
    for s in sit.opponents:
        drew = sit.discards.get(s)
        style = style_of(sit, s, "predraw") or "checked"
        hands, cum = candidates(style, drew if isinstance(drew, int) else None)
        opps.append((hands, cum, style_of(sit, s, "postdraw") if after_draw else None))
    won = total = 0.0
    for _ in range(samples):
        used: set[Card] = set()
        finals: list[tuple[tuple[Card, ...], int, str | None]] = []
        ok = True
        for hands, cum, post in opps:
            h = hands[bisect_left(cum, rng.random() * cum[-1])]
            if any(c in known or c in used for c in h.keep):
                ok = False
                break
            used.update(h.keep)
            finals.append((h.keep, h.draw, post))
        if not ok:
            continue
        pool = [c for c in unknown if c not in used]
        extra = rng.sample(pool, need_mine + sum(d for _, d, _ in finals))
        mine = hand_value([*my_keep, *extra[:need_mine]])
        pos = need_mine
        weight = 1.0
        best_other = -1
        ties = 0
        for keep, d, post in finals:
            v = hand_value([*keep, *extra[pos : pos + d]])
            pos += d
            weight *= _postdraw_weight(v, post)
            if v > best_other:
                best_other, ties = v, 1
            elif v == best_other:
                ties += 1
        total += weight
        if mine > best_other:
            won += weight
        elif mine == best_other:
            won += weight / (ties + 1)
    return won / total if total else 0.5
