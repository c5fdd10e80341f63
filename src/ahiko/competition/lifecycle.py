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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Generic, TypeVar


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


@dataclass(kw_only=True)
class Tournament:
    """What every tournament keeps from registration to its end."""

    status: TournamentStatus = TournamentStatus.REGISTERING
    entrants: list[int] = field(default_factory=list)  # user ids, in registration order
    places: list[int] = field(default_factory=list)  # best first, once finished
    paid: dict[int, int] = field(default_factory=dict)
    ended_at: datetime | None = None


T = TypeVar("T", bound=Tournament)


class TournamentBook(Generic[T]):
    """One kind of tournament's registrations, start to end; each kind adds its schedule (a
    sit & go starts when its table is full, an MTT at its time) and its prize table.

    ``what`` names the kind in refusals ("sit & go", "tournament"); ``missing`` is the code
    of an unknown id; ``ledger`` begins its ledger keys."""

    what = "tournament"
    missing = "no_tournament"
    ledger = "tournament"

    def __init__(self, clock: Callable[[], datetime], prefix: str) -> None:
        self.clock = clock
        self.prefix = prefix  # a run id: ids (and their pools) are never reused
        self._numbers = 0
        self._registrations = Registrations(self.ledger)
        self.all: dict[str, T] = {}

    def next_number(self) -> int:
        self._numbers += 1
        return self._numbers

    def get(self, tournament_id: str) -> T:
        found = self.all.get(tournament_id)
        if found is None:
            raise TournamentRefused(self.missing, f"no {self.what} {tournament_id!r}")
        return found

    def prizes_of(self, tournament: T) -> list[int]:
        """The pool split by place, best first."""
        raise NotImplementedError

    def admitted(self, tournament_id: str, user_id: int, attempt: int) -> None:
        self._registrations.admitted(tournament_id, user_id, attempt)

    def next_attempt(self, tournament_id: str, user_id: int) -> int:
        return self._registrations.next_attempt(tournament_id, user_id)

    def leaving(self, tournament_id: str, user_id: int) -> T:
        """The first step of a withdrawal, nothing changed: the tournament ``user_id`` may
        leave (its refund's ledger key is ``refund_key``)."""
        tournament = self.get(tournament_id)
        if user_id not in tournament.entrants:
            raise TournamentRefused("not_registered", f"you are not registered in this {self.what}")
        if tournament.status is not TournamentStatus.REGISTERING:
            raise TournamentRefused(
                "already_started", f"the {self.what} has started: leaving is a bust"
            )
        return tournament

    def hold_key(self, tournament_id: str, user_id: int, attempt: int) -> str:
        return self._registrations.hold_key(tournament_id, user_id, attempt)

    def refund_key(self, tournament_id: str, user_id: int, attempt: int | None = None) -> str:
        return self._registrations.refund_key(tournament_id, user_id, attempt)

    def payout_key(self, tournament_id: str) -> str:
        return self._registrations.payout_key(tournament_id)

    def payout_plan(self, tournament: T, places: Sequence[int]) -> dict[int, int]:
        """The first step of the end, nothing changed: the coins each winner is to get."""
        return payout_plan(tournament.entrants, places, self.prizes_of(tournament))

    def record_end(self, tournament: T, places: Sequence[int], paid: dict[int, int]) -> None:
        """The second step, once the payout was written (``paid`` empty when it never was:
        the pool keeps the coins for the next start's refund)."""
        tournament.places = list(places)
        tournament.paid = paid
        tournament.status = TournamentStatus.FINISHED
        tournament.ended_at = self.clock()
