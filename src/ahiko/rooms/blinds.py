"""Blind schedules (R-RM-04, R-TN-03): fixed, or doubling every N hands or every N minutes.

A schedule is asked for the stakes only when a hand starts, so a change can never land in the
middle of a hand. Minutes count table time while the room is running: a pause freezes the
blinds with the clocks (R-RM-07), so the room passes the unpaused time it has measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ahiko.poker.config import DRAW_DEFAULT_RAISE_CAP, DrawConfig, HoldemConfig
from ahiko.poker.games import ForcedBet, Game

TOURNAMENT_SMALL_BLIND = 25  # R-TN-03
TOURNAMENT_BIG_BLIND = 50  # R-TN-03
TOURNAMENT_DOUBLING_HANDS = 10  # R-TN-03


class BlindIncrease(StrEnum):
    NEVER = "never"
    HANDS = "hands"
    MINUTES = "minutes"


@dataclass(frozen=True, slots=True)
class Stakes:
    """Base stakes of a room. Hold'em uses the blinds (and an optional ante); five-card
    draw uses the ante, the small bet, the big bet (0: twice the small bet, R-DR-03) and the
    cap on bets and raises per round (R-DR-04), all set by the host (R-DR-04 D)."""

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    small_bet: int = 0
    big_bet: int = 0  # draw: 0 means twice the small bet (R-DR-03)
    raise_cap: int = DRAW_DEFAULT_RAISE_CAP  # draw: a bet and three raises (R-DR-04)

    def doubled(self, times: int) -> Stakes:
        factor = 1 << times
        return Stakes(
            self.small_blind * factor,
            self.big_blind * factor,
            self.ante * factor,
            self.small_bet * factor,
            self.big_bet * factor,
            self.raise_cap,
        )

    def holdem_config(self) -> HoldemConfig:
        return HoldemConfig(small_blind=self.small_blind, big_blind=self.big_blind, ante=self.ante)

    def draw_config(self) -> DrawConfig:
        return DrawConfig(
            ante=self.ante,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            raise_cap=self.raise_cap,
        )

    def config_for(self, played: Game) -> HoldemConfig | DrawConfig:
        """The stakes a hand of ``played`` starts with: blinds for a game that posts them
        (hold'em, Omaha), the ante and the fixed bets otherwise (five-card draw)."""
        if ForcedBet.BLINDS in played.forced_bets:
            return self.holdem_config()
        return self.draw_config()

    def as_dict(self) -> dict[str, int]:
        stakes = {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "small_bet": self.small_bet,
        }
        if self.small_bet:  # draw stakes: the big bet and the cap too
            stakes["big_bet"] = self.big_bet or 2 * self.small_bet
            stakes["raise_cap"] = self.raise_cap
        return stakes


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    base: Stakes
    increase: BlindIncrease = BlindIncrease.NEVER
    every: int = 0  # hands or minutes between doublings; ignored when increase is NEVER
    max_doublings: int = 20  # keeps integers sane in endless rooms

    def __post_init__(self) -> None:
        if self.increase is not BlindIncrease.NEVER and self.every < 1:
            raise ValueError("a doubling interval must be at least 1 hand or 1 minute")

    @classmethod
    def tournament_default(cls) -> BlindSchedule:
        """25/50 doubling every 10 hands (R-TN-03)."""
        return cls(
            Stakes(small_blind=TOURNAMENT_SMALL_BLIND, big_blind=TOURNAMENT_BIG_BLIND),
            BlindIncrease.HANDS,
            TOURNAMENT_DOUBLING_HANDS,
        )

    @classmethod
    def tournament_default_for(cls, played: Game) -> BlindSchedule:
        """A tournament's stakes in ``played``: 25/50 blinds for a game that posts blinds
        (R-TN-03), or an ante of 1 and bets of 10/20 for five-card draw, both doubling every
        10 hands."""
        if ForcedBet.BLINDS in played.forced_bets:
            return cls.tournament_default()
        return cls(
            Stakes(ante=1, small_bet=10, big_bet=20),
            BlindIncrease.HANDS,
            TOURNAMENT_DOUBLING_HANDS,
        )

    def level(self, hands_started: int, running_seconds: float) -> int:
        """How many doublings apply to a hand that starts after ``hands_started`` dealt hands
        and ``running_seconds`` of unpaused play."""
        if self.increase is BlindIncrease.HANDS:
            doublings = hands_started // self.every
        elif self.increase is BlindIncrease.MINUTES:
            doublings = int(running_seconds // (self.every * 60))
        else:
            doublings = 0
        return min(doublings, self.max_doublings)

    def stakes_for_next_hand(self, hands_started: int, running_seconds: float) -> Stakes:
        return self.base.doubled(self.level(hands_started, running_seconds))

    def progress(self, hands_started: int, running_seconds: float) -> dict[str, object]:
        """Where the next hand stands in the schedule, for the table's tournament panel:
        its ``level`` (1 = the base blinds), the ``next_blinds`` and how far they are
        (``hands_to_next`` or ``seconds_to_next``; both null when the blinds stay)."""
        level = self.level(hands_started, running_seconds)
        rising = self.increase is not BlindIncrease.NEVER and level < self.max_doublings
        hands_to_next = seconds_to_next = None
        if rising and self.increase is BlindIncrease.HANDS:
            hands_to_next = self.every - hands_started % self.every
        elif rising:
            seconds_to_next = round(self.every * 60 - running_seconds % (self.every * 60), 1)
        return {
            "level": level + 1,
            "increase": self.increase.value,
            "every": self.every,
            "next_blinds": self.base.doubled(level + 1).as_dict() if rising else None,
            "hands_to_next": hands_to_next,
            "seconds_to_next": seconds_to_next,
        }
