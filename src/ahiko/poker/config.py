"""Table stakes for one hand. Room-level policy (blind schedules, seats) lives in ahiko.rooms."""

from __future__ import annotations

from dataclasses import dataclass

from .games import DRAW, HOLDEM

HOLDEM_MIN_PLAYERS = HOLDEM.min_players
HOLDEM_MAX_PLAYERS = HOLDEM.max_players  # R-HE-01
DRAW_MIN_PLAYERS = DRAW.min_players
DRAW_MAX_PLAYERS = DRAW.max_players  # R-DR-01
DRAW_MAX_DISCARDS = max(street.max_discards for street in DRAW.streets)  # R-DR-05
DRAW_DEFAULT_RAISE_CAP = 4  # R-DR-04: a bet and three raises per round


def _whole(**values: object) -> None:
    """Stakes are whole numbers of chips: an ``int``, not a bool, float or string."""
    for name, value in values.items():
        if type(value) is not int:
            raise ValueError(
                f"{name} must be a whole number of chips, got {type(value).__name__} {value!r}"
            )


@dataclass(frozen=True, slots=True)
class HoldemConfig:
    """The stakes of a board game (hold'em, Omaha). ``straddle``: a third blind, posted by
    the seat left of the big blind before the cards (0: none; pokerkit's and PHH's third
    ``blinds_or_straddles`` entry, usually twice the big blind)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    straddle: int = 0

    def __post_init__(self) -> None:
        _whole(
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            straddle=self.straddle,
        )
        if not (0 < self.small_blind <= self.big_blind) or self.ante < 0:
            raise ValueError("blinds must satisfy 0 < small <= big, ante >= 0")
        if self.straddle < 0 or 0 < self.straddle < self.big_blind:
            raise ValueError("a straddle is at least the big blind (or 0: no straddle)")

    def stakes(self) -> dict[str, int]:
        """The stakes as a hand's log and view carry them (a straddle only if there is one,
        so hands without one read as they always did)."""
        values = {"small_blind": self.small_blind, "big_blind": self.big_blind, "ante": self.ante}
        if self.straddle:
            values["straddle"] = self.straddle
        return values


@dataclass(frozen=True, slots=True)
class DrawConfig:
    ante: int
    small_bet: int
    big_bet: int = 0  # 0 means twice the small bet (R-DR-03)
    raise_cap: int = DRAW_DEFAULT_RAISE_CAP  # bets + raises per round; lifted heads-up (R-DR-04)

    def __post_init__(self) -> None:
        _whole(
            ante=self.ante,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            raise_cap=self.raise_cap,
        )
        if self.big_bet == 0:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
        if self.ante < 0 or self.small_bet <= 0 or self.big_bet <= 0 or self.raise_cap < 1:
            raise ValueError("draw stakes must be positive, ante >= 0, raise cap >= 1")
