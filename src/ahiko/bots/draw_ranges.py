"""Five-card draw opponents' ranges and the Monte Carlo of the draw (Draw Hard, R-AI-07).

An opponent's range is a weighted sample library of five-card hands: each library hand
carries the cards the textbook strategy would throw. Its weight comes from the opponent's
public actions before the draw, and only hands that throw as many cards as the opponent
publicly drew are kept. The simulation deals the replacement cards from the cards we cannot
see, then weighs each outcome by how well the opponent's final hand fits its betting after
the draw. No hidden card is ever read: the library is built from a fixed-seed generator.

With an opponent's record (``DrawReads``, from ahiko.bots.memory) the weights follow what
that player has shown: a bet before the draw keeps the strongest ``bet`` share of the
library's hands (by their pre-draw strength), a call the next ``call`` share, and a bet after
the draw the strongest ``post_bet`` share of final hands. Without a record the fixed weights
below apply.
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
from .memory import OpponentStats
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
    strength: float = 1.0  # share of library hands at least as strong before the draw


READS_WEIGHT = 10.0


@dataclass(frozen=True, slots=True)
class DrawReads:
    """Shares of an opponent's hands behind its actions (by strength from the top)."""

    bet: float  # bets or raises before the draw
    call: float  # ... and calls (the bet share included)
    post_bet: float  # bets or raises after the draw, among final hands
    fold_pre: float  # folds to a bet before the draw
    fold_post: float  # folds to a bet after the draw
    fold_first: float  # ... to the first bet there
    fold_cbet: float  # ... to the first bet after the draw by the player who bet last before
    river_bluff: float  # weak hands among their bets after the draw shown down


def draw_reads(stats: OpponentStats, weight: float = READS_WEIGHT) -> DrawReads | None:
    """The record's shares, each shrunk towards its default by ``weight`` chances."""
    if stats.hands == 0:
        return None
    bet = stats.pfr_share(0.3, weight)
    vpip = stats.vpip_share(0.55, weight)
    fold_post = stats.fold_to_bet(0.35, weight)
    return DrawReads(
        bet=max(0.02, min(1.0, bet)),
        call=max(0.05, min(1.0, max(vpip, bet))),
        post_bet=max(0.02, min(1.0, stats.bet_share(0.35, weight))),
        fold_pre=stats.fold_to_raise(0.35, weight),
        fold_post=fold_post,
        fold_first=stats.fold_to_first_bet(fold_post, weight),
        fold_cbet=stats.fold_to_cbet(fold_post, weight),
        river_bluff=stats.river_bluff_share(0.15),
    )


def _cut(x: float, step: float = 0.05) -> float:
    """Reads rounded, so the weighted libraries can be cached."""
    return max(step, round(x / step) * step)


@lru_cache(maxsize=1)
def library() -> tuple[LibraryHand, ...]:
    gen = random.Random(LIBRARY_SEED)
    deck = list(range(DECK_SIZE))
    infos = [analyse(gen.sample(deck, 5)) for _ in range(LIBRARY_SIZE)]
    order = sorted(
        range(LIBRARY_SIZE),
        key=lambda i: (
            infos[i].category,
            infos[i].pair_rank,
            infos[i].is_drawing_hand,
            infos[i].value,
        ),
        reverse=True,
    )
    strength = [0.0] * LIBRARY_SIZE
    for pos, i in enumerate(order):
        strength[i] = (pos + 1) / LIBRARY_SIZE
    return tuple(
        LibraryHand(
            info.keep, info.draw_count, info.category, info.pair_rank, info.is_drawing_hand, st
        )
        for info, st in zip(infos, strength, strict=True)
    )


@lru_cache(maxsize=1)
def final_values() -> tuple[int, ...]:
    """Final-hand values after the textbook draw of each library hand, ascending."""
    gen = random.Random(LIBRARY_SEED + 1)
    out = []
    for h in library():
        rest = [c for c in range(DECK_SIZE) if c not in h.keep]
        out.append(hand_value([*h.keep, *gen.sample(rest, h.draw)]))
    return tuple(sorted(out))


def final_strength(value: int) -> float:
    """Share of final hands at least as strong as ``value`` (0 = the best)."""
    values = final_values()
    return 1.0 - bisect_left(values, value) / len(values)


def _predraw_weight(h: LibraryHand, style: str, reads: tuple[float, float] | None) -> float:
    if reads is not None:
        bet, call = reads
        if style == "raised":
            return 1.0 if h.strength <= bet else 0.08
        if style == "called":
            return 1.0 if h.strength <= call else 0.15
        return 0.4 if h.strength <= bet else 1.0
    strong = h.category >= TWO_PAIR
    good_pair = h.category == PAIR and h.pair_rank >= JACKS
    pair = h.category == PAIR
    if style == "raised":
        return 1.0 if strong else 0.8 if good_pair else 0.3 if pair else 0.25 if h.drawing else 0.06
    if style == "called":
        return 0.5 if strong else 1.0 if pair else 0.8 if h.drawing else 0.2
    return 0.3 if strong else 0.45 if good_pair else 1.0


