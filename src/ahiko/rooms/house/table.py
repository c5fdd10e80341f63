"""The wallet side of one Ahiko room: every coin between wallet, seat and reserve goes
through the ledger (``ahiko.wallet.operations``), and durable room state is written at hand
boundaries through the store (``ahiko.store.rooms``).

``AhikoTable`` is the room's ``RoomHooks``: the room calls it on its own thread. Chips move
in memory during a hand; at its end the net result is settled between the participations'
escrows (``settle_hand``) in the same database transaction that records the hand and the
seats, so seats and escrows agree at every hand boundary (``ahiko admin check-ledger``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine

from ahiko.poker.events import event_to_dict
from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID, BotAhiko
from ahiko.rooms.house.reentry import Reentry, reentry_for
from ahiko.rooms.house.tiers import Tier
from ahiko.rooms.seats import Occupant
from ahiko.store.rooms import (
    SeatRecord,
    finish_hand,
    record_unplayed_hands,
    save_room,
    start_hand,
    write_seats,
)
from ahiko.wallet.errors import WalletError
from ahiko.wallet.operations import AmountRange, Receipt, Wallet

if TYPE_CHECKING:
    from ahiko.rooms.room import Room

REPLAY_MEMORY = 1024  # answered requests kept per room for idempotent retries
UNPLAYED_REASON = "a participant left before the deal (R-FD-06)"


def room_record(room_config: Any, tier: Tier) -> dict[str, Any]:
    """The JSON config stored for an Ahiko room."""
    return {
        **tier.as_dict(),
        "name": room_config.name,  # the room's, not the tier's
        "tier": tier.key,
        "seats": room_config.seats,
        "action_deadline_s": room_config.action_deadline_s,
    }


def wallet_refusal(error: WalletError, rule: str) -> Refusal:
    return Refusal(error.code, error.message, rule)


class AhikoTable:
    def __init__(
        self,
        wallet: Wallet,
        engine: Engine,
        tier: Tier,
        *,
        bot: BotAhiko | None = None,
        on_change: Callable[[Room], None] | None = None,
    ) -> None:
        self.wallet = wallet
        self.engine = engine
        self.tier = tier
        self.bot = bot or BotAhiko()
        self.participations: dict[str, int] = {}  # player id -> open participation id
        self.recorded_hand_no = 0  # the highest hand number the store holds for this room
        self._on_change = on_change
        self._replies: OrderedDict[tuple[str, str, str], tuple[tuple[object, ...], Reply]] = (
            OrderedDict()
        )

    # --- idempotent requests ---------------------------------------------------------------
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

    # --- coins in --------------------------------------------------------------------------
    def reentry(self, player_id: str) -> Reentry | None:
        """Fair re-entry (issue 19): the minimum a person who left this tier lately must bring."""
        if not player_id.isdigit():
            return None
        return reentry_for(self.engine, self.tier, int(player_id), self.wallet.now())

    def buy_in(self, room: Room, occupant: Occupant, seat: int, key: str) -> Receipt:
        """Wallet -> a new participation's escrow, the seat written in the same transaction."""
        user_id = person_id(occupant.player_id)

        def also(conn: Connection, receipt: Receipt) -> None:
            extra = (seat, occupant, receipt.participation_id)
            write_seats(conn, room.room_id, self.records(room, extra=extra))

        try:
            receipt = self.wallet.buy_in(
                user_id,
                room.room_id,
                seat,
                occupant.stack,
                f"buy_in:{room.room_id}:{user_id}:{key}",
                AmountRange(self.tier.buy_in_min, self.tier.buy_in_max),
                also,
            )
        except WalletError as error:
            raise wallet_refusal(error, "R-RM-12") from None
        self._require_applied(receipt)
        assert receipt.participation_id is not None
        self.participations[occupant.player_id] = receipt.participation_id
        return receipt

    def reload(self, room: Room, occupant: Occupant, amount: int, key: str) -> Receipt:
        user_id = person_id(occupant.player_id)
        participation_id = self.participations[occupant.player_id]
        stacks = {occupant.player_id: occupant.stack + amount}

        def also(conn: Connection, _receipt: Receipt) -> None:
            write_seats(conn, room.room_id, self.records(room, stacks=stacks))

        try:
            receipt = self.wallet.reload(
                user_id,
                participation_id,
                amount,
                f"reload:{participation_id}:{key}",
                self.tier.buy_in_max,
                also,
            )
        except WalletError as error:
            raise wallet_refusal(error, "R-RM-13") from None
        self._require_applied(receipt)
        return receipt

    def fund_bot(self, room: Room, occupant: Occupant, seat: int) -> Receipt:
        """The reserve -> the Bot Ahiko's escrow (R-BA-01); raises WalletError (for instance
        ReserveUnavailable, R-BA-02) with nothing changed."""

        def also(conn: Connection, receipt: Receipt) -> None:
            extra = (seat, occupant, receipt.participation_id)
            write_seats(conn, room.room_id, self.records(room, extra=extra))

        key = f"bot_fund:{room.room_id}:{self.bot.fundings}"
        receipt = self.wallet.bot_fund(room.room_id, seat, occupant.stack, key, also)
        assert receipt.participation_id is not None
        self.participations[occupant.player_id] = receipt.participation_id
        return receipt

    @staticmethod
    def _require_applied(receipt: Receipt) -> None:
        if not receipt.applied:
            raise Refusal("duplicate", "this request was already applied")

    # --- the durable picture of the seats ---------------------------------------------------
    def records(
        self,
        room: Room,
        *,
        extra: tuple[int, Occupant, int | None] | None = None,
        stacks: Mapping[str, int] | None = None,
    ) -> list[SeatRecord]:
        """Seats as stored: stacks as of the last hand boundary (the room changes a stack
        only when a hand ends), plus ``extra`` (a seat being taken) and ``stacks`` overrides."""
        seated = list(room.seats.items())
        if extra is not None:
            seated.append((extra[0], extra[1]))
        records = []
        for seat, occupant in seated:
            participation_id = self.participations.get(occupant.player_id)
            if extra is not None and occupant is extra[1]:
                participation_id = extra[2]
            if participation_id is None:
                continue
            records.append(
                SeatRecord(
                    seat=seat,
                    occupant="bot_ahiko" if occupant.is_bot else "person",
                    name=occupant.name,
                    stack=(stacks or {}).get(occupant.player_id, occupant.stack),
                    user_id=None if occupant.is_bot else person_id(occupant.player_id),
                    participation_id=participation_id,
                )
            )
        return records

    # --- RoomHooks --------------------------------------------------------------------------
    def on_hand_start(self, room: Room, hand_no: int, stacks: Mapping[int, int]) -> None:
        unplayed = range(self.recorded_hand_no + 1, hand_no)
        with self.engine.begin() as conn:
            record_unplayed_hands(conn, room.room_id, unplayed, UNPLAYED_REASON)
            start_hand(conn, room.room_id, hand_no, stacks)
        self.recorded_hand_no = hand_no

    def _unplayed(self, room: Room) -> range:
        """Hand numbers committed to and cancelled before the deal since the last one stored
        (the current hand excluded): recorded so that a restart never reuses them."""
        upper = room.hand.hand_no if room.hand is not None else room.next_hand_no
        return range(self.recorded_hand_no + 1, upper)

    def on_hand_end(self, room: Room, outcome: HandOutcome) -> None:
        """Settle the net result between escrows; record the hand and the seats with it."""
        hand_no, players, net = outcome.hand_no, outcome.players, outcome.net
        hand = room.last_hand
        events = [] if hand is None else [event_to_dict(e) for e in hand.hand.events]
        records = self.records(room)

        def also(conn: Connection, _receipt: Receipt | None) -> None:
            finish_hand(conn, room.room_id, hand_no, events, "finished")
            write_seats(conn, room.room_id, records)

        deltas = [
            (self.participations[players[seat]], chips) for seat, chips in net.items() if chips
        ]
        if deltas:
            key = f"settle:{room.room_id}:{hand_no}"
            self.wallet.settle_hand(room.room_id, deltas, key, also)
        else:  # a hand where nobody won or lost (a chopped pot): nothing to post
            with self.engine.begin() as conn:
                also(conn, None)

    def on_player_left(self, room: Room, occupant: Occupant) -> None:
        """The whole stack back to the wallet (or the Bot Ahiko's to the reserve), closing
        the participation; zero exits included (R-RM-14, R-RM-15, R-RM-17, R-BA-02)."""
        participation_id = self.participations.pop(occupant.player_id, None)
        if participation_id is None:
            return
        records = self.records(room)
        unplayed = self._unplayed(room)

        def also(conn: Connection, _receipt: Receipt) -> None:
            write_seats(conn, room.room_id, records)
            record_unplayed_hands(conn, room.room_id, unplayed, UNPLAYED_REASON)

        key = f"exit:{participation_id}"
        if occupant.is_bot:
            receipt = self.wallet.bot_return(participation_id, key, also)
        else:
            receipt = self.wallet.cash_out(participation_id, key, also=also)
            room.notify(
                occupant.player_id,
                "wallet",
                {
                    "event": "cash_out",
                    "amount": receipt.amount,
                    "participation_id": participation_id,
                },
            )
        self.recorded_hand_no = max(self.recorded_hand_no, unplayed.stop - 1)

    def on_room_closed(self, room: Room, stacks: Mapping[str, int]) -> None:
        for _seat, occupant in room.seats.items():
            self.on_player_left(room, occupant)
        save_room(self.engine, room.room_id, "ahiko", room_record(room.config, self.tier), "closed")

    def on_seats_changed(self, room: Room) -> None:
        self.bot.review_soon(room, self)
        if self._on_change is not None:
            self._on_change(room)

    def on_tournament_over(self, room: Room, results: list[dict[str, Any]]) -> Mapping[str, int]:
        return {}  # an Ahiko room is never a tournament

    def lobby_entry(self, room: Room, entry: dict[str, Any]) -> dict[str, Any]:
        """A room as the Ahiko lobby lists it; the Bot Ahiko is not a person (R-BA-03)."""
        seated = room.seats.items()
        return {
            **entry,
            "people": sum(1 for _, o in seated if o.is_person),
            "bot_ahiko": any(o.player_id == BOT_AHIKO_ID for _, o in seated),
            "free_seats": room.seats.free_seats(),
            "buy_in": self.tier.as_dict(),
            "ws": f"/ws/rooms/{room.room_id}",
        }


def person_id(player_id: str) -> int:
    """A person's account id (player ids of people are account ids as text)."""
    if not player_id.isdigit():
        raise Refusal("not_a_person", "only signed-in people may do this", "R-RM-01")
    return int(player_id)
