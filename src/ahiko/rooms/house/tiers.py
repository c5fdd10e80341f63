"""The Ahiko tiers (R-RM-10): fixed blinds, a buy-in range, eight seats, no rake.

An Ahiko room is a ``RoomConfig`` of kind ``AHIKO`` built from its tier; the action deadline
is always on (R-RM-11, 20 s by default)."""

from __future__ import annotations

from dataclasses import dataclass

from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.config import DEFAULT_SEATS, RoomConfig, RoomKind, Variant
from ahiko.rooms.timing import AHIKO_ACTION_DEADLINE_S, Timing


@dataclass(frozen=True, slots=True)
class Tier:
    key: str
    name: str  # player-facing (pt-BR, as in the original)
    small_blind: int
    big_blind: int
    buy_in_min: int
    buy_in_max: int

    def allows_buy_in(self, amount: int) -> bool:
        return self.buy_in_min <= amount <= self.buy_in_max

    def as_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "name": self.name,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "buy_in_min": self.buy_in_min,
            "buy_in_max": self.buy_in_max,
        }


TIERS: tuple[Tier, ...] = (  # R-RM-10
    Tier("iniciante", "Iniciante", 1, 2, 100, 200),
    Tier("classica", "Clássica", 5, 10, 500, 1_000),
    Tier("alta", "Alta", 10, 20, 1_000, 2_000),
)
TIERS_BY_KEY = {tier.key: tier for tier in TIERS}
ROOMS_PER_TIER = 2  # R-RM-10: at least six Ahiko rooms, two per tier


def tier_of(key: str | None) -> Tier:
    if key is None or key not in TIERS_BY_KEY:
        raise KeyError(f"no Ahiko tier {key!r} (tiers: {', '.join(TIERS_BY_KEY)})")
    return TIERS_BY_KEY[key]


def ahiko_config(
    tier: Tier,
    name: str,
    *,
    action_deadline_s: float = AHIKO_ACTION_DEADLINE_S,
    timing: Timing | None = None,
) -> RoomConfig:
    """A hold'em table of ``tier``: fixed blinds, eight seats, a deadline always."""
    return RoomConfig(
        name=name,
        kind=RoomKind.AHIKO,
        variant=Variant.HOLDEM,
        seats=DEFAULT_SEATS,
        starting_chips=tier.buy_in_min,
        schedule=BlindSchedule(Stakes(small_blind=tier.small_blind, big_blind=tier.big_blind)),
        action_deadline_s=action_deadline_s,
        tier=tier.key,
        timing=timing or Timing(),
    )
