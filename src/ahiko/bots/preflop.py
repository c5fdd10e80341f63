"""Pre-flop hand strength: the 169 starting-hand classes, their equity against one random
hand, and ranges as the top fraction of hands by that equity.

The table was produced by ``equity_vs_random_class`` (eval7 Monte Carlo, 300,000 trials per
class); ``tests/bots`` re-measures classes against it.
"""

from __future__ import annotations

import random
from functools import cache

from ahiko.poker.cards import RANKS, Card, make_card, rank_of, suit_of

from .equity import equity_vs_range, full_range

EQUITY_VS_RANDOM: dict[str, float] = {
    "AA": 0.8519,
    "KK": 0.8242,
    "QQ": 0.7997,
    "JJ": 0.7735,
    "TT": 0.7499,
    "99": 0.7190,
    "88": 0.6916,
    "AKs": 0.6692,
    "77": 0.6617,
    "AQs": 0.6616,
    "AKo": 0.6547,
    "AJs": 0.6537,
    "ATs": 0.6459,
    "AQo": 0.6440,
    "AJo": 0.6359,
    "KQs": 0.6349,
    "66": 0.6322,
    "KJs": 0.6272,
    "A9s": 0.6269,
    "ATo": 0.6268,
    "A8s": 0.6201,
    "KTs": 0.6179,
    "KQo": 0.6149,
    "A7s": 0.6083,
    "A9o": 0.6074,
    "KJo": 0.6064,
    "QJs": 0.6031,
    "55": 0.6020,
    "K9s": 0.6012,
    "A5s": 0.5998,
    "KTo": 0.5989,
    "A8o": 0.5989,
    "A6s": 0.5981,
    "QTs": 0.5956,
    "A4s": 0.5907,
    "A7o": 0.5886,
    "K8s": 0.5836,
    "A3s": 0.5832,
    "QJo": 0.5810,
    "K9o": 0.5780,
    "A6o": 0.5770,
    "K7s": 0.5768,
    "A5o": 0.5766,
    "Q9s": 0.5756,
    "A2s": 0.5744,
    "JTs": 0.5741,
    "QTo": 0.5730,
    "44": 0.5705,
    "K6s": 0.5678,
    "A4o": 0.5674,
    "K8o": 0.5601,
    "Q8s": 0.5597,
    "K5s": 0.5578,
    "A3o": 0.5569,
    "J9s": 0.5556,
    "Q9o": 0.5551,
    "JTo": 0.5519,
    "K7o": 0.5515,
    "K4s": 0.5496,
    "A2o": 0.5491,
    "Q7s": 0.5419,
    "K6o": 0.5415,
    "K3s": 0.5414,
    "T9s": 0.5404,
    "J8s": 0.5403,
    "Q6s": 0.5367,
    "33": 0.5350,
    "Q8o": 0.5348,
    "K5o": 0.5343,
    "J9o": 0.5336,
    "K2s": 0.5332,
    "Q5s": 0.5279,
    "K4o": 0.5237,
    "T8s": 0.5236,
    "J7s": 0.5236,
    "Q4s": 0.5182,
    "Q7o": 0.5170,
    "T9o": 0.5169,
    "J8o": 0.5163,
    "K3o": 0.5145,
    "Q6o": 0.5102,
    "Q3s": 0.5097,
    "98s": 0.5080,
    "T7s": 0.5069,
    "J6s": 0.5058,
    "22": 0.5041,
    "K2o": 0.5040,
    "Q5o": 0.5024,
    "Q2s": 0.5011,
    "J5s": 0.4995,
    "T8o": 0.4976,
    "J7o": 0.4968,
    "97s": 0.4920,
    "Q4o": 0.4912,
    "J4s": 0.4909,
    "T6s": 0.4898,
    "98o": 0.4825,
    "Q3o": 0.4823,
    "J3s": 0.4820,
    "87s": 0.4809,
    "T7o": 0.4792,
    "J6o": 0.4788,
    "96s": 0.4751,
    "J2s": 0.4720,
    "T5s": 0.4718,
    "Q2o": 0.4713,
    "J5o": 0.4710,
    "T4s": 0.4646,
    "J4o": 0.4618,
    "97o": 0.4616,
    "T6o": 0.4607,
    "86s": 0.4604,
    "95s": 0.4577,
    "T3s": 0.4559,
    "76s": 0.4546,
    "J3o": 0.4537,
    "87o": 0.4510,
    "T2s": 0.4480,
    "96o": 0.4473,
    "85s": 0.4459,
    "J2o": 0.4443,
    "T5o": 0.4422,
    "94s": 0.4379,
    "75s": 0.4376,
    "T4o": 0.4361,
    "93s": 0.4328,
    "86o": 0.4327,
    "65s": 0.4306,
    "84s": 0.4285,
    "T3o": 0.4259,
    "95o": 0.4258,
    "92s": 0.4241,
    "76o": 0.4236,
    "T2o": 0.4184,
    "74s": 0.4178,
    "85o": 0.4150,
    "54s": 0.4138,
    "64s": 0.4136,
    "83s": 0.4089,
    "94o": 0.4066,
    "75o": 0.4066,
    "82s": 0.4014,
    "93o": 0.3994,
    "73s": 0.3992,
    "65o": 0.3987,
    "53s": 0.3960,
    "63s": 0.3955,
    "84o": 0.3928,
    "92o": 0.3909,
    "43s": 0.3871,
    "74o": 0.3857,
    "72s": 0.3825,
    "54o": 0.3820,
    "64o": 0.3800,
    "52s": 0.3767,
    "62s": 0.3765,
    "83o": 0.3744,
    "82o": 0.3684,
    "42s": 0.3681,
    "73o": 0.3649,
    "53o": 0.3621,
    "63o": 0.3613,
    "32s": 0.3600,
    "43o": 0.3503,
    "72o": 0.3459,
    "52o": 0.3436,
    "62o": 0.3397,
    "42o": 0.3322,
    "32o": 0.3243,
}

