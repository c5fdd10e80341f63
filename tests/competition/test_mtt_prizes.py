"""Multi-table tournament prizes (issue 20, ``mtt_lobby.mtt_prizes``) for fields of 20 entrants
or more: the buy-ins added up with no fee, a fifth of the field paid, place i of k getting a
share of the pool proportional to k - i + 1 (the coins rounding leaves go to the winner).
Every paid place gets a coin at least, so the bubble (``paid_places``: hand-for-hand) is where
the coins start; a pool too small for a fifth of the field pays fewer places."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ahiko.competition.mtt_lobby import Mtt, mtt_prizes
from archive_factory import START

FIELDS = (20, 21, 24, 25, 44, 45, 99, 100, 101, 200, 333, 999, 1000)
BUY_INS = (1, 2, 3, 7, 10, 100, 250, 10_000)


def documented(pool: int, entrants: int) -> list[Fraction]:
    """The exact shares of the documented rule: the largest k up to a fifth of the field whose
    smallest share is a whole coin at least, place i (0: the winner) getting (k - i) / T."""
    k = entrants // 5
    while k > 1 and Fraction(pool, k * (k + 1) // 2) < 1:
        k -= 1
    total = k * (k + 1) // 2
    return [Fraction(pool * (k - i), total) for i in range(k)]


@pytest.mark.parametrize("entrants", FIELDS)
def test_mtt_prizes_from_20_entrants_pay_the_pool_exactly_by_place(entrants: int) -> None:
    for buy_in in BUY_INS:
        pool = buy_in * entrants
        paid = mtt_prizes(pool, entrants)
        exact = documented(pool, entrants)
        assert sum(paid) == pool, (entrants, buy_in)  # no fee, no coin left over
        assert paid == sorted(paid, reverse=True), (entrants, buy_in)  # non-increasing
        assert len(paid) == len(exact) and paid[-1] >= 1, (entrants, buy_in)
        # Every place below the winner gets its share rounded down; the winner the rest,
        # less than one coin per paid place over its own share.
        for place, (coins, share) in enumerate(zip(paid, exact, strict=True), start=1):
            if place > 1:
                assert share - 1 < coins <= share, (entrants, buy_in, place)
        assert exact[0] <= paid[0] < exact[0] + len(paid)
        mtt = Mtt("m", "MTT", buy_in, START, entrants=list(range(entrants)))
        assert mtt.paid_places == len(paid) and mtt.to_json()["prizes"] == paid


def test_mtt_prizes_a_fifth_of_the_field_when_the_pool_allows_it() -> None:
    assert mtt_prizes(2000, 20) == [800, 600, 400, 200]  # k = 4: 4/10, 3/10, 2/10, 1/10
    assert mtt_prizes(2100, 21) == [840, 630, 420, 210]  # still a fifth, rounded down
    assert mtt_prizes(2500, 25) == [835, 666, 500, 333, 166]  # 2 coins of rounding: the winner
    assert len(mtt_prizes(100 * 1000, 1000)) == 200
    assert len(mtt_prizes(1000 * 1000, 1000)) == 200
    assert mtt_prizes(0, 500) == []  # a free MTT pays nothing (and has no bubble)
    # 100 entrants at 1 coin: a fifth (20 places) would need 210 coins for a coin each; the
    # 13 places that 100 coins can pay (91 <= 100 < 105) are paid instead.
    small = mtt_prizes(100, 100)
    assert len(small) == 13 and min(small) >= 1 and sum(small) == 100
