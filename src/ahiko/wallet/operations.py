"""Wallet operations: every coin movement of Ahiko, each one idempotent.

Each operation runs in one database transaction: it looks up its idempotency key (a retry
with the same key and content returns the first receipt and changes nothing; the same key
with other content is refused), locks the accounts it touches in id order, validates against
the locked balances, then posts. Any error leaves the database as it was."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, Row, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from ahiko.store.engine import reading
from ahiko.store.fences import check_fence
from ahiko.store.schema import ledger_accounts, ledger_transactions, participations
from ahiko.wallet import ledger
from ahiko.wallet import participations as participations_db
from ahiko.wallet.errors import (
    AlreadySeated,
    AmountOutOfRange,
    ClaimNotAvailable,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidRequest,
    ReserveUnavailable,
    WalletError,
)
from ahiko.wallet.ledger import Clock, PostingRequest, as_utc, require_chips
from ahiko.wallet.policy import (
    CLAIM_AMOUNT,
    CLAIM_BELOW,
    CLAIM_INTERVAL,
    MAX_IDEMPOTENCY_KEY_LENGTH,
    SIGNUP_GRANT,
)


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a ledger operation did. ``applied`` is False when it was a retry of an earlier
    call with the same idempotency key (nothing new was written)."""

    transaction_id: int
    key: str
    kind: str
    amount: int
    participation_id: int | None
    created_at: datetime
    applied: bool


TRANSIENT_ATTEMPTS = 3
TRANSIENT_SQLSTATES = frozenset({"40001", "40P01"})  # serialization failure, deadlock

# Work to commit together with an operation (e.g. the room's seats and hand record), run on
# its database transaction after the posting; it never runs for a replayed retry.
SameTransaction = Callable[[Connection, "Receipt"], None]


@dataclass(frozen=True, slots=True)
class AmountRange:
    """Inclusive bounds for a buy-in (an Ahiko tier's range, R-RM-10)."""

    minimum: int
    maximum: int


@dataclass(frozen=True, slots=True)
class Holdings:
    wallet: int
    in_seats: int
    next_claim_at: datetime | None  # None: no claim made yet

    @property
    def total(self) -> int:
        return self.wallet + self.in_seats


@dataclass(frozen=True, slots=True)
class _Context:
    conn: Connection
    now: datetime
    key: str
    kind: str
    digest: str

    def post(
        self,
        movements: Sequence[tuple[int, int]],
        amount: int,
        *,
        user_id: int | None = None,
        participation_id: int | None = None,
        reason: str | None = None,
    ) -> Receipt:
        request = PostingRequest(
            self.key, self.kind, self.digest, amount, user_id, participation_id, reason
        )
        transaction_id = ledger.post(self.conn, request, movements, self.now)
        return Receipt(
            transaction_id, self.key, self.kind, amount, participation_id, self.now, True
        )


def open_wallet(conn: Connection, user_id: int, now: datetime) -> Receipt:
    """Creates a new user's wallet with the sign-up grant, on the caller's transaction (so the
    user and the wallet are created together)."""
    wallet_id = ledger.create_account(conn, "wallet", now, user_id=user_id)
    mint_id = ledger.system_account(conn, ledger.MINT)
    kind = "signup"
    key = f"signup:{user_id}"
    context = _Context(conn, now, key, kind, ledger.request_hash(kind, {"user": user_id}))
    return context.post(
        [(mint_id, -SIGNUP_GRANT), (wallet_id, SIGNUP_GRANT)], SIGNUP_GRANT, user_id=user_id
    )