CLASSES: tuple[str, ...] = tuple(sorted(EQUITY_VS_RANDOM, key=lambda k: -EQUITY_VS_RANDOM[k]))


def class_of(c1: Card, c2: Card) -> str:
    """ "AKs", "QJo", "77" for two hole cards."""
    r1, r2 = rank_of(c1), rank_of(c2)
    if r1 < r2:
        r1, r2 = r2, r1
    if r1 == r2:
        return RANKS[r1] * 2
    return RANKS[r1] + RANKS[r2] + ("s" if suit_of(c1) == suit_of(c2) else "o")


def strength(c1: Card, c2: Card) -> float:
    """Equity against one random hand (0.29 for 32o .. 0.85 for AA)."""
    return EQUITY_VS_RANDOM[class_of(c1, c2)]


def combos_of(cls: str) -> list[tuple[Card, Card]]:
    r1, r2 = RANKS.index(cls[0]), RANKS.index(cls[1])
    out: list[tuple[Card, Card]] = []
    for s1 in range(4):
        for s2 in range(4):
            if r1 == r2 and s2 <= s1:
                continue
            if len(cls) == 3 and (cls[2] == "s") != (s1 == s2):
                continue
            out.append((make_card(r1, s1), make_card(r2, s2)))
    return out


def _combo_count(cls: str) -> int:
    return 6 if len(cls) == 2 else (4 if cls[2] == "s" else 12)


@cache
def percentile(cls: str) -> float:
    """Share of all 1,326 combos at least as strong as this class (AA = 0.0045, 32o = 1.0)."""
    total = 0
    for c in CLASSES:
        total += _combo_count(c)
        if c == cls:
            return total / 1326
    raise KeyError(cls)


def hand_percentile(c1: Card, c2: Card) -> float:
    return percentile(class_of(c1, c2))


def equity_vs_random_class(cls: str, samples: int, rng: random.Random) -> float:
    """Monte Carlo equity of a class against one random hand (eval7, heads-up)."""
    hole = combos_of(cls)[0]
    return equity_vs_range(hole, (), full_range(), samples, rng)
