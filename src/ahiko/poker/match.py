"""Between hands: where the button goes next and when a match is over."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def next_button(seats: Sequence[int], button: int) -> int:
    """The button moves one seat clockwise, to the next seat dealt in (R-HE-02, R-DR-01)."""
    if not seats:
        raise ValueError("no seats to move the button to")
    later = [s for s in seats if s > button]
    return min(later) if later else min(seats)


def match_over(hands_played: int, hands_limit: int | None, stacks: Mapping[int, int]) -> bool:
    """A match ends after its configured number of hands (R-DR-09), or when fewer than two
    players have chips left to play another hand."""
    if hands_limit is not None and hands_played >= hands_limit:
        return True
    return sum(1 for chips in stacks.values() if chips > 0) < 2
