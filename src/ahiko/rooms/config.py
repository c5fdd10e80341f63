"""What a room is: kind, variant, table size, stakes, clocks, visibility and limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ahiko.poker.games import DRAW, HOLDEM, POT_LIMIT_OMAHA, BettingStructure, ForcedBet, Game, game
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.hand_options import HandOptions
from ahiko.rooms.names import display_text_problem
from ahiko.rooms.timebank import TimeBankPolicy
from ahiko.rooms.timing import TOURNAMENT_ACTION_DEADLINE_S, Timing

DEFAULT_SEATS = 8  # R-RM-01 / R-HE-01 (D)
DRAW_DEFAULT_HANDS = 100  # R-DR-09 D: a draw match is 100 hands unless the host says otherwise
TOURNAMENT_STARTING_CHIPS = 1000  # R-TN-02


class RoomKind(StrEnum):
    RECREATIONAL = "recreational"
    AHIKO = "ahiko"
    TOURNAMENT = "tournament"


class Variant(StrEnum):
    """A game a room deals, by its name in ``ahiko.poker.games``: the room asks the game
    (:attr:`game`) what it deals, how it bets and how many may sit."""

    HOLDEM = HOLDEM.name
    DRAW = DRAW.name
    PLO = POT_LIMIT_OMAHA.name

    @property
    def game(self) -> Game:
        return game(self.value)


class RoomConfigError(ValueError):
    """A room setting out of range; the message names it."""


class RoomNameError(RoomConfigError):
    """A room name other people may not be shown (``ahiko.rooms.names``)."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    name: str
    kind: RoomKind = RoomKind.RECREATIONAL
    variant: Variant = Variant.HOLDEM
    seats: int = DEFAULT_SEATS
    starting_chips: int = 1000
    schedule: BlindSchedule = field(
        default_factory=lambda: BlindSchedule(Stakes(small_blind=5, big_blind=10))
    )
    action_deadline_s: float | None = None  # None: no deadline (R-RM-03)
    public: bool = True  # listed in the lobby; private rooms are reached by link
    limit_hands: int | None = None  # R-RM-18
    limit_minutes: float | None = None  # R-RM-18
    tier: str | None = None  # Ahiko rooms (R-RM-10)
    timing: Timing = field(default_factory=Timing)
    time_bank: TimeBankPolicy = field(default_factory=TimeBankPolicy)
    # A table of a multi-table tournament: the tournament's id. Its seats are the
    # house's (``MoveIn``/``MoveOut``); the field's ranking and end are the tournament's.
    part_of: str | None = None
    # A home game's host: the most new entries a player may take (None: no
    # limit, R-RM-06), and whether seat requests wait for the host's approval.
    max_rebuys: int | None = None
    approve_players: bool = False
    # The home game's hand options (straddle, run it twice, bomb pots, seven-deuce): each
    # hand's engine config is built from them (``HandOptions.hand_config``).
    hand_options: HandOptions = field(default_factory=HandOptions)

    def __post_init__(self) -> None:
        problem = display_text_problem(self.name)
        if problem is not None:
            raise RoomNameError(f"name {problem}")
        played = self.variant.game
        low, top = played.min_players, played.max_players  # R-HE-01, R-DR-01
        if not low <= self.seats <= top:
            raise RoomConfigError(
                f"{self.variant} tables have {low} to {top} seats, not {self.seats}"
            )
        if self.starting_chips < 1:
            raise RoomConfigError("starting chips must be positive")
        base = self.schedule.base
        if ForcedBet.BLINDS in played.forced_bets and not 0 < base.small_blind <= base.big_blind:
            raise RoomConfigError(f"{self.variant} needs blinds with 0 < small <= big")
        if played.betting is BettingStructure.FIXED_LIMIT:
            if base.small_bet < 1 or base.ante < 0:
                raise RoomConfigError(f"{self.variant} needs a positive small bet and an ante >= 0")
            if base.big_bet < 0 or base.raise_cap < 1:
                raise RoomConfigError(
                    f"{self.variant} needs a positive big bet and a raise cap of at least 1"
                )
        if self.kind is RoomKind.TOURNAMENT and self.action_deadline_s is None:
            # R-TN-06 D: a tournament always has an action deadline; the host may change it
            object.__setattr__(self, "action_deadline_s", TOURNAMENT_ACTION_DEADLINE_S)
        if self.action_deadline_s is not None and self.action_deadline_s <= 0:
            raise RoomConfigError("an action deadline must be positive (or none)")
        if self.limit_hands is not None and self.limit_hands < 1:
            raise RoomConfigError("a hand limit must be at least 1")
        if self.limit_minutes is not None and self.limit_minutes <= 0:
            raise RoomConfigError("a time limit must be positive")
        if self.max_rebuys is not None and self.max_rebuys < 0:
            raise RoomConfigError("a rebuy limit must be 0 or more (or none)")
        if self.part_of is not None and self.kind is not RoomKind.TOURNAMENT:
            raise RoomConfigError("only a tournament table is part of a multi-table tournament")
        if self.hand_options != HandOptions() and self.kind is not RoomKind.RECREATIONAL:
            raise RoomConfigError("hand options (straddle, run it twice, ...) are a home game's")
        if self.kind is RoomKind.AHIKO and self.action_deadline_s is None:
            raise RoomConfigError("Ahiko rooms always have an action deadline")  # R-RM-11

    @property
    def has_host(self) -> bool:
        return self.kind is not RoomKind.AHIKO  # R-RM-11: Ahiko rooms have no host
