"""The statement (Extrato): a user's wallet movements, newest first, each with the
participation it belongs to (entry, reloads, exit and net result; zero exits included,
R-RM-15).

A line's amount is what the posting did to the wallet account (its ledger entries), so its
sign and the running balance are the wallet's own; its labels come from the posting kind
(``ahiko.wallet.posting_kinds``), and a tournament's id is named by the caller's
``event_name`` (the sit & go's "Heads-up 100", not ``hu-100-48fa08-2``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, or_, select

from ahiko.store.engine import reading
from ahiko.store.paging import Page
from ahiko.store.schema import ledger_entries, ledger_transactions, participations, rooms
from ahiko.wallet import ledger
from ahiko.wallet.errors import InvalidRequest
from ahiko.wallet.ledger import as_utc
from ahiko.wallet.posting_kinds import TOURNAMENT_KINDS, PostingKind, kind_info

MAX_PER_PAGE = 100
EventNames = Callable[[str], str | None]  # a tournament's id -> its name, if known


@dataclass(frozen=True, slots=True)
class ParticipationSummary:
    """One participation (a stay at a table): what went in, what came out."""

    participation_id: int
    room_id: str
    room_name: str | None  # the name players saw ("Iniciante 1"), when the room has one
    seat: int
    status: str
    entry: int
    reloads: int
    reload_count: int
    exit: int | None
    opened_at: datetime
    closed_at: datetime | None

    @property
    def net(self) -> int | None:
        """Exit minus everything put in; None while the participation is open."""
        return None if self.exit is None else self.exit - self.entry - self.reloads

    def as_dict(self) -> dict[str, Any]:
        return {
            "participation_id": self.participation_id,
            "room_id": self.room_id,
            "room_name": self.room_name,
            "seat": self.seat,
            "status": self.status,
            "entry": self.entry,
            "reloads": self.reloads,
            "reload_count": self.reload_count,
            "exit": self.exit,
            "net": self.net,
            "opened_at": self.opened_at.isoformat(),
            "closed_at": None if self.closed_at is None else self.closed_at.isoformat(),
        }


# The participation columns participation_summary reads (besides the id); a query reading
# them joins ``rooms`` with ROOM_OF_PARTICIPATION (the room's name is in its config).
PARTICIPATION_COLUMNS = (
    participations.c.room_id,
    rooms.c.config.label("room_config"),
    participations.c.seat,
    participations.c.status,
    participations.c.entry_amount,
    participations.c.reload_amount,
    participations.c.reload_count,
    participations.c.exit_amount,
    participations.c.opened_at,
    participations.c.closed_at,
)
ROOM_OF_PARTICIPATION = rooms.c.id == participations.c.room_id


def room_name_of(config: Any) -> str | None:
    """The room's player-facing name from its stored config, if it has one."""
    name = config.get("name") if isinstance(config, dict) else None
    return name if isinstance(name, str) and name else None


def participation_summary(row: Any, participation_id: int) -> ParticipationSummary:
    """The summary of a row holding PARTICIPATION_COLUMNS."""
    return ParticipationSummary(
        participation_id=participation_id,
        room_id=str(row.room_id),
        room_name=room_name_of(row.room_config),
        seat=int(row.seat),
        status=str(row.status),
        entry=int(row.entry_amount),
        reloads=int(row.reload_amount),
        reload_count=int(row.reload_count),
        exit=None if row.exit_amount is None else int(row.exit_amount),
        opened_at=as_utc(row.opened_at),
        closed_at=None if row.closed_at is None else as_utc(row.closed_at),
    )


@dataclass(frozen=True, slots=True)
class StatementLine:
    transaction_id: int
    kind: str
    amount: int  # signed, as seen by the wallet
    created_at: datetime
    reason: str | None
    participation: ParticipationSummary | None
    balance_after: int  # the wallet's balance right after this line
    labels: dict[str, str]  # the kind's name by language ("pt-BR", "en")
    event_name: str | None = None  # the sit & go or tournament the line belongs to


StatementPage = Page[StatementLine]


def statement(
    engine: Engine,
    user_id: int,
    page: int = 1,
    per_page: int = 20,
    event_name: EventNames | None = None,
) -> StatementPage:
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise InvalidRequest(f"page must be a number from 1, got {page!r}")
    if (
        isinstance(per_page, bool)
        or not isinstance(per_page, int)
        or not 1 <= per_page <= MAX_PER_PAGE
    ):
        raise InvalidRequest(
            f"per_page must be a number from 1 to {MAX_PER_PAGE}, got {per_page!r}"
        )
    with reading(engine) as conn:
        wallet_id = ledger.wallet_account(conn, user_id)
        on_wallet = ledger_entries.c.account_id == wallet_id
        # The user's own postings (a zero exit moves nothing, R-RM-15) and every posting
        # that moved their wallet (a tournament's payout names no single user).
        mine = or_(
            ledger_transactions.c.user_id == user_id,
            ledger_transactions.c.id.in_(select(ledger_entries.c.transaction_id).where(on_wallet)),
        )
        moved = (
            select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
            .where(ledger_entries.c.transaction_id == ledger_transactions.c.id, on_wallet)
            .scalar_subquery()
            .label("wallet_moved")
        )
        query = (
            select(ledger_transactions, moved, *PARTICIPATION_COLUMNS)
            .outerjoin(
                participations, participations.c.id == ledger_transactions.c.participation_id
            )
            .outerjoin(rooms, ROOM_OF_PARTICIPATION)
            .where(mine)
            .order_by(ledger_transactions.c.id.desc())
            .limit(per_page)
            .offset((page - 1) * per_page)
        )
        total = int(
            conn.execute(
                select(func.count()).select_from(ledger_transactions).where(mine)
            ).scalar_one()
        )
        rows = conn.execute(query).all()
        # Every wallet movement is a line of this statement, so the balance after the
        # newest line on the page is today's balance less what came later.
        later = 0
        if rows:
            later = conn.execute(
                select(func.coalesce(func.sum(ledger_entries.c.amount), 0)).where(
                    on_wallet, ledger_entries.c.transaction_id > rows[0].id
                )
            ).scalar_one()
        running = ledger.balance(conn, wallet_id) - int(later)
    lines = []
    for row in rows:
        summary = None
        if row.participation_id is not None:
            summary = participation_summary(row, int(row.participation_id))
        amount = int(row.wallet_moved)
        info = kind_info(str(row.kind))
        named = None
        if PostingKind(str(row.kind)) in TOURNAMENT_KINDS and row.reason and event_name:
            named = event_name(str(row.reason))
        lines.append(
            StatementLine(
                transaction_id=int(row.id),
                kind=str(row.kind),
                amount=amount,
                created_at=as_utc(row.created_at),
                reason=row.reason,
                participation=summary,
                balance_after=running,
                labels={"pt-BR": info.pt_br, "en": info.en},
                event_name=named,
            )
        )
        running -= amount
    return Page(lines, page, per_page, total)
