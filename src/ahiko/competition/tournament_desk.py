"""What every tournament service of this process holds, sit & go's and MTTs alike: the rooms'
registry, the ledger's pools and their writer, the clock, the draw, the run's mark, and the
clients' idempotency keys.

- **The run's mark** (``run_prefix``): tournament ids begin with it, so a restart never reuses
  an id (nor its pool in the ledger).
- **Client keys** (``ClientKeys``): a registration carries a client's key; the same key again
  answers the first registration without moving a coin. A player who leaves loses their keys
  for that tournament: registering again with the same key is a new registration.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from random import Random
from typing import TypedDict

from sqlalchemy import Engine

from ahiko.competition.tournament_pools import TournamentPools
from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.rooms.timing import Timing
from ahiko.store.writer import StoreWriter, writer_for
from ahiko.wallet.ledger import Clock, utc_now
from ahiko.wallet.sitgo import SitGoBank


class ClientKeys:
    """(user, client key) -> the tournament that registration went to."""

    def __init__(self) -> None:
        self._tournament_of: dict[tuple[int, str], str] = {}

    def get(self, user_id: int, key: str) -> str | None:
        return self._tournament_of.get((user_id, key))

    def remember(self, user_id: int, key: str, tournament_id: str) -> None:
        self._tournament_of[(user_id, key)] = tournament_id

    def forget(self, user_id: int, tournament_id: str) -> None:
        """``user_id`` left ``tournament_id``: a later registration with a key is a new one."""
        for found in [
            pair
            for pair, registered_in in self._tournament_of.items()
            if pair[0] == user_id and registered_in == tournament_id
        ]:
            del self._tournament_of[found]


class DeskOptions(TypedDict, total=False):
    """The keywords every tournament service takes (``TournamentDesk``)."""

    clock: Clock
    timing: Timing | None
    rng: Random | None
    run_id: str | None
    writer: StoreWriter | None
    claim_room: Callable[[str], Awaitable[object]] | None


class TournamentDesk:
    """The parts every tournament service shares; each kind adds its schedule."""

    def __init__(
        self,
        registry: RoomRegistry,
        engine: Engine,
        *,
        clock: Clock = utc_now,
        timing: Timing | None = None,
        rng: Random | None = None,
        run_id: str | None = None,
        writer: StoreWriter | None = None,
        claim_room: Callable[[str], Awaitable[object]] | None = None,
    ) -> None:
        self.registry = registry
        self.engine = engine
        # On a cluster the leader claims each tournament room (a lease and a fence token,
        # ``ahiko.server.cluster.competition``) before the room exists.
        self.claim_room = claim_room
        # The ledger writes: the app's writer (worker threads), inline on a manual clock.
        self.writer: StoreWriter = writer or writer_for(isinstance(registry.clock, AsyncioClock))
        self.bank = SitGoBank(engine, clock)
        self.pools = TournamentPools(self.bank, self.writer)
        self.clock = clock
        self.timing = timing
        self.rng = rng or Random(secrets.randbits(64))
        run = run_id if run_id is not None else secrets.token_hex(3)
        self.run_prefix = f"{run}-" if run else ""
        self.client_keys = ClientKeys()
