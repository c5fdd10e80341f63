"""An Ahiko room's cash-out (R-RM-14, R-RM-15, R-RM-17, R-BA-02): a stay's whole stack back
to the wallet, or the Bot Ahiko's to the reserve, closing the participation, with the seats
as they stand and the hands the leaver's seat left unplayed, in one ledger transaction.

It is written after the seat was given up, in the room's lane of writes (``AhikoTable``),
retried while the database is busy; its coins stay in the participation's escrow
until the write lands, and an escrow whose write never lands is paid back by the next
start's recovery. The player is told (a ``wallet`` frame) either way; the leave that caused
it is answered once the write came back (``hold``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from sqlalchemy import Connection

from ahiko.rooms.house.in_flight import SeatDraft, resolve
from ahiko.rooms.house.ports import TellsOnePlayer
from ahiko.rooms.pending import ReplyHold
from ahiko.rooms.room_view import RoomView
from ahiko.store.rooms import record_unplayed_hands, write_seats
from ahiko.store.writer import Outcome
from ahiko.wallet.operations import Receipt, Wallet

log = logging.getLogger(__name__)

UNPLAYED_REASON = "a participant left before the deal (R-FD-06)"


class CashOutRoom(TellsOnePlayer, Protocol):
    """What a cash-out asks of the room: the seats as they stand (its view) to write with
    it, and the table told once the coins are back, while the room is open."""

    @property
    def room_id(self) -> str: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def view(self) -> RoomView: ...
    def emit_room(self) -> None: ...


Job = Callable[[], Receipt]


class CashOutTable(Protocol):
    """What a cash-out asks of its room's table: the wallet, the seats as stored, and the
    room's lane of writes."""

    @property
    def wallet(self) -> Wallet: ...
    def drafts(self, room: RoomView) -> list[SeatDraft]: ...
    def write_in_lane(
        self, room: RoomView, job: Job, done: Callable[[Outcome[Receipt]], None], *, retry: bool
    ) -> None: ...


def pay_out(
    table: CashOutTable,
    room: CashOutRoom,
    player_id: str,
    participation_id: int,
    is_bot: bool,
    unplayed: range,
    hold: ReplyHold | None,
) -> None:
    """Writes the stay's exit in the room's lane; ``unplayed`` are the hand numbers its
    leaving left unplayed, ``hold`` the leave's answer, released when the write is back."""
    drafts = table.drafts(room.view)
    room_id = room.room_id

    def also(conn: Connection, _receipt: Receipt) -> None:
        write_seats(conn, room_id, resolve(drafts))
        record_unplayed_hands(conn, room_id, unplayed, UNPLAYED_REASON)

    key = f"exit:{participation_id}"

    def job() -> Receipt:
        if is_bot:
            return table.wallet.bot_return(participation_id, key, also)
        return table.wallet.cash_out(participation_id, key, also=also)

    def done(outcome: Outcome[Receipt]) -> None:
        receipt = outcome.value
        if is_bot:
            if not outcome.ok:
                log.error("the Bot Ahiko's return in %s failed", room_id, exc_info=outcome.error)
        elif outcome.ok and receipt is not None:
            room.broadcast.notify(
                player_id,
                "wallet",
                {
                    "event": "cash_out",
                    "amount": receipt.amount,
                    "participation_id": participation_id,
                },
            )
            if room.is_open:
                room.emit_room()  # the table as it stands now the coins are back
        else:
            log.error("a cash-out in %s failed", room_id, exc_info=outcome.error)
            room.broadcast.notify(
                player_id,
                "wallet",
                {
                    "event": "cash_out_delayed",
                    "participation_id": participation_id,
                    "message": (
                        "your coins could not be written back to your wallet yet (the "
                        "database is busy): they are safe in this table's escrow and go "
                        "back to your wallet when the server starts again"
                    ),
                },
            )
        if hold is not None:
            hold.release()

    table.write_in_lane(room.view, job, done, retry=True)
