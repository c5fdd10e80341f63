"""Pots (SPEC §3): side pots from contributions, and splitting a pot among winners.

Seats are given in "button order": the first seat after the button first. That is the order
odd chips are handed out in (R-PT-05), one chip per winner, so 23 split three ways is 8/8/7.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .fast_init import fast_constructor, fast_init


@fast_init
@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats that may win it, in button order


_new_pot = fast_constructor(Pot)  # the same objects as Pot(...), built for less


def build_pots(
    seats: Sequence[int], contributions: Sequence[int], live: Sequence[bool]
) -> list[Pot]:
    """Main pot then side pots (R-PT-01, R-PT-02).

    ``contributions[i]`` is what ``seats[i]`` put in this hand; ``live[i]`` is False once the
    seat folded (its chips stay in, it cannot win). Each distinct contribution level of a live
    seat closes a pot; chips above the highest live level (none after uncalled bets are
    returned) join the last pot.
    """
    # One length test instead of ``strict=`` in each zip below (a keyword argument costs zip a
    # dict, and this runs at every showdown).
    if not len(seats) == len(contributions) == len(live):
        raise ValueError("seats, contributions and live must have one entry per seat")
    live_levels = {c for c, alive in zip(contributions, live) if alive and c > 0}  # noqa: B905
    if len(live_levels) == 1:  # the usual case: every live seat put in the same, one pot
        (level,) = live_levels
        eligible = tuple(
            [
                s
                for s, c, alive in zip(seats, contributions, live)  # noqa: B905
                if alive and c >= level
            ]
        )
        return [_new_pot(sum(contributions), eligible)]
    levels = sorted(live_levels)
    pots: list[Pot] = []
    previous = 0
    for n, level in enumerate(levels):
        top = level if n < len(levels) - 1 else max(contributions)
        amount = sum(min(c, top) - min(c, previous) for c in contributions)
        eligible = tuple(
            s
            for s, c, alive in zip(seats, contributions, live)  # noqa: B905
            if alive and c >= level
        )
        if amount:
            pots.append(_new_pot(amount, eligible))
        previous = top
    return pots


def split_pot(amount: int, winners_in_button_order: Sequence[int]) -> dict[int, int]:
    """Equal shares; leftover chips one each from the first winner after the button (R-PT-05)."""
    count = len(winners_in_button_order)
    if count == 1:  # the usual pot: one winner takes it all
        return {winners_in_button_order[0]: amount}
    if count == 0:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(amount, count)
    return {seat: share + (1 if k < odd else 0) for k, seat in enumerate(winners_in_button_order)}
