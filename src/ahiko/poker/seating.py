"""Where the players of a hand sit: the seats in turn order from the first after the button."""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache


@lru_cache(maxsize=1024)
def seating(seats: tuple[int, ...], button: int) -> tuple[tuple[int, ...], dict[int, int], int]:
    """(order, index, first) of distinct int ``seats``: the seats clockwise from the first
    after the button (the button last), each seat's index in that order, and where the
    order starts in ``seats`` if they ascend (else -1). Tables deal many hands with the same
    seats and button, so this is computed once for them; the dict is shared: read-only."""
    ordered = sorted(seats)
    first = bisect_right(ordered, button)
    order = (*ordered[first:], *ordered[:first])
    index = dict(zip(order, range(len(order)), strict=True))
    return order, index, first if ordered == list(seats) else -1
