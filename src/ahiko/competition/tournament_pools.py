"""A tournament's pool in the ledger, sit & go or multi-table: the buy-ins held, refunded and
paid out by place, every write off the event loop in the tournament's lane of the app's
``StoreWriter`` (``ahiko.wallet.sitgo.SitGoBank`` is the ledger's side).

A registration's or withdrawal's write is awaited: only once it came back is the player an
entrant (no longer one); a failed one changed nothing (``TournamentStorage``: 503, no coin
moved; a short wallet raises the wallet's own error). The payout is not awaited: it is retried
while the database is busy, stores the places in its own transaction, and one that never
lands leaves the coins in the pool, which the next start refunds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from ahiko.rooms.house.in_flight import write_refusal
from ahiko.store.tournament_places import StoredPlace, write_places
from ahiko.store.writer import Outcome, StoreWriter
from ahiko.wallet.errors import WalletError
from ahiko.wallet.sitgo import SitGoBank, pool_name

log = logging.getLogger(__name__)


class TournamentStorage(Exception):
    """A registration's or withdrawal's write came back failed: nothing changed, no coin
    moved (503 ``storage_busy`` when the database was busy, ``storage_error`` otherwise)."""

    def __init__(self, error: Exception, what: str) -> None:
        reply = write_refusal(error, what, None).reply  # the house rooms' words
        super().__init__(reply.message)
        self.code = reply.code
        self.message = reply.message


@dataclass(frozen=True, slots=True)
class Finisher:
    """One entrant's place in a tournament's final ranking."""

    place: int
    player_id: str  # the entrant's user id, in digits
    name: str


class TournamentPools:
    """The pools of one service's tournaments (``bank``), written through ``writer``."""

    def __init__(self, bank: SitGoBank, writer: StoreWriter) -> None:
        self.bank = bank
        self.writer = writer

    async def hold(self, tournament_id: str, user_id: int, amount: int, key: str) -> None:
        """A registration's buy-in, from the wallet into the pool (once it came back)."""
        await written(
            self.writer,
            pool_name(tournament_id),
            lambda: self.bank.hold(tournament_id, user_id, amount, key),
            "registration",
        )

    async def refund(
        self, tournament_id: str, user_id: int, amount: int, key: str, what: str = "withdrawal"
    ) -> None:
        """A buy-in back from the pool to the wallet (once it came back)."""
        await written(
            self.writer,
            pool_name(tournament_id),
            lambda: self.bank.refund(tournament_id, user_id, amount, key),
            what,
        )

    def pay_out(
        self,
        tournament_id: str,
        room_id: str,
        finishers: Sequence[Finisher],
        paid: dict[int, int],
        key: str,
        finished_at: datetime,
        ended: Callable[[bool], None],
    ) -> None:
        """Pays ``paid`` from the pool and stores the places of ``finishers`` under
        ``room_id``, in one ledger transaction, retried while the database is busy; ``ended``
        hears whether it landed."""
        places = [
            StoredPlace(
                room_id,
                finisher.place,
                finisher.player_id,
                int(finisher.player_id),
                finisher.name,
                paid.get(int(finisher.player_id), 0),
                tournament_id,
                len(finishers),
                finished_at,
            )
            for finisher in finishers
        ]

        def store(conn: Connection) -> None:
            write_places(conn, places)

        def job() -> bool:
            return self.bank.pay(tournament_id, paid, key, also=store)

        def done(outcome: Outcome[bool]) -> None:
            if not outcome.ok:
                log.error(
                    "tournament %s: the payout was not written; the pool keeps its coins "
                    "until the next start refunds them",
                    tournament_id,
                    exc_info=outcome.error,
                )
            ended(outcome.ok)

        self.writer.submit(pool_name(tournament_id), job, done, retry=True)


async def written(writer: StoreWriter, lane: str, job: Callable[[], bool], what: str) -> bool:
    """``job`` in ``lane`` of ``writer`` (a worker thread); its value once it came back. A
    short wallet raises its ``WalletError``, any other failure ``TournamentStorage``: nothing
    changed, no coin moved."""
    answer: asyncio.Future[Outcome[bool]] = asyncio.get_running_loop().create_future()

    def done(outcome: Outcome[bool]) -> None:
        if not answer.done():
            answer.set_result(outcome)

    writer.submit(lane, job, done)
    outcome = await answer
    if outcome.error is None:
        return bool(outcome.value)
    if isinstance(outcome.error, WalletError):  # a short wallet: refused, nothing moved
        raise outcome.error
    raise TournamentStorage(outcome.error, what)


def str_keys(values: Mapping[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in values.items()}


def detached(work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """A task whose failure is read even when nobody awaits it any more."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
    return task
