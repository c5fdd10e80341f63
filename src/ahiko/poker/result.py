"""The outcome of a finished hand."""

from __future__ import annotations

from dataclasses import dataclass

from .fast_init import fast_init
from .view_types import HandResultDict


@fast_init
@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]  # seat -> chips won from this pot


@fast_init
@dataclass(frozen=True, slots=True)
class HandResult:
    pots: tuple[PotResult, ...]  # main pot first
    net: dict[int, int]  # seat -> chips won minus chips put in (sums to zero)
    stacks: dict[int, int]  # seat -> chips after the hand
    showdown: bool  # False when everyone else folded (R-HE-10)

    def to_dict(self) -> HandResultDict:
        """JSON-native form (seat keys as strings)."""
        return {
            "pots": [
                {
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "winners": list(p.winners),
                    "shares": {str(s): v for s, v in p.shares.items()},
                }
                for p in self.pots
            ],
            "net": {str(s): v for s, v in self.net.items()},
            "stacks": {str(s): v for s, v in self.stacks.items()},
            "showdown": self.showdown,
        }