@lru_cache(maxsize=256)
def candidates(
    style: str, draw: int | None, reads: tuple[float, float] | None = None
) -> tuple[tuple[LibraryHand, ...], tuple[float, ...]]:
    """Library hands fitting a pre-draw style and a public draw count, with cumulative weights
    (``reads``: the opponent's rounded bet and call shares)."""
    hands = tuple(h for h in library() if draw is None or h.draw == draw)
    if not hands:  # a draw count the textbook never makes (e.g. three from two pair)
        hands = library()
    cum = tuple(accumulate(_predraw_weight(h, style, reads) for h in hands))
    return hands, cum


# Heads-up, a bet after the draw made once we had checked (a "stab"), without a record: the
# checker looks weak, so such a bettor bets every pair it can and the hands that cannot win a
# showdown, not only strong ones. These weights leave about a third of the betting range
# without a pair (near the balanced bluff share b/(p+2b) of a big bet into a small pot); the
# "raised" weights, meant for a bet made into players still to act, leave about 6%.
STAB_WEIGHTS = {"two_pair": 1.0, "good_pair": 0.9, "pair": 0.7, "nothing": 0.35}


def _postdraw_weight(value: int, style: str | None, post_bet: float | None = None) -> float:
    if style is None:
        return 1.0
    if post_bet is not None and style in ("raised", "stab"):
        return 1.0 if final_strength(value) <= post_bet else 0.08
    cat = category(value)
    pair_rank = (value >> 16) & 0xF if cat == PAIR else -1
    if style == "stab":
        w = STAB_WEIGHTS
        if cat >= TWO_PAIR:
            return w["two_pair"]
        if cat == PAIR:
            return w["good_pair"] if pair_rank >= JACKS else w["pair"]
        return w["nothing"]
    if style == "raised":  # no record: a bet holds nothing a fifth as often as two pair
        return (
            1.0 if cat >= TWO_PAIR else 0.6 if pair_rank >= JACKS else 0.3 if cat == PAIR else 0.2
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


def bet_after_check(sit: Situation, seat: int, street: str) -> bool:
    """Heads-up: ``seat``'s first bet or raise on ``street`` came after we had checked."""
    if len(sit.opponents) != 1:
        return False
    checked = False
    for a in sit.actions:
        if a.street != street:
            continue
        if a.kind in AGGRESSIVE:
            return checked and a.seat == seat
        if a.kind == "check" and a.seat == sit.me:
            checked = True
    return False


def draw_equity(
    sit: Situation,
    my_keep: Sequence[Card],
    samples: int,
    rng: random.Random,
    reads: dict[int, DrawReads] | None = None,
    assume: str | None = None,
) -> float:
    """Share of the pot we win at showdown: we keep ``my_keep`` and draw up to five (nothing
    to draw after the draw), opponents drawn from their ranges and completing their draws.
    ``reads``: opponents' records; ``assume``: the pre-draw style to suppose for every
    opponent (the equity if they call a bet we are thinking of)."""
    known = set(sit.hole)
    unknown = [c for c in range(DECK_SIZE) if c not in known]
    need_mine = 5 - len(my_keep)
    after_draw = sit.street == "postdraw"
    opps = []
    for s in sit.opponents:
        drew = sit.discards.get(s)
        style = assume or style_of(sit, s, "predraw") or "checked"
        r = (reads or {}).get(s)
        cuts = (_cut(r.bet), _cut(r.call)) if r is not None else None
        hands, cum = candidates(style, drew if isinstance(drew, int) else None, cuts)
        post = style_of(sit, s, "postdraw") if after_draw else None
        if post == "raised" and bet_after_check(sit, s, "postdraw"):
            post = "stab"
        opps.append((hands, cum, post, _cut(r.post_bet) if r is not None else None))
    won = total = 0.0
    for _ in range(samples):
        used: set[Card] = set()
        finals: list[tuple[tuple[Card, ...], int, str | None, float | None]] = []
        ok = True
        for hands, cum, post, post_bet in opps:
            h = hands[bisect_left(cum, rng.random() * cum[-1])]
            if any(c in known or c in used for c in h.keep):
                ok = False
                break
            used.update(h.keep)
            finals.append((h.keep, h.draw, post, post_bet))
        if not ok:
            continue
        pool = [c for c in unknown if c not in used]
        extra = rng.sample(pool, need_mine + sum(f[1] for f in finals))
        mine = hand_value([*my_keep, *extra[:need_mine]])
        pos = need_mine
        weight = 1.0
        best_other = -1
        ties = 0
        for keep, d, post, post_bet in finals:
            v = hand_value([*keep, *extra[pos : pos + d]])
            pos += d
            weight *= _postdraw_weight(v, post, post_bet)
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