class Wallet:
    def __init__(self, engine: Engine, clock: Clock = ledger.utc_now) -> None:
        self._engine = engine
        self._clock = clock

    def now(self) -> datetime:
        """The wallet's clock: the time its postings and participations are stamped with."""
        return as_utc(self._clock())

    # -- the engine of every operation --------------------------------------------------

    def _run(
        self,
        key: str,
        kind: str,
        request: Mapping[str, object],
        body: Callable[[_Context], Receipt],
        also: SameTransaction | None = None,
    ) -> Receipt:
        if not isinstance(key, str) or not 0 < len(key) <= MAX_IDEMPOTENCY_KEY_LENGTH:
            raise InvalidRequest(
                f"an idempotency key must be 1–{MAX_IDEMPOTENCY_KEY_LENGTH} characters"
            )
        if not key.isprintable():
            # NUL and other control characters: PostgreSQL cannot even store a NUL.
            raise InvalidRequest("an idempotency key must not contain control characters")
        digest = ledger.request_hash(kind, request)
        try:
            for attempt in range(1, TRANSIENT_ATTEMPTS + 1):
                try:
                    with self._engine.begin() as conn:
                        existing = ledger.find_transaction(conn, key)
                        if existing is not None:
                            return _replay(existing, kind, digest)
                        receipt = body(_Context(conn, as_utc(self._clock()), key, kind, digest))
                        if also is not None:
                            also(conn, receipt)
                        return receipt
                except WalletError:
                    # Refused on what it found, but a concurrent call with the same key may
                    # have committed meanwhile (PostgreSQL read our key's absence before
                    # waiting for that call's lock): then the answer is that call's.
                    existing = self._committed(key)
                    if existing is None:
                        raise
                    return _replay(existing, kind, digest)
                except OperationalError as error:
                    # Locks are taken in id order, so this is a safety net, not a path.
                    if attempt == TRANSIENT_ATTEMPTS or not _is_transient(error):
                        raise
            raise AssertionError("unreachable")
        except IntegrityError:
            # A concurrent call with the same key committed first (PostgreSQL blocks on the
            # unique key, then fails here): answer as a retry would.
            existing = self._committed(key)
            if existing is None:
                raise
            return _replay(existing, kind, digest)

    def _committed(self, key: str) -> Row[tuple[object, ...]] | None:
        with reading(self._engine) as conn:
            return ledger.find_transaction(conn, key)

    # -- coins in and out of the system -------------------------------------------------

    def grant(self, user_id: int, amount: int, reason: str, key: str) -> Receipt:
        """Coins from the mint to a user's wallet (an administrator's gift)."""
        require_chips(amount, "grant amount")
        reason = _require_reason(reason)

        def body(ctx: _Context) -> Receipt:
            mint_id = ledger.system_account(ctx.conn, ledger.MINT)
            wallet_id = ledger.wallet_account(ctx.conn, user_id)
            ledger.lock_accounts(ctx.conn, [mint_id, wallet_id])
            movements = [(mint_id, -amount), (wallet_id, amount)]
            return ctx.post(movements, amount, user_id=user_id, reason=reason)

        request = {"user": user_id, "amount": amount, "reason": reason}
        return self._run(key, "grant", request, body)

    def claim(self, user_id: int, key: str) -> Receipt:
        """The free claim: 1,000 coins when wallet and seats together hold fewer than 100, at
        most once every 24 hours."""

        def body(ctx: _Context) -> Receipt:
            mint_id = ledger.system_account(ctx.conn, ledger.MINT)
            wallet_id = ledger.wallet_account(ctx.conn, user_id)
            # The wallet lock serialises this user's claims, buy-ins and cash-outs.
            ledger.lock_accounts(ctx.conn, [mint_id, wallet_id])
            holdings = _holdings(ctx.conn, user_id, wallet_id)
            if holdings.total >= CLAIM_BELOW:
                raise ClaimNotAvailable(
                    f"you hold {holdings.total} coins; the free claim needs fewer than {CLAIM_BELOW}"
                )
            if holdings.next_claim_at is not None and ctx.now < holdings.next_claim_at:
                raise ClaimNotAvailable(
                    f"the next free claim is available at {holdings.next_claim_at.isoformat()}"
                )
            movements = [(mint_id, -CLAIM_AMOUNT), (wallet_id, CLAIM_AMOUNT)]
            return ctx.post(movements, CLAIM_AMOUNT, user_id=user_id)

        return self._run(key, "claim", {"user": user_id}, body)

    # -- a person at an Ahiko table -----------------------------------------------------

    def buy_in(
        self,
        user_id: int,
        room_id: str,
        seat: int,
        amount: int,
        key: str,
        limits: AmountRange | None = None,
        also: SameTransaction | None = None,
    ) -> Receipt:
        """Wallet → a new participation's escrow (R-RM-12). ``limits``: the tier's range."""
        require_chips(amount, "buy-in")
        _require_seat(seat)
        if limits is not None and not limits.minimum <= amount <= limits.maximum:
            raise AmountOutOfRange(
                f"buy-in must be between {limits.minimum} and {limits.maximum}, got {amount}"
            )

        def body(ctx: _Context) -> Receipt:
            participations_db.require_open_room(ctx.conn, room_id)
            check_fence(ctx.conn, room_id)
            wallet_id = ledger.wallet_account(ctx.conn, user_id)
            balances = ledger.lock_accounts(ctx.conn, [wallet_id])
            if (
                participations_db.open_participation_in_room(ctx.conn, room_id, user_id=user_id)
                is not None
            ):
                raise AlreadySeated("you already have a seat in this room")
            participations_db.require_free_seat(ctx.conn, room_id, seat)
            if balances[wallet_id] < amount:
                raise InsufficientFunds(
                    f"the wallet holds {balances[wallet_id]} coins; the buy-in needs {amount}"
                )
            escrow_id = ledger.create_account(ctx.conn, "escrow", ctx.now)
            participation_id = participations_db.open_participation(
                ctx.conn, ctx.now, room_id, seat, "person", user_id, escrow_id, amount
            )
            movements = [(wallet_id, -amount), (escrow_id, amount)]
            return ctx.post(movements, amount, user_id=user_id, participation_id=participation_id)

        request = {"user": user_id, "room": room_id, "seat": seat, "amount": amount}
        return self._run(key, "buy_in", request, body, also)

    def reload(
        self,
        user_id: int,
        participation_id: int,
        amount: int,
        key: str,
        max_stack: int | None = None,
        also: SameTransaction | None = None,
    ) -> Receipt:
        """Wallet → the participation's escrow, between hands (R-RM-13): the stack after the
        reload may not exceed ``max_stack`` (the tier's buy-in ceiling)."""
        require_chips(amount, "reload")

        def body(ctx: _Context) -> Receipt:
            row = participations_db.participation(ctx.conn, participation_id, user_id)
            check_fence(ctx.conn, str(row.room_id))
            wallet_id = ledger.wallet_account(ctx.conn, user_id)
            escrow_id = int(row.escrow_account_id)
            balances = ledger.lock_accounts(ctx.conn, [wallet_id, escrow_id])
            participations_db.recheck_open(ctx.conn, participation_id)
            if max_stack is not None and balances[escrow_id] + amount > max_stack:
                raise AmountOutOfRange(
                    f"a reload may bring the stack to at most {max_stack}; it is "
                    f"{balances[escrow_id]}, so at most {max(0, max_stack - balances[escrow_id])} more"
                )
            if balances[wallet_id] < amount:
                raise InsufficientFunds(
                    f"the wallet holds {balances[wallet_id]} coins; the reload needs {amount}"
                )
            ctx.conn.execute(
                update(participations)
                .where(participations.c.id == participation_id)
                .values(
                    reload_amount=participations.c.reload_amount + amount,
                    reload_count=participations.c.reload_count + 1,
                )
            )
            movements = [(wallet_id, -amount), (escrow_id, amount)]
            return ctx.post(movements, amount, user_id=user_id, participation_id=participation_id)

        request = {"user": user_id, "participation": participation_id, "amount": amount}
        return self._run(key, "reload", request, body, also)

    def cash_out(
        self,
        participation_id: int,
        key: str,
        user_id: int | None = None,
        also: SameTransaction | None = None,
    ) -> Receipt:
        """The whole escrow → the owner's wallet, closing the participation (R-RM-14, R-RM-17).
        Zero is a valid exit and is recorded (R-RM-15). ``user_id``, when given, must own it."""

        def body(ctx: _Context) -> Receipt:
            row = participations_db.participation(ctx.conn, participation_id, user_id)
            check_fence(ctx.conn, str(row.room_id))
            if row.player != "person":
                raise InvalidRequest(f"participation {participation_id} is the Bot Ahiko's")
            owner = int(row.user_id)
            wallet_id = ledger.wallet_account(ctx.conn, owner)
            escrow_id = int(row.escrow_account_id)
            amount = ledger.lock_accounts(ctx.conn, [wallet_id, escrow_id])[escrow_id]
            participations_db.recheck_open(ctx.conn, participation_id)
            participations_db.close_participation(ctx.conn, ctx.now, participation_id, amount)
            movements = [(escrow_id, -amount), (wallet_id, amount)]
            return ctx.post(movements, amount, user_id=owner, participation_id=participation_id)

        return self._run(key, "cash_out", {"participation": participation_id}, body, also)

    # -- the Bot Ahiko (R-BA-01, R-BA-02) -----------------------------------------------

    def bot_fund(
        self, room_id: str, seat: int, amount: int, key: str, also: SameTransaction | None = None
    ) -> Receipt:
        """The reserve → a new Bot Ahiko participation's escrow; ReserveUnavailable if short."""
        require_chips(amount, "bot buy-in")
        _require_seat(seat)

        def body(ctx: _Context) -> Receipt:
            participations_db.require_open_room(ctx.conn, room_id)
            check_fence(ctx.conn, room_id)
            reserve_id = ledger.system_account(ctx.conn, ledger.BOT_RESERVE)
            available = ledger.lock_accounts(ctx.conn, [reserve_id])[reserve_id]
            if available < amount:
                raise ReserveUnavailable(
                    f"the Bot Ahiko reserve holds {available} coins; the buy-in needs {amount}"
                )
            if (
                participations_db.open_participation_in_room(ctx.conn, room_id, bot=True)
                is not None
            ):
                raise AlreadySeated("the Bot Ahiko already sits in this room")
            participations_db.require_free_seat(ctx.conn, room_id, seat)
            escrow_id = ledger.create_account(ctx.conn, "escrow", ctx.now)
            participation_id = participations_db.open_participation(
                ctx.conn, ctx.now, room_id, seat, "bot_ahiko", None, escrow_id, amount
            )
            movements = [(reserve_id, -amount), (escrow_id, amount)]
            return ctx.post(movements, amount, participation_id=participation_id)

        request = {"room": room_id, "seat": seat, "amount": amount}
        return self._run(key, "bot_fund", request, body, also)

    def bot_return(
        self, participation_id: int, key: str, also: SameTransaction | None = None
    ) -> Receipt:
        """The Bot Ahiko's whole escrow back to the reserve, closing its participation."""

        def body(ctx: _Context) -> Receipt:
            row = participations_db.participation(ctx.conn, participation_id, None)
            check_fence(ctx.conn, str(row.room_id))
            if row.player != "bot_ahiko":
                raise InvalidRequest(f"participation {participation_id} is not the Bot Ahiko's")
            reserve_id = ledger.system_account(ctx.conn, ledger.BOT_RESERVE)
            escrow_id = int(row.escrow_account_id)
            amount = ledger.lock_accounts(ctx.conn, [reserve_id, escrow_id])[escrow_id]
            participations_db.recheck_open(ctx.conn, participation_id)
            participations_db.close_participation(ctx.conn, ctx.now, participation_id, amount)
            movements = [(escrow_id, -amount), (reserve_id, amount)]
            return ctx.post(movements, amount, participation_id=participation_id)

        return self._run(key, "bot_return", {"participation": participation_id}, body, also)

    def reserve_add(self, amount: int, reason: str, key: str) -> Receipt:
        """The only refill of the reserve: mint → reserve, with a reason (R-BA-02)."""
        require_chips(amount, "reserve top-up")
        reason = _require_reason(reason)

        def body(ctx: _Context) -> Receipt:
            mint_id = ledger.system_account(ctx.conn, ledger.MINT)
            reserve_id = ledger.system_account(ctx.conn, ledger.BOT_RESERVE)
            ledger.lock_accounts(ctx.conn, [mint_id, reserve_id])
            return ctx.post([(mint_id, -amount), (reserve_id, amount)], amount, reason=reason)

        return self._run(key, "reserve_add", {"amount": amount, "reason": reason}, body)

    # -- hands at an Ahiko table --------------------------------------------------------

    def settle_hand(
        self,
        room_id: str,
        deltas: Sequence[tuple[int, int]],
        key: str,
        also: SameTransaction | None = None,
    ) -> Receipt:
        """A finished hand's net result between the escrows of one table: (participation,
        signed chips) pairs that sum to zero."""
        checked: dict[int, int] = {}
        for participation_id, delta in deltas:
            if isinstance(delta, bool) or not isinstance(delta, int):
                raise InvalidRequest(f"the delta of participation {participation_id} is {delta!r}")
            if participation_id in checked:
                raise InvalidRequest(f"participation {participation_id} appears twice")
            checked[participation_id] = delta
        if sum(checked.values()) != 0:
            raise InvalidRequest(f"hand deltas must sum to zero, got {sum(checked.values())}")
        moved = sum(delta for delta in checked.values() if delta > 0)

        def body(ctx: _Context) -> Receipt:
            check_fence(ctx.conn, room_id)
            escrows: dict[int, int] = {}
            rows = participations_db.participations_of(ctx.conn, checked)  # one query
            for participation_id, found in rows.items():
                row = participations_db.checked(found, None)
                if row.room_id != room_id:
                    raise InvalidRequest(
                        f"participation {participation_id} is in room {row.room_id}, not {room_id}"
                    )
                escrows[participation_id] = int(row.escrow_account_id)
            balances = ledger.lock_accounts(ctx.conn, escrows.values())
            participations_db.recheck_all_open(ctx.conn, checked)
            for participation_id, delta in checked.items():
                if balances[escrows[participation_id]] + delta < 0:
                    raise InsufficientFunds(
                        f"participation {participation_id} holds "
                        f"{balances[escrows[participation_id]]} chips, cannot lose {-delta}"
                    )
            movements = [(escrows[pid], delta) for pid, delta in checked.items()]
            return ctx.post(movements, moved, reason=f"room {room_id}")

        request = {"room": room_id, "deltas": sorted(checked.items())}
        return self._run(key, "settle_hand", request, body, also)

    # -- reading ------------------------------------------------------------------------

    def holdings(self, user_id: int) -> Holdings:
        with reading(self._engine) as conn:
            return _holdings(conn, user_id, ledger.wallet_account(conn, user_id))

    def reserve_balance(self) -> int:
        with reading(self._engine) as conn:
            return ledger.balance(conn, ledger.system_account(conn, ledger.BOT_RESERVE))

    def participation_balance(self, participation_id: int) -> int:
        with reading(self._engine) as conn:
            row = participations_db.participation(conn, participation_id, None, allow_closed=True)
            return ledger.balance(conn, int(row.escrow_account_id))


