"""Multi-table tournaments' registration, the pure rules: which MTTs exist, who is
registered, when registration is open, what the pool pays by place.

- **The schedule**: the site keeps one upcoming MTT per ``MttSpec`` (by default one free
  one), starting ``every`` minutes after it opened. At its start time it starts when two or
  more are registered; otherwise its start moves ``every`` minutes on (the registrations
  kept). When one starts, the next of its spec opens at once.
- **A host's MTT** (``create``): a signed-in player opens one with a name, a buy-in, a
  start time and, if they like, blind levels by hands (``level_hands``: the blinds double
  every that many hands at each table; by default by time, the site's level minutes), and
  may start it earlier (two registered or more).
- **Registration**: until the start, and **late** while the tournament is in its first
  ``late_levels`` blind levels (the live side knows the level); unregistration until the
  start. One registration per player per MTT.
- **Cancel** (``cancelling``): the host may cancel their MTT until it starts; every buy-in
  goes back (``live_mtt_lobby``), and the MTT takes no more registrations (``cancelled``). The
  site's scheduled MTTs have no host: nobody cancels them over the API (the operator's tools
  work on the database, and an MTT lives in the server's memory). A started MTT is not
  cancelled (``already_started``): its tables play on to the payout.
- **Prizes** (``mtt_prizes``): the buy-ins added up, no fee, paid by place as the sit & go
  tables do by field size: fewer than 6 entrants → 100%; fewer than 10 → 65/35; fewer than
  20 → 50/30/20; from 20, a fifth of the field is paid, place i of k getting a share
  proportional to k − i + 1 (rounding to the winner); fewer places when the pool is too
  small to give the last of them a coin (k(k + 1)/2 coins at least: 100 entrants at 1 coin
  are paid 13 places, not 20 of which the last got nothing). A free MTT pays nothing and has no
  bubble; hand-for-hand at live tables needs ten places paid or more (45 entrants), since
  below that the bubble comes at the final table.

Refusals raise ``TournamentRefused`` with a code and change nothing: ``no_mtt`` (unknown),
``already_registered``, ``not_registered``, ``registration_closed``, ``already_started``,
``not_host``, ``not_ready``, ``bad_request``, ``cancelled`` (registering in, leaving or
starting a cancelled MTT), ``already_cancelled`` (cancelling it again, every buy-in back).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ahiko.competition.lifecycle import (
    Tournament,
    TournamentBook,
    TournamentRefused,
    TournamentStatus,
)
from ahiko.competition.sitgo import prizes
from ahiko.poker.games import HOLDEM, ForcedBet, UnknownGame, game

LATE_LEVELS = 2  # late registration during the first two blind levels
MAX_BUY_IN = 10_000
MAX_LEVEL_HANDS = 100
MTT_TABLE_SEATS = 9  # an MTT's tables seat nine (``live_mtt``)


LEDGER_KEYS = "mtt"  # its buy-ins', refunds' and payout's ledger keys begin so


@dataclass(frozen=True, slots=True)
class MttSpec:
    key: str
    name: str
    buy_in: int = 0  # coins; 0 = free

    def __post_init__(self) -> None:
        if not 0 <= self.buy_in <= MAX_BUY_IN:
            raise ValueError(f"a buy-in is 0 to {MAX_BUY_IN} coins")


SCHEDULE: tuple[MttSpec, ...] = (MttSpec("mtt-free", "Torneio grátis"),)


def prize_seats(entrants: int) -> int:
    """Which payout table a field of ``entrants`` uses (``sitgo.PAYOUTS`` by size)."""
    return 2 if entrants < 6 else 6 if entrants < 10 else 9


def mtt_prizes(pool: int, entrants: int) -> list[int]:
    """The pool split by place, best first; sums to ``pool`` (empty for a free MTT)."""
    if not pool:
        return []
    if entrants < 20:
        return prizes(pool, prize_seats(entrants))
    k = entrants // 5
    while k > 1 and k * (k + 1) // 2 > pool:  # the last paid place gets a coin at least
        k -= 1
    total = k * (k + 1) // 2
    paid = [pool * (k - i) // total for i in range(k)]
    paid[0] += pool - sum(paid)
    return paid


@dataclass
class Mtt(Tournament):
    id: str
    name: str
    buy_in: int
    starts_at: datetime
    spec: str | None = None  # the schedule's spec key; None: a host's MTT
    host: int | None = None
    level_hands: int | None = None  # blinds double every that many hands; None: by time
    variant: str = HOLDEM.name  # the game its tables deal (``ahiko.poker.games``)
    late: list[int] = field(default_factory=list)  # those of them registered after the start

    @property
    def pool(self) -> int:
        return self.buy_in * len(self.entrants)

    @property
    def paid_places(self) -> int:
        return len(mtt_prizes(self.pool, len(self.entrants)))

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "buy_in": self.buy_in,
            "starts_at": self.starts_at.isoformat(),
            "status": self.status.value,
            "registered": len(self.entrants),
            "pool": self.pool,
            "prizes": mtt_prizes(self.pool, len(self.entrants)),
            "host": self.host,
            "scheduled": self.spec is not None,
            # The site's schedule names its MTTs by key: a page words them in its language.
            "spec": self.spec,
            "level_hands": self.level_hands,
            "variant": self.variant,
        }


class MttLobby(TournamentBook[Mtt]):
    """Every MTT of this node: the scheduled, the hosts', the running and the ended. Its
    schedule: an MTT starts at its time (or its host's word), two registered or more."""

    missing = "no_mtt"
    ledger = LEDGER_KEYS

    def __init__(
        self,
        clock: Callable[[], datetime],
        every_minutes: float,
        specs: tuple[MttSpec, ...] = SCHEDULE,
        prefix: str = "",
    ) -> None:
        if every_minutes <= 0:
            raise ValueError("MTTs are scheduled a positive number of minutes apart")
        super().__init__(clock, prefix)
        self.every = timedelta(minutes=every_minutes)
        self._specs = {spec.key: spec for spec in specs}

    def _new(self, name: str, buy_in: int, starts_at: datetime, spec: str | None) -> Mtt:
        mtt = Mtt(f"m{self.prefix}{self.next_number()}", name, buy_in, starts_at, spec)
        self.all[mtt.id] = mtt
        return mtt

    def open_scheduled(self) -> list[Mtt]:
        """Each spec without an upcoming MTT gets one, ``every`` minutes from now."""
        upcoming = {m.spec for m in self.all.values() if m.status is TournamentStatus.REGISTERING}
        starts = self.clock() + self.every
        return [
            self._new(spec.name, spec.buy_in, starts, key)
            for key, spec in self._specs.items()
            if key not in upcoming
        ]

    def create(
        self,
        host: int,
        name: str,
        buy_in: int,
        starts_in_minutes: float,
        level_hands: int | None = None,
        variant: str = HOLDEM.name,
    ) -> Mtt:
        """A host's MTT, of any game its nine-seat tables can deal with blinds (hold'em,
        Pot-Limit Omaha)."""
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise TournamentRefused("bad_request", "a tournament's name has 1 to 40 characters")
        if not 0 <= buy_in <= MAX_BUY_IN:
            raise TournamentRefused("bad_request", f"a buy-in is 0 to {MAX_BUY_IN} coins")
        if not 1 <= starts_in_minutes <= 24 * 60:
            raise TournamentRefused("bad_request", "a tournament starts in 1 minute to 24 hours")
        if level_hands is not None and not 1 <= level_hands <= MAX_LEVEL_HANDS:
            raise TournamentRefused("bad_request", f"a level lasts 1 to {MAX_LEVEL_HANDS} hands")
        try:
            played = game(variant)
        except UnknownGame as exc:
            raise TournamentRefused("bad_request", str(exc)) from None
        if ForcedBet.BLINDS not in played.forced_bets or played.max_players < MTT_TABLE_SEATS:
            raise TournamentRefused(
                "bad_request",
                f"a multi-table tournament deals a game with blinds at {MTT_TABLE_SEATS} seats",
            )
        starts = self.clock() + timedelta(minutes=starts_in_minutes)
        mtt = self._new(name, buy_in, starts, None)
        mtt.host = host
        mtt.level_hands = level_hands
        mtt.variant = played.name
        return mtt

    def listing(self) -> list[Mtt]:
        """Those still registering or running, soonest first; then the last ended."""
        live = [
            m
            for m in self.all.values()
            if m.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
        ]
        ended = [m for m in self.all.values() if m not in live][-5:]
        return (
            sorted(live, key=lambda m: (m.status is TournamentStatus.REGISTERING, m.starts_at))
            + ended
        )

    # --- registration -------------------------------------------------------------------------
    def admission(self, mtt_id: str, user_id: int, late_open: bool) -> tuple[Mtt, int]:
        """The first step of a registration, nothing changed: the MTT and the number of this
        registration (its buy-in's ledger key). ``late_open``: a running MTT still takes
        late registrations."""
        mtt = self.get(mtt_id)
        refuse_cancelled(mtt)
        if user_id in mtt.entrants:
            raise TournamentRefused(
                "already_registered", "you are already registered in this tournament"
            )
        if mtt.status is TournamentStatus.RUNNING and not late_open:
            raise TournamentRefused("registration_closed", "late registration has closed")
        if mtt.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
            raise TournamentRefused("registration_closed", f"this tournament is {mtt.status.value}")
        return mtt, self.next_attempt(mtt.id, user_id)

    def admit(self, mtt: Mtt, user_id: int, attempt: int) -> None:
        """The second step, once the buy-in is in the pool."""
        self.admitted(mtt.id, user_id, attempt)
        mtt.entrants.append(user_id)
        if mtt.status is TournamentStatus.RUNNING:
            mtt.late.append(user_id)

    def leaving(self, mtt_id: str, user_id: int) -> Mtt:
        """The first step of an unregistration, nothing changed (a cancelled MTT's buy-ins
        are all back already)."""
        refuse_cancelled(self.get(mtt_id))
        return super().leaving(mtt_id, user_id)

    # --- start and end ------------------------------------------------------------------------
    def may_start(self, mtt: Mtt) -> bool:
        return mtt.status is TournamentStatus.REGISTERING and len(mtt.entrants) >= 2

    def postpone(self, mtt: Mtt) -> None:
        """Its start time came with fewer than two registered: ``every`` minutes later."""
        mtt.starts_at = self.clock() + self.every

    def started(self, mtt: Mtt) -> list[Mtt]:
        """``mtt`` is running; the next of its spec opens (returned)."""
        mtt.status = TournamentStatus.RUNNING
        return self.open_scheduled() if mtt.spec is not None else []

    def cancelling(self, mtt: Mtt, user_id: int) -> bool:
        """May ``user_id`` cancel ``mtt`` (raises when not)? True: it was registering and is
        cancelled now; False: a retry of a cancel some of whose refunds did not land (the
        registered still listed are to be refunded)."""
        if mtt.host is None:
            raise TournamentRefused(
                "not_host", "the site's scheduled tournaments are not cancelled"
            )
        if mtt.host != user_id:
            raise TournamentRefused("not_host", "only the tournament's host may cancel it")
        if mtt.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
            raise TournamentRefused("already_started", "a started tournament is not cancelled")
        if mtt.status is TournamentStatus.CANCELLED:
            if not mtt.entrants:
                raise TournamentRefused("already_cancelled", "the tournament is already cancelled")
            return False
        mtt.status = TournamentStatus.CANCELLED
        return True

    def prizes_of(self, tournament: Mtt) -> list[int]:
        return mtt_prizes(tournament.pool, len(tournament.entrants))


def refuse_cancelled(mtt: Mtt) -> None:
    if mtt.status is TournamentStatus.CANCELLED:
        raise TournamentRefused("cancelled", "the tournament was cancelled by its host")
