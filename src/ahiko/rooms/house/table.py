"""The wallet side of one Ahiko room: every coin between wallet, seat and reserve goes
through the ledger (``ahiko.wallet.operations``), and durable room state is written at hand
boundaries through the store (``ahiko.store.rooms``).

``AhikoTable`` is the room's ``RoomHooks``: the room calls it on its own thread. Chips move
in memory during a hand; at its end the net result is settled between the participations'
escrows (``settle_hand``) in the same database transaction that records the hand and the
seats, so seats and escrows agree at every hand boundary (``ahiko admin check-ledger``).

The writes run off the event loop, in the room's lane of a ``StoreWriter``
(``ahiko.store.writer``): in order, on a worker thread, so a slow or locked database delays
this room's writes and never another table. Coins move in two steps. A buy-in (a reload, the
Bot Ahiko's funding) first *reserves* in the room: the seat is taken by nobody else
(``pending``), a reloading stack is not dealt (``hold_deal``); the ledger write runs; when it
comes back the room *confirms* (the seat is taken, the stack grows) or *rolls back* (the
reservation is dropped and the player told why: nothing moved). A cash-out
(``house.cash_out``) is written after the seat is given up; its coins stay in the
participation's escrow until the write lands (retried while the database is busy), and an
escrow whose write never lands is paid back by the next start's recovery
(``AhikoLobby.reopen_previous_rooms``). Hand boundaries (start, the
settlement) are written in the same lane, retried while the database is busy; a crash before
they land is the crash the recovery already covers (the hand is cancelled, stacks back to its
start). Seat pictures are drafted on the room's thread and resolved on the worker
(``SeatDraft``): a seat whose buy-in is still in flight is written only if that buy-in landed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from sqlalchemy import Connection, Engine

from ahiko.poker.events import event_to_dict
from ahiko.rooms.frame_types import ResultRow, RoomSummary, TournamentPart
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID, BotAhiko, BotRoom
from ahiko.rooms.house.cash_out import UNPLAYED_REASON, CashOutRoom, pay_out
from ahiko.rooms.house.in_flight import (
    AnsweredRequests,
    Finished,
    PendingReload,
    PendingSeat,
    SeatDraft,
    StayRef,
    draft,
    person_id,
    resolve,
)
from ahiko.rooms.house.ports import HouseDealer
from ahiko.rooms.house.reentry import Reentry, reentry_for
from ahiko.rooms.house.tiers import Tier
from ahiko.rooms.pending import ReplyHold
from ahiko.rooms.room_view import RoomView, SeatFacts, room_behind
from ahiko.rooms.seats import Occupant
from ahiko.store.rooms import (
    finish_hand,
    record_unplayed_hands,
    save_room,
    start_hand,
    write_seats,
)
from ahiko.store.writer import InlineWriter, Outcome, StoreWriter
from ahiko.wallet.operations import AmountRange, Receipt, Wallet


class BeginsHands(HouseDealer, Protocol):
    """The dealer, as the Ahiko table meets it: besides the house's, the hand a reload
    held, begun once the reload is written."""

    def begin_hand(self) -> None: ...


class TableRoom(BotRoom, CashOutRoom, Protocol):
    """What an Ahiko table asks of its room, besides what its hooks are shown: the Bot
    Ahiko's seat and the cash-outs (their ports), a leave's answer held until its coins are
    back, and the hand a reload held, begun once the reload is written."""

    @property
    def dealer(self) -> BeginsHands: ...
    def hold_reply(self, player_id: str | None = None) -> ReplyHold | None: ...


def behind(view: RoomView) -> TableRoom:
    """The room ``view`` shows, as the table's port. The table is handed its room's view,
    as every hook is, and it is the one part of the room that goes behind it: to seat the
    Bot Ahiko and pay cash-outs out (``ahiko.rooms.room_view``)."""
    room: TableRoom = room_behind(view)
    return room


def room_record(room_config: Any, tier: Tier) -> dict[str, Any]:
    """The JSON config stored for an Ahiko room."""
    return {
        **tier.as_dict(),
        "name": room_config.name,  # the room's, not the tier's
        "tier": tier.key,
        "seats": room_config.seats,
        "action_deadline_s": room_config.action_deadline_s,
    }


class AhikoTable:
    def __init__(
        self,
        wallet: Wallet,
        engine: Engine,
        tier: Tier,
        *,
        bot: BotAhiko | None = None,
        on_change: Callable[[RoomView], None] | None = None,
        writer: StoreWriter | None = None,
    ) -> None:
        self.wallet = wallet
        self.engine = engine
        self.tier = tier
        self.bot = bot or BotAhiko()
        self.writer: StoreWriter = writer or InlineWriter()
        self.participations: dict[str, int] = {}  # player id -> open participation id
        self.pending: dict[str, PendingSeat] = {}  # player id -> seat whose write is in flight
        self.reloading: dict[str, PendingReload] = {}  # player id -> reload in flight
        self._deal_held = False  # a hand waited for a reload: begin it once they are back
        self.recorded_hand_no = 0  # the highest hand number the store holds for this room
        self._on_change = on_change
        self.answered = AnsweredRequests()  # for idempotent retries of buy-ins and reloads

    # --- the room's lane of writes -----------------------------------------------------------
    def write_in_lane(
        self,
        room: RoomView,
        job: Callable[[], Any],
        done: Callable[[Outcome[Any]], None] | None = None,
        *,
        retry: bool = False,
    ) -> None:
        """``job`` after this room's earlier writes, on a worker; ``done`` back in the room."""
        back = None if done is None else (lambda outcome: room.fire(lambda: done(outcome)))
        self.writer.submit(room.room_id, job, back, retry=retry)

    def free_seats(self, room: RoomView) -> list[int]:
        """Free seats, less those reserved for a buy-in in flight."""
        reserved = {p.seat for p in self.pending.values()}
        return [s for s in room.free_seats if s not in reserved]

    # --- coins in --------------------------------------------------------------------------
    def reentry(self, player_id: str) -> Reentry | None:
        """Fair re-entry: the minimum a person who left this tier lately must bring."""
        if not player_id.isdigit():
            return None
        return reentry_for(self.engine, self.tier, int(player_id), self.wallet.now())

    def buy_in(
        self, room: RoomView, occupant: Occupant, seat: int, key: str, finished: Finished
    ) -> PendingSeat:
        """Reserve ``seat``, then wallet -> a new participation's escrow on a worker, the seat
        written in the same transaction; ``finished`` is told in the room (the reservation is
        gone by then; the participation is the table's when the write applied)."""
        user_id = person_id(occupant.player_id)
        room_id = room.room_id
        request = (
            user_id,
            room_id,
            seat,
            occupant.stack,
            f"buy_in:{room_id}:{user_id}:{key}",
            AmountRange(self.tier.buy_in_min, self.tier.buy_in_max),
        )
        return self._open_stay(
            room, occupant, seat, lambda also: self.wallet.buy_in(*request, also), finished
        )

    def fund_bot(
        self, room: RoomView, occupant: Occupant, seat: int, finished: Finished
    ) -> PendingSeat:
        """The reserve -> the Bot Ahiko's escrow (R-BA-01), in two steps as a buy-in; a
        ``WalletError`` (ReserveUnavailable, R-BA-02) comes back with nothing changed."""
        room_id, stack = room.room_id, occupant.stack
        key = f"bot_fund:{room_id}:{self.bot.fundings}"
        return self._open_stay(
            room,
            occupant,
            seat,
            lambda also: self.wallet.bot_fund(room_id, seat, stack, key, also),
            finished,
        )

    def _open_stay(
        self,
        view: RoomView,
        occupant: Occupant,
        seat: int,
        write: Callable[[Callable[[Connection, Receipt], None]], Receipt],
        finished: Finished,
    ) -> PendingSeat:
        pending = PendingSeat(seat, occupant, StayRef())
        self.pending[occupant.player_id] = pending
        drafts = self.drafts(view)  # the reserved seat among them
        room_id = view.room_id

        def also(conn: Connection, receipt: Receipt) -> None:
            pending.stay.participation_id = receipt.participation_id
            write_seats(conn, room_id, resolve(drafts))

        def job() -> Receipt:
            try:
                receipt = write(also)
            except BaseException:
                pending.stay.participation_id = None
                raise
            if not receipt.applied:
                pending.stay.participation_id = None
            return receipt

        def done(outcome: Outcome[Receipt]) -> None:
            self.pending.pop(occupant.player_id, None)
            receipt = outcome.value
            if outcome.ok and receipt is not None and receipt.applied:
                assert receipt.participation_id is not None
                self.participations[occupant.player_id] = receipt.participation_id
            finished(outcome)

        self.write_in_lane(view, job, done)
        return pending

    def reload(
        self, room: RoomView, occupant: Occupant, amount: int, key: str, finished: Finished
    ) -> PendingReload:
        """Reserve (the next hand waits), then wallet -> the escrow on a worker; the room
        grows the stack in ``finished`` if it applied."""
        user_id = person_id(occupant.player_id)
        participation_id = self.participations[occupant.player_id]
        pending = PendingReload(amount)
        self.reloading[occupant.player_id] = pending
        drafts = self.drafts(room)
        room_id = room.room_id

        def also(conn: Connection, _receipt: Receipt) -> None:
            pending.applied = True
            write_seats(conn, room_id, resolve(drafts))

        def job() -> Receipt:
            try:
                receipt = self.wallet.reload(
                    user_id,
                    participation_id,
                    amount,
                    f"reload:{participation_id}:{key}",
                    self.tier.buy_in_max,
                    also,
                )
            except BaseException:
                pending.applied = False
                raise
            if not receipt.applied:
                pending.applied = False
            return receipt

        def done(outcome: Outcome[Receipt]) -> None:
            self.reloading.pop(occupant.player_id, None)
            finished(outcome)
            if not self.reloading and self._deal_held:
                self._deal_held = False
                room.later(behind(room).dealer.begin_hand)

        self.write_in_lane(room, job, done)
        return pending

    def tournament_part(self, room: RoomView) -> TournamentPart | None:
        return None  # a cash table plays for no event

    def hold_deal(self, room: RoomView) -> bool:
        """A reload in flight: the next hand waits for it (its stack is not known yet)."""
        if self.reloading:
            self._deal_held = True
            return True
        return False

    # --- the durable picture of the seats ---------------------------------------------------
    def drafts(self, room: RoomView) -> list[SeatDraft]:
        """Seats as stored: stacks as of the last hand boundary (the room changes a stack
        only when a hand ends), plus the seats and reloads whose writes are in flight."""
        drafts = []
        for seat, occupant in room.seats.items():
            participation_id = self.participations.get(occupant.player_id)
            if participation_id is None:
                continue
            reload = self.reloading.get(occupant.player_id)
            drafts.append(draft(seat, occupant, participation_id, reload))
        for pending in self.pending.values():
            reserved = SeatFacts.of(pending.occupant)
            drafts.append(draft(pending.seat, reserved, pending.stay, None))
        return drafts

    # --- RoomHooks --------------------------------------------------------------------------
    def on_hand_start(self, room: RoomView, hand_no: int, stacks: Mapping[int, int]) -> None:
        unplayed = range(self.recorded_hand_no + 1, hand_no)
        room_id, start = room.room_id, dict(stacks)

        def job() -> None:
            with self.engine.begin() as conn:
                record_unplayed_hands(conn, room_id, unplayed, UNPLAYED_REASON)
                start_hand(conn, room_id, hand_no, start)

        self.write_in_lane(room, job, retry=True)
        self.recorded_hand_no = hand_no

    def _unplayed(self, room: RoomView) -> range:
        """Hand numbers committed to and cancelled before the deal since the last one stored
        (the current hand excluded): recorded so that a restart never reuses them."""
        upper = room.hand_no if room.hand_no is not None else room.next_hand_no
        return range(self.recorded_hand_no + 1, upper)

    def on_hand_end(self, room: RoomView, outcome: HandOutcome) -> None:
        """Settle the net result between escrows; record the hand and the seats with it."""
        hand_no, players, net = outcome.hand_no, outcome.players, outcome.net
        events = [event_to_dict(e) for e in room.last_hand_events]
        drafts = self.drafts(room)
        room_id = room.room_id

        def also(conn: Connection, _receipt: Receipt | None) -> None:
            finish_hand(conn, room_id, hand_no, events, "finished")
            write_seats(conn, room_id, resolve(drafts))

        deltas = [
            (self.participations[players[seat]], chips) for seat, chips in net.items() if chips
        ]

        def job() -> None:
            if deltas:
                self.wallet.settle_hand(room_id, deltas, f"settle:{room_id}:{hand_no}", also)
            else:  # a hand where nobody won or lost (a chopped pot): nothing to post
                with self.engine.begin() as conn:
                    also(conn, None)

        self.write_in_lane(room, job, retry=True)

    def on_player_left(self, room: RoomView, occupant: Occupant) -> None:
        """The whole stack back to the wallet (or the Bot Ahiko's to the reserve), closing
        the participation; zero exits included (R-RM-14, R-RM-15, R-RM-17, R-BA-02). The
        player's own command (a leave) is answered once the coins are in the wallet."""
        self._cash_out(room, occupant.player_id, occupant.is_bot)

    def _cash_out(self, view: RoomView, player_id: str, is_bot: bool) -> None:
        participation_id = self.participations.pop(player_id, None)
        if participation_id is None:
            return
        unplayed = self._unplayed(view)
        room = behind(view)
        hold = room.hold_reply(player_id)  # the leave is answered once the coins are back
        pay_out(self, room, player_id, participation_id, is_bot, unplayed, hold)
        self.recorded_hand_no = max(self.recorded_hand_no, unplayed.stop - 1)

    def pay_back(self, room: RoomView, player_id: str, participation_id: int, is_bot: bool) -> None:
        """A stay opened for a seat the room could not give any more (it closed while the
        write was in flight): its coins go straight back."""
        self.participations.pop(player_id, None)
        pay_out(self, behind(room), player_id, participation_id, is_bot, range(0), None)

    def on_room_closed(self, room: RoomView, stacks: Mapping[str, int]) -> None:
        for _seat, occupant in room.seats.items():
            self._cash_out(room, occupant.player_id, occupant.is_bot)
        room_id, record = room.room_id, room_record(room.config, self.tier)
        self.write_in_lane(
            room, lambda: save_room(self.engine, room_id, "ahiko", record, "closed"), retry=True
        )

    def on_seats_changed(self, room: RoomView) -> None:
        self.bot.review_soon(behind(room), self)  # the Bot Ahiko sits and leaves
        if self._on_change is not None:
            self._on_change(room)

    def on_connected(self, room: RoomView, player_id: str) -> None:
        return None

    def on_tournament_over(self, room: RoomView, results: list[ResultRow]) -> Mapping[str, int]:
        return {}  # an Ahiko room is never a tournament

    def lobby_entry(self, room: RoomView, entry: RoomSummary) -> dict[str, Any]:
        """A room as the Ahiko lobby lists it; the Bot Ahiko is not a person (R-BA-03)."""
        seated = room.seats.items()
        return {
            **entry,
            "people": sum(1 for _, o in seated if o.is_person),
            "bot_ahiko": any(o.player_id == BOT_AHIKO_ID for _, o in seated),
            "free_seats": self.free_seats(room),
            "buy_in": self.tier.as_dict(),
            "ws": f"/ws/rooms/{room.room_id}",
        }
