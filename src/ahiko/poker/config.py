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
    """The stakes and the house options of a board game's hand (hold'em, Omaha).

    ``straddle``: a third blind of that amount (0: none; pokerkit's and PHH's third
    ``blinds_or_straddles`` entry, usually twice the big blind), posted by the seat left of
    the big blind, or by the button when ``straddle_button`` (the Mississippi straddle). A
    voluntary straddle is the room asking that seat before the deal: a hand whose seat took
    it is dealt with the straddle, else without. ``run_twice``: when every player still in
    is all-in before the river, each is asked; if all agree the rest of the board is dealt a
    second time and each pot split between the two run-outs. ``boards``: 2 deals two boards,
    each pot split between them. ``bomb_pot``: every player antes this amount instead of the
    blinds, nobody bets pre-flop and the flop comes at once. ``seven_deuce``: a player who
    wins a pot with 7-2 and shows it collects this much from every other player dealt in
    (hold'em only). All 0 (one board): a plain hand, its log as it always was."""

    small_blind: int
    big_blind: int
    ante: int = 0
    straddle: int = 0
    straddle_button: int = 0
    run_twice: int = 0
    boards: int = 1
    bomb_pot: int = 0
    seven_deuce: int = 0

    def __post_init__(self) -> None:
        _whole(
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            straddle=self.straddle,
            straddle_button=self.straddle_button,
            run_twice=self.run_twice,
            boards=self.boards,
            bomb_pot=self.bomb_pot,
            seven_deuce=self.seven_deuce,
        )
        if not (0 < self.small_blind <= self.big_blind) or self.ante < 0:
            raise ValueError("blinds must satisfy 0 < small <= big, ante >= 0")
        if self.straddle < 0 or 0 < self.straddle < self.big_blind:
            raise ValueError("a straddle is at least the big blind (or 0: no straddle)")
        if self.straddle_button not in (0, 1) or self.run_twice not in (0, 1):
            raise ValueError("straddle_button and run_twice are 0 (off) or 1 (on)")
        if self.straddle_button and not self.straddle:
            raise ValueError("a button straddle needs a straddle amount")
        if self.boards not in (1, 2):
            raise ValueError(f"a hand is played on 1 or 2 boards, got {self.boards}")
        if self.boards == 2 and self.run_twice:
            raise ValueError("a double-board hand is not run twice")
        if self.bomb_pot < 0 or self.seven_deuce < 0:
            raise ValueError("a bomb pot's ante and the seven-deuce bounty are not negative")
        if self.bomb_pot and self.straddle:
            raise ValueError("a bomb pot has no blinds, so no straddle")

    def stakes(self) -> dict[str, int]:
        """The stakes as a hand's log and view carry them (an option only if it is on, so
        hands without one read as they always did)."""
        values = {"small_blind": self.small_blind, "big_blind": self.big_blind, "ante": self.ante}
        # Every hand's log asks, and most tables turn no option on: the options of
        # ``_OPTIONS`` at their plain values, read as slots, cost a tenth of the loop below.
        if not (
            self.straddle
            or self.straddle_button
            or self.run_twice
            or self.boards != 1
            or self.bomb_pot
            or self.seven_deuce
        ):
            return values
        for name in _OPTIONS:
            value = getattr(self, name)
            if value != _PLAIN.get(name, 0):
                values[name] = value
        return values


_OPTIONS = ("straddle", "straddle_button", "run_twice", "boards", "bomb_pot", "seven_deuce")
_PLAIN = {"boards": 1}  # an option's value in a plain hand, when not 0


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
