"""What an Ahiko room holds around its coin writes (``AhikoTable`` says how the
two steps go): the reserved seat or reload, the same request sent again meanwhile or later
(``AnsweredRequests``), the seat pictures drafted on the room's thread and resolved on the
worker, and what the player is told when a write comes back failed."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy.exc import OperationalError

from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.room_view import SeatFacts
from ahiko.rooms.seats import Occupant
from ahiko.store.fences import FencedOut
from ahiko.store.rooms import SeatRecord
from ahiko.store.writer import Outcome
from ahiko.wallet.errors import WalletError
from ahiko.wallet.operations import Receipt

log = logging.getLogger(__name__)

#: Told in the room when a buy-in's (a reload's, a funding's) write came back.
Finished = Callable[[Outcome[Receipt]], None]

REPLAY_MEMORY = 1024  # answered requests kept per room for idempotent retries


class AnsweredRequests:
    """The answers given to a room's last ``REPLAY_MEMORY`` keyed requests (buy-ins,
    reloads), so a retry with the same key is answered again instead of applied again."""

    def __init__(self) -> None:
        self._replies: OrderedDict[tuple[str, str, str], tuple[tuple[object, ...], Reply]] = (
            OrderedDict()
        )

    def replayed(
        self, kind: str, player_id: str, key: str, content: tuple[object, ...]
    ) -> Reply | None:
        """The answer already given to this request, marked as not applied again; the same
        key with other ``content`` is refused (409 ``idempotency_conflict``)."""
        found = self._replies.get((kind, player_id, key))
        if found is None:
            return None
        first_content, reply = found
        if first_content != content:
            raise Refusal(
                "idempotency_conflict",
                f"this request key was already used for a different {kind} request",
            )
        return Reply.accepted(**{**reply.data, "applied": False})

    def remember(
        self, kind: str, player_id: str, key: str, content: tuple[object, ...], reply: Reply
    ) -> None:
        self._replies[(kind, player_id, key)] = (content, reply)
        while len(self._replies) > REPLAY_MEMORY:
            self._replies.popitem(last=False)


def wallet_refusal(error: WalletError, rule: str | None) -> Refusal:
    return Refusal(error.code, error.message, rule)


def write_refusal(error: Exception, what: str, rule: str | None) -> Refusal:
    """Why a coin write that came back failed, for the player: nothing was moved."""
    if isinstance(error, WalletError):
        return wallet_refusal(error, rule)
    if isinstance(error, FencedOut):
        return Refusal(
            "moved",
            f"this table is now served by another server: your {what} was not written and "
            "no coin moved; open the table again",
        )
    if isinstance(error, OperationalError):
        return Refusal(
            "storage_busy",
            f"your {what} could not be written (the database is busy): no coin moved; "
            "try again in a moment",
        )
    log.error("a %s write failed", what, exc_info=error)
    return Refusal("storage_error", f"your {what} could not be written: no coin moved")


@dataclass(eq=False)
class StayRef:
    """The participation a buy-in in flight opens: set by its write, on the worker thread,
    inside the ledger transaction (None until then, or when the write failed)."""

    participation_id: int | None = None


@dataclass(eq=False)
class Waiters:
    """The same request sent again while its write is in flight (the same idempotency key):
    answered with the first one's answer, marked as not applied again."""

    key: str = ""
    content: tuple[object, ...] = ()
    waiting: list[Callable[[Reply], None]] = field(default_factory=list)

    def tell(self, answer: Reply) -> None:
        again = Reply.accepted(**{**answer.data, "applied": False}) if answer.ok else answer
        for waiter in self.waiting:
            waiter(again)
        self.waiting.clear()


@dataclass(eq=False)
class PendingSeat:
    """A seat reserved for a buy-in (or the Bot Ahiko's funding) whose write is in flight."""

    seat: int
    occupant: Occupant
    stay: StayRef
    again: Waiters = field(default_factory=Waiters)


@dataclass(eq=False)
class PendingReload:
    """A reload in flight: ``applied`` once its write is in the ledger transaction."""

    amount: int
    applied: bool = False
    again: Waiters = field(default_factory=Waiters)


@dataclass(frozen=True, slots=True)
class SeatDraft:
    """A seat as it will be stored, drafted on the room's thread; its participation (a
    buy-in in flight) and its stack (a reload in flight) are resolved on the worker."""

    seat: int
    occupant: str
    name: str
    stack: int
    user_id: int | None
    participation: int | StayRef
    reload: PendingReload | None = None

    def resolved(self) -> SeatRecord | None:
        found = self.participation
        participation_id = found if isinstance(found, int) else found.participation_id
        if participation_id is None:
            return None
        extra = self.reload.amount if self.reload is not None and self.reload.applied else 0
        return SeatRecord(
            seat=self.seat,
            occupant=self.occupant,
            name=self.name,
            stack=self.stack + extra,
            user_id=self.user_id,
            participation_id=participation_id,
        )


def resolve(drafts: Sequence[SeatDraft]) -> list[SeatRecord]:
    """The seat records to write now (on the worker thread, in the room's lane order)."""
    return [r for r in (d.resolved() for d in drafts) if r is not None]


def draft(
    seat: int, occupant: SeatFacts, participation: int | StayRef, reload: PendingReload | None
) -> SeatDraft:
    return SeatDraft(
        seat=seat,
        occupant="bot_ahiko" if occupant.is_bot else "person",
        name=occupant.name,
        stack=occupant.stack,
        user_id=None if occupant.is_bot else person_id(occupant.player_id),
        participation=participation,
        reload=reload,
    )


def person_id(player_id: str) -> int:
    """A person's account id (player ids of people are account ids as text)."""
    if not player_id.isdigit():
        raise Refusal("not_a_person", "only signed-in people may do this", "R-RM-01")
    return int(player_id)
