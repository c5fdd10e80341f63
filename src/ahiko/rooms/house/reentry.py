"""Fair re-entry in Ahiko rooms, the card rooms' rule against "ratholing": a
person who leaves an Ahiko table and sits again at the same tier within ``REENTRY_WINDOW_S``
must bring at least the stack they left with, capped at the tier's ceiling (a stack that
had won over the ceiling needs the ceiling), and never less than the tier's minimum."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine

from ahiko.rooms.house.tiers import Tier
from ahiko.store.reentry import last_exit

REENTRY_WINDOW_S = 30 * 60.0  # sitting again at the same tier within 30 minutes


@dataclass(frozen=True, slots=True)
class Reentry:
    """The minimum a returning person must bring, and why."""

    left_with: int  # the stack they left with
    minimum: int  # what they must bring now
    until: datetime  # when the rule stops applying

    def as_dict(self) -> dict[str, object]:
        return {
            "left_with": self.left_with,
            "minimum": self.minimum,
            "until_ms": int(self.until.timestamp() * 1000),
        }


def reentry_minimum(tier: Tier, left_with: int) -> int:
    return max(tier.buy_in_min, min(left_with, tier.buy_in_max))


def reentry_for(engine: Engine, tier: Tier, user_id: int, now: datetime) -> Reentry | None:
    """The rule for ``user_id`` at ``tier`` now, or None when the usual range applies."""
    window = timedelta(seconds=REENTRY_WINDOW_S)
    exit_ = last_exit(engine, user_id, tier.key, now - window)
    if exit_ is None:
        return None
    minimum = reentry_minimum(tier, exit_.amount)
    if minimum <= tier.buy_in_min:
        return None  # left short: the usual range
    return Reentry(exit_.amount, minimum, exit_.closed_at + window)
