"""What every tournament's registration shares, sit & go or multi-table: one lifecycle with
two schedules (a sit & go starts when its table is full, an MTT at its time).

- **Status** (``TournamentStatus``): registering, then running, then finished; or cancelled
  before the start.
- **Refusals** (``TournamentRefused``): a code and a message; nothing changed.
- **Registrations** (``Registrations``): each player's registrations in a tournament are
  counted, so that each buy-in and each refund has a ledger key of its own (a player may
  register, leave and register again) and a retry of the same write is the same key.
- **Payout plan** (``payout_plan``): the final ranking (every entrant once, best first) against
  the prize table: the coins each winner gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class TournamentRefused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class TournamentStatus(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Registrations:
    """The ledger keys of one kind of tournament's buy-ins, refunds and payouts, under
    ``kind`` ("sng", "mtt"): the keys a restart finds again, so they never change shape."""

    def __init__(self, kind: str) -> None:
        self._kind = kind
        self._attempts: dict[tuple[str, int], int] = {}  # (tournament, user) -> registrations

    def next_attempt(self, tournament_id: str, user_id: int) -> int:
        return self._attempts.get((tournament_id, user_id), 0) + 1

    def admitted(self, tournament_id: str, user_id: int, attempt: int) -> None:
        self._attempts[(tournament_id, user_id)] = attempt

    def hold_key(self, tournament_id: str, user_id: int, attempt: int) -> str:
        return f"{self._kind}:{tournament_id}:hold:{user_id}:{attempt}"

    def refund_key(self, tournament_id: str, user_id: int, attempt: int | None = None) -> str:
        """The refund of registration ``attempt`` (by default the last one admitted)."""
        if attempt is None:
            attempt = self._attempts[(tournament_id, user_id)]
        return f"{self._kind}:{tournament_id}:refund:{user_id}:{attempt}"

    def payout_key(self, tournament_id: str) -> str:
        return f"{self._kind}:{tournament_id}:payout"


def payout_plan(
    entrants: Sequence[int], places: Sequence[int], prizes: Sequence[int]
) -> dict[int, int]:
    """The coins each winner is to get: ``prizes`` (best first) by ``places`` (best first,
    every entrant once); nothing for a place the prizes do not reach."""
    if sorted(places) != sorted(entrants):
        raise TournamentRefused("bad_ranking", "the ranking must list every entrant once")
    return {user: coins for user, coins in zip(places, prizes, strict=False) if coins}
