"""What the host of a home game may ask of the room beyond the "Sala" basics (start, pause,
chat, bots, close): plain, serialisable commands, answered by ``ahiko.rooms.house.host_menu``.
``player_id`` is always who asks: the room checks they are the host."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ChangeTable:
    """The blinds (and ante), the action clock, the starting chips (the buy-in and each
    rebuy), the most rebuys a player may take and the hand options, for the next hand. ``None``: unchanged;
    ``no_deadline``: the clock is removed."""

    player_id: str
    small_blind: int | None = None
    big_blind: int | None = None
    ante: int | None = None
    action_deadline_s: float | None = None
    no_deadline: bool = False
    starting_chips: int | None = None
    max_rebuys: int | None = None
    no_rebuy_limit: bool = False
    options: dict[str, Any] | None = None  # hand options to change (``rooms.hand_options``)


@dataclass(frozen=True)
class AdjustStack:
    """Add (``amount`` > 0) or remove chips from the stack at ``seat``, between hands."""

    player_id: str
    seat: int
    amount: int


@dataclass(frozen=True)
class ApprovePlayers:
    """The "approve players" option: seat requests wait for the host."""

    player_id: str
    on: bool


@dataclass(frozen=True)
class AnswerSeatRequest:
    """Seat (``approve``) or turn away the player ``target_id`` who asked for a seat."""

    player_id: str
    target_id: str
    approve: bool


@dataclass(frozen=True)
class RemovePlayer:
    """Stand the player at ``seat`` up (after their hand); they sit again only if approved."""

    player_id: str
    seat: int


@dataclass(frozen=True)
class HandOverHost:
    """Make the person at ``seat`` the host."""

    player_id: str
    seat: int


@dataclass(frozen=True)
class BombPotNext:
    """The host's "Bomb pot": the next hand is one (the room's bomb pot ante must be set)."""

    player_id: str


HostOrder = (
    ChangeTable
    | AdjustStack
    | ApprovePlayers
    | AnswerSeatRequest
    | RemovePlayer
    | HandOverHost
    | BombPotNext
)
