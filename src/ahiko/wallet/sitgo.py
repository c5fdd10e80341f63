"""Sit & go buy-ins in the ledger: every coin of a paid sit & go moves through it.

Each paid sit & go has a **pool** account named ``sng:<id>``, of the ledger's held-coins kind
``reserve`` (like the Bot Ahiko reserve, found by its name; a kind of its own would mean
rebuilding the ledger's table on SQLite for its CHECK constraint). Registering
moves the buy-in from the player's wallet into the pool (``sng_register``); withdrawing, or
the sit & go being cancelled, moves it back (``sng_refund``); the end pays the whole pool out
by finishing place in one transaction (``sng_payout``), leaving the pool at zero. There is no
fee: what the players put in is what the winners take. Every posting has an idempotency key,
so a retried call changes nothing twice. ``sng_payout`` takes an ``also`` writer run in the
same transaction (the finishing places are stored with the payout that follows from them).

On a cluster every posting carries the leader's fencing token (``check_fence`` on
``LEADER_FENCE``, in the posting's transaction): a leader paused past its lease has its pool
writes refused once a newer leader took over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from sqlalchemy import Connection, Engine, func, select

from ahiko.store.engine import reading
from ahiko.store.fences import LEADER_FENCE, check_fence
from ahiko.store.schema import ledger_accounts, ledger_entries, ledger_transactions
from ahiko.wallet import ledger
from ahiko.wallet.errors import InvalidRequest
from ahiko.wallet.ledger import Clock, PostingRequest, as_utc, utc_now

POOL_KIND = "reserve"
POOL_PREFIX = "sng:"


def pool_name(sng_id: str) -> str:
    name = f"{POOL_PREFIX}{sng_id}"
    if len(name) > 32:
        raise InvalidRequest(f"sit & go id {sng_id!r} is too long for a pool name")
    return name


class SitGoBank:
    """The ledger side of paid sit & go's."""

    def __init__(self, engine: Engine, clock: Clock = utc_now) -> None:
        self._engine = engine
        self._clock = clock

    def _now(self) -> datetime:
        return as_utc(self._clock())

    def _pool(self, conn: Connection, sng_id: str) -> int:
        name = pool_name(sng_id)
        found = conn.execute(
            select(ledger_accounts.c.id).where(ledger_accounts.c.name == name)
        ).scalar_one_or_none()
        if found is not None:
            return int(found)
        account = ledger.create_account(conn, POOL_KIND, self._now())
        conn.execute(
            ledger_accounts.update().where(ledger_accounts.c.id == account).values(name=name)
        )
        return account

    def _post(
        self,
        key: str,
        kind: str,
        sng_id: str,
        amount: int,
        moves: Mapping[int | None, int],
        user_id: int | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> bool:
        """One posting: ``moves`` maps a user (None: the pool) to the coins it gains. Returns
        False when ``key`` was already posted (a retry). ``also`` writes in the same
        transaction; with no coin to move (a free sit & go) only ``also`` runs."""
        ledger.require_chips(amount, "amount", allow_zero=True)
        with self._engine.begin() as conn:
            check_fence(conn, LEADER_FENCE)  # the cluster's leader only (nothing on one server)
            if ledger.find_transaction(conn, key) is not None:
                return False
            if also is not None:
                also(conn)
            if not any(moves.values()):
                return True
            pool = self._pool(conn, sng_id)
            accounts = {
                who: pool if who is None else ledger.wallet_account(conn, who) for who in moves
            }
            ledger.lock_accounts(conn, accounts.values())
            digest = ledger.request_hash(
                kind,
                {"sng": sng_id, "moves": sorted((str(who), coins) for who, coins in moves.items())},
            )
            request = PostingRequest(key, kind, digest, amount, user_id=user_id, reason=sng_id)
            movements = [(accounts[who], coins) for who, coins in moves.items() if coins]
            if movements:
                ledger.post(conn, request, movements, self._now())
            return True

    def hold(self, sng_id: str, user_id: int, amount: int, key: str) -> bool:
        """The buy-in, from the wallet into the pool (raises ``InsufficientFunds``)."""
        return self._post(
            key, "sng_register", sng_id, amount, {user_id: -amount, None: amount}, user_id
        )

    def refund(self, sng_id: str, user_id: int, amount: int, key: str) -> bool:
        """A withdrawn or cancelled registration: the buy-in back to the wallet."""
        return self._post(
            key, "sng_refund", sng_id, amount, {None: -amount, user_id: amount}, user_id
        )

    def pay(
        self,
        sng_id: str,
        prizes: Mapping[int, int],
        key: str,
        also: Callable[[Connection], None] | None = None,
    ) -> bool:
        """The pool out to the winners, all in one transaction (with ``also``)."""
        total = sum(prizes.values())
        moves: dict[int | None, int] = {None: -total}
        for user, coins in prizes.items():
            moves[user] = coins
        return self._post(key, "sng_payout", sng_id, total, moves, also=also)

    def pool_balance(self, sng_id: str) -> int:
        with reading(self._engine) as conn:
            found = conn.execute(
                select(ledger_accounts.c.balance).where(ledger_accounts.c.name == pool_name(sng_id))
            ).scalar_one_or_none()
        return 0 if found is None else int(found)

    def held_pools(self) -> dict[str, dict[int, int]]:
        """Pools still holding coins, by sit & go id: who paid how much in (registrations
        less refunds), from the ledger alone."""
        pools = ledger_accounts.alias("pools")
        with reading(self._engine) as conn:
            rows = conn.execute(
                select(
                    pools.c.name,
                    ledger_transactions.c.user_id,
                    func.sum(ledger_entries.c.amount),
                )
                .join(ledger_entries, ledger_entries.c.account_id == pools.c.id)
                .join(
                    ledger_transactions,
                    ledger_transactions.c.id == ledger_entries.c.transaction_id,
                )
                .where(
                    pools.c.kind == POOL_KIND,
                    pools.c.name.like(f"{POOL_PREFIX}%"),
                    pools.c.balance > 0,
                    ledger_transactions.c.kind.in_(("sng_register", "sng_refund")),
                )
                .group_by(pools.c.name, ledger_transactions.c.user_id)
            ).all()
        held: dict[str, dict[int, int]] = {}
        for name, user_id, coins in rows:
            if user_id is not None and coins:
                held.setdefault(str(name)[len(POOL_PREFIX) :], {})[int(user_id)] = int(coins)
        return held

    def refund_unfinished(self) -> dict[str, dict[int, int]]:
        """A previous run's sit & go's that never paid out (the process stopped while they
        registered or played): every buy-in goes back to its wallet, leaving the pools at
        zero. Returns what was refunded."""
        held = self.held_pools()
        for sng_id, paid_in in held.items():
            for user_id, coins in sorted(paid_in.items()):
                self.refund(sng_id, user_id, coins, f"sng:{sng_id}:unfinished:{user_id}")
        return held