def _is_transient(error: OperationalError) -> bool:
    """PostgreSQL's deadlock and serialization failures: the whole operation may be retried."""
    return getattr(error.orig, "sqlstate", None) in TRANSIENT_SQLSTATES


def _replay(existing: Row[tuple[object, ...]], kind: str, digest: str) -> Receipt:
    if existing.kind != kind or existing.request_hash != digest:
        raise IdempotencyConflict(  # the key names the room and the user: not shown
            f"this request key was already used for a different {existing.kind} request"
        )
    participation_id = existing.participation_id
    return Receipt(
        transaction_id=int(existing.id),
        key=str(existing.idempotency_key),
        kind=str(existing.kind),
        amount=int(existing.amount),
        participation_id=None if participation_id is None else int(participation_id),
        created_at=as_utc(existing.created_at),
        applied=False,
    )


def _require_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidRequest("a reason is required")
    return reason.strip()


def _require_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 8:
        raise InvalidRequest(f"seat must be a number from 0 to 8, got {seat!r}")


def _holdings(conn: Connection, user_id: int, wallet_id: int) -> Holdings:
    in_seats = conn.execute(
        select(func.coalesce(func.sum(ledger_accounts.c.balance), 0))
        .select_from(
            participations.join(
                ledger_accounts, ledger_accounts.c.id == participations.c.escrow_account_id
            )
        )
        .where(participations.c.user_id == user_id, participations.c.status == "open")
    ).scalar_one()
    last_claim = conn.execute(
        select(func.max(ledger_transactions.c.created_at)).where(
            ledger_transactions.c.user_id == user_id, ledger_transactions.c.kind == "claim"
        )
    ).scalar_one_or_none()
    next_claim_at = None if last_claim is None else as_utc(last_claim) + CLAIM_INTERVAL
    return Holdings(ledger.balance(conn, wallet_id), int(in_seats), next_claim_at)
