"""Sit & go's: queues that start a tournament as soon as they fill.

The lobby keeps one open queue per kind (``QUEUES``: heads-up, 6-max and 9-max hold'em, 6-max
draw, 6-max Pot-Limit Omaha; each free or with a coin buy-in). A player registers in the open queue; when it fills it
starts (``SitGo.status`` ``running``, its entrants fixed, the tournament rules R-TN-01..06 from
there) and a new queue of the same kind opens at once, so several run side by side.

Paid queues move coins only through ``ahiko.wallet.sitgo.SitGoBank``: the buy-in is escrowed
at registration and refunded on withdrawal (allowed until the start) or cancellation; at the
end the pool is paid out by finishing place (``PAYOUTS``, percentages per table size, no fee;
the coins a rounding leaves go to the best placed). Refusals raise ``TournamentRefused`` with a
code and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from sqlalchemy import Connection

from ahiko.competition.lifecycle import (
    Tournament,
    TournamentBook,
    TournamentRefused,
    TournamentStatus,
)
from ahiko.poker.games import DRAW, HOLDEM, POT_LIMIT_OMAHA, game
from ahiko.rooms.config import TOURNAMENT_STARTING_CHIPS

# Percentages of the pool by finishing place, per table size (no fee: they sum to 100).
PAYOUTS: dict[int, tuple[int, ...]] = {2: (100,), 6: (65, 35), 9: (50, 30, 20)}


LEDGER_KEYS = "sng"  # its buy-ins', refunds' and payout's ledger keys begin so


@dataclass(frozen=True, slots=True)
class SitGoSpec:
    key: str
    name: str
    variant: str  # a game's name (``ahiko.poker.games``)
    seats: int  # 2, 6 or 9
    buy_in: int = 0  # coins; 0 = free (tournament chips only)
    starting_stack: int = TOURNAMENT_STARTING_CHIPS  # R-TN-02

    def __post_init__(self) -> None:
        if self.seats not in PAYOUTS:
            raise ValueError(f"a sit & go has {sorted(PAYOUTS)} seats, not {self.seats}")
        played = game(self.variant)  # an unknown name raises, naming the games
        if not played.min_players <= self.seats <= played.max_players:
            raise ValueError(f"{self.variant} tables do not seat {self.seats}")
        if self.buy_in < 0:
            raise ValueError("a buy-in is zero or more coins")


QUEUES: tuple[SitGoSpec, ...] = (
    SitGoSpec("hu-free", "Heads-up", HOLDEM.name, 2),
    SitGoSpec("hu-100", "Heads-up 100", HOLDEM.name, 2, 100),
    SitGoSpec("6max-free", "6-max", HOLDEM.name, 6),
    SitGoSpec("6max-100", "6-max 100", HOLDEM.name, 6, 100),
    SitGoSpec("9max-free", "9-max", HOLDEM.name, 9),
    SitGoSpec("9max-200", "9-max 200", HOLDEM.name, 9, 200),
    SitGoSpec("draw6-free", "Draw 6-max", DRAW.name, 6),
    SitGoSpec("draw6-100", "Draw 6-max 100", DRAW.name, 6, 100),
    SitGoSpec("plo6-free", "PLO 6-max", POT_LIMIT_OMAHA.name, 6),
    SitGoSpec("plo6-100", "PLO 6-max 100", POT_LIMIT_OMAHA.name, 6, 100),
)


def queue_of(sng_id: str) -> SitGoSpec | None:
    """The queue a sit & go's id belongs to: ids are the queue's key, a dash, then the run's
    mark and a number ("hu-100-48fa08-2" is a "Heads-up 100")."""
    matches = [spec for spec in QUEUES if sng_id.startswith(f"{spec.key}-")]
    return max(matches, key=lambda spec: len(spec.key), default=None)


def prizes(pool: int, seats: int) -> list[int]:
    """The pool split by place (best first) for a table of ``seats``; sums to ``pool``."""
    shares = PAYOUTS[seats]
    paid = [pool * share // 100 for share in shares]
    paid[0] += pool - sum(paid)
    return paid


class Bank(Protocol):
    """What the lobby needs of the ledger (``SitGoBank``)."""

    def hold(self, sng_id: str, user_id: int, amount: int, key: str) -> bool: ...
    def refund(self, sng_id: str, user_id: int, amount: int, key: str) -> bool: ...
    def pay(
        self,
        sng_id: str,
        prizes: dict[int, int],
        key: str,
        also: Callable[[Connection], None] | None = None,
    ) -> bool: ...


@dataclass
class SitGo(Tournament):
    id: str
    spec: SitGoSpec
    opened_at: datetime
    started_at: datetime | None = None
    out: set[int] = field(default_factory=set)  # entrants already eliminated (free to go)

    @property
    def pool(self) -> int:
        return self.spec.buy_in * len(self.entrants)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "queue": self.spec.key,
            "name": self.spec.name,
            "variant": self.spec.variant,
            "seats": self.spec.seats,
            "buy_in": self.spec.buy_in,
            "status": self.status.value,
            "registered": len(self.entrants),
            "pool": self.pool,
            "prizes": prizes(self.spec.buy_in * self.spec.seats, self.spec.seats),
        }


class SitGoLobby(TournamentBook[SitGo]):
    """Every sit & go of this node: one open queue per kind, the running and the ended. Its
    schedule: a sit & go starts as soon as its table is full."""

    what = "sit & go"
    missing = "no_sitgo"
    ledger = LEDGER_KEYS

    def __init__(
        self,
        bank: Bank,
        clock: Callable[[], datetime],
        specs: Iterable[SitGoSpec] = QUEUES,
        on_start: Callable[[SitGo], None] | None = None,
        prefix: str = "",
    ) -> None:
        super().__init__(clock, prefix)
        self._bank = bank
        self._on_start = on_start
        self._specs = {spec.key: spec for spec in specs}
        self.open: dict[str, SitGo] = {key: self._open(spec) for key, spec in self._specs.items()}

    def _open(self, spec: SitGoSpec) -> SitGo:
        sng = SitGo(f"{spec.key}-{self.prefix}{self.next_number()}", spec, self.clock())
        self.all[sng.id] = sng
        return sng

    def queues(self) -> list[SitGo]:
        return [self.open[key] for key in self._specs]

    def running(self) -> list[SitGo]:
        return [s for s in self.all.values() if s.status is TournamentStatus.RUNNING]

    def playing(self, user_id: int) -> SitGo | None:
        """The sit & go ``user_id`` is registered in or playing, if any (one at a time)."""
        return next(
            (
                s
                for s in self.all.values()
                if user_id in s.entrants
                and user_id not in s.out
                and s.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
            ),
            None,
        )

    def register(self, queue: str, user_id: int) -> SitGo:
        """Registers ``user_id`` in the open sit & go of ``queue``; it starts once full."""
        sng, attempt = self.admission(queue, user_id)
        if sng.spec.buy_in:
            self._bank.hold(
                sng.id, user_id, sng.spec.buy_in, self.hold_key(sng.id, user_id, attempt)
            )
        return self.admit(sng, user_id, attempt)

    def admission(self, queue: str, user_id: int) -> tuple[SitGo, int]:
        """The first step of a registration, nothing changed: the open sit & go of ``queue``
        and the number of this registration (its buy-in's ledger key, ``hold_key``)."""
        spec = self._specs.get(queue)
        if spec is None:
            raise TournamentRefused("no_queue", f"no sit & go queue {queue!r}")
        if self.playing(user_id) is not None:
            raise TournamentRefused("already_registered", "you are already in a sit & go")
        sng = self.open[queue]
        return sng, self.next_attempt(sng.id, user_id)

    def admit(self, sng: SitGo, user_id: int, attempt: int) -> SitGo:
        """The second step, once the buy-in is in the pool: ``user_id`` is an entrant."""
        spec = sng.spec
        self.admitted(sng.id, user_id, attempt)
        sng.entrants.append(user_id)
        if len(sng.entrants) == spec.seats:
            sng.status = TournamentStatus.RUNNING
            sng.started_at = self.clock()
            self.open[spec.key] = self._open(spec)  # the next one opens as this one fills
            if self._on_start is not None:
                self._on_start(sng)
        return sng

    def withdraw(self, sng_id: str, user_id: int) -> None:
        """Before the start only: the registration is dropped and the buy-in refunded."""
        sng = self.leaving(sng_id, user_id)
        self._refund(sng, user_id)
        sng.entrants.remove(user_id)

    def cancel(self, sng_id: str) -> None:
        """A sit & go still registering is cancelled: everyone refunded, a new queue opens."""
        sng = self.get(sng_id)
        if sng.status is not TournamentStatus.REGISTERING:
            raise TournamentRefused(
                "already_started", "only a sit & go not started can be cancelled"
            )
        for user_id in list(sng.entrants):
            self._refund(sng, user_id)
        sng.status = TournamentStatus.CANCELLED
        sng.ended_at = self.clock()
        if self.open.get(sng.spec.key) is sng:
            self.open[sng.spec.key] = self._open(sng.spec)

    def _refund(self, sng: SitGo, user_id: int) -> None:
        if sng.spec.buy_in:
            self._bank.refund(sng.id, user_id, sng.spec.buy_in, self.refund_key(sng.id, user_id))

    def eliminate(self, sng_id: str, user_id: int) -> None:
        """A player busted or left (R-TN-04/05): free to register elsewhere; their place comes
        with the final ranking."""
        sng = self.get(sng_id)
        if sng.status is not TournamentStatus.RUNNING or user_id not in sng.entrants:
            raise TournamentRefused("not_playing", "that player is not in this running sit & go")
        sng.out.add(user_id)

    def finish(
        self,
        sng_id: str,
        places: Sequence[int],
        also: Callable[[Connection], None] | None = None,
    ) -> dict[int, int]:
        """The tournament's final ranking (R-TN-04, best first, every entrant once): the pool
        is paid by place; returns the coins each winner got. ``also`` writes in the payout's
        transaction (the stored places)."""
        sng = self.get(sng_id)
        paid = self.payout_plan(sng, places)
        if sng.spec.buy_in or also is not None:
            self._bank.pay(sng.id, paid, self.payout_key(sng.id), also)
        self.record_end(sng, places, paid)
        return paid

    def payout_plan(self, sng: SitGo, places: Sequence[int]) -> dict[int, int]:
        """The first step of the end, nothing changed: the coins each winner is to get."""
        if sng.status is not TournamentStatus.RUNNING:
            raise TournamentRefused("not_running", "only a running sit & go can finish")
        return super().payout_plan(sng, places)

    def prizes_of(self, tournament: SitGo) -> list[int]:
        return prizes(tournament.pool, tournament.spec.seats)
