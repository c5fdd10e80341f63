"""The Bot Ahiko (R-BA-01..03): the identified house bot that keeps a lone person company.

A person waiting alone at an Ahiko table for 20 seconds is joined by the Bot Ahiko, funded
from its reserve by a ledger transaction with a buy-in in the tier's range. It leaves between
hands when another person arrives or no eligible person remains, and its stack goes back to
the reserve. If the reserve cannot pay, the person is told and keeps waiting (the bot tries
again after another wait). It is a bot: never counted as a person, and it plays from its own
seat's view only, as every bot at a table does (``ahiko.rooms.thinking``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from typing import Protocol

from ahiko.bots.protocol import Bot, load_bot
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.house.in_flight import Finished
from ahiko.rooms.house.ports import PlaysHands, TellsOnePlayer
from ahiko.rooms.house.tiers import Tier
from ahiko.rooms.room_view import RoomView
from ahiko.rooms.seats import Occupant
from ahiko.rooms.timers import TimerKey, TimerName
from ahiko.store.writer import Outcome
from ahiko.wallet.errors import WalletError
from ahiko.wallet.operations import Receipt, Wallet

log = logging.getLogger(__name__)

BOT_AHIKO_ID = "bot-ahiko"
BOT_AHIKO_NAME = "Bot Ahiko"
BOT_AHIKO_TIMER = TimerName.BOT_AHIKO
# R-BA-02, as the original says it ("aguarde outra pessoa ou levante para receber seu saldo")
RESERVE_UNAVAILABLE = (
    "The Bot Ahiko's reserve is unavailable: wait for another person, or stand up to receive"
    " your balance."
)


class BotWait(Protocol):
    """The room's timers, as the Bot Ahiko's wait uses them."""

    def left(self, key: TimerKey) -> float | None: ...
    def set(self, key: TimerKey, seconds: float, job: Callable[[], None]) -> None: ...
    def cancel(self, key: TimerKey) -> None: ...


class BotRoom(PlaysHands, TellsOnePlayer, Protocol):
    """What the Bot Ahiko asks of the room: its wait (a timer), its seat taken and given
    back (the table's bots and the seat's chips with it), the hand it may be playing."""

    @property
    def room_id(self) -> str: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def config(self) -> RoomConfig: ...
    @property
    def view(self) -> RoomView: ...
    @property
    def bots(self) -> MutableMapping[str, Bot]: ...
    @property
    def timers(self) -> BotWait: ...
    def later(self, job: Callable[[], None]) -> None: ...
    def seat_occupant(self, seat: int, occupant: Occupant) -> bool: ...
    def player_left(self, occupant: Occupant) -> None: ...


class BotTable(Protocol):
    """What the Bot Ahiko asks of its room's table: the tier's buy-ins and the reserve, the
    seats whose buy-ins are being written, its funding written and paid back."""

    @property
    def tier(self) -> Tier: ...
    @property
    def wallet(self) -> Wallet: ...
    @property
    def pending(self) -> Mapping[str, object]: ...
    def free_seats(self, room: RoomView) -> list[int]: ...
    def fund_bot(
        self, room: RoomView, occupant: Occupant, seat: int, finished: Finished
    ) -> object: ...
    def pay_back(
        self, room: RoomView, player_id: str, participation_id: int, is_bot: bool
    ) -> None: ...


class BotAhiko:
    def __init__(self, level: str = "normal", factory: Callable[[str], Bot] = load_bot) -> None:
        self.level = level
        self._factory = factory
        self.fundings = 0  # buy-ins taken from the reserve by this room
        self._review_queued = False
        self._told: str | None = None  # the person told the reserve cannot pay, this spell

    # --- deciding ----------------------------------------------------------------------------
    def review_soon(self, room: BotRoom, table: BotTable) -> None:
        """Look at the table once the current command is done (never in the middle of it)."""
        if self._review_queued:
            return
        self._review_queued = True

        def run() -> None:
            self._review_queued = False
            self.review(room, table)

        room.later(run)

    def review(self, room: BotRoom, table: BotTable) -> None:
        if not room.is_open:
            return
        seat = room.seats.seat_of(BOT_AHIKO_ID)
        people = eligible_people(room.seats.items())
        if seat is None:
            if lone_person(room.seats.items()) is not None:
                if room.timers.left(BOT_AHIKO_TIMER) is None:
                    wait = room.config.timing.bot_ahiko_wait_s
                    room.timers.set(BOT_AHIKO_TIMER, wait, lambda: self._join(room, table))
            else:
                room.timers.cancel(BOT_AHIKO_TIMER)
                self._told = None
            return
        bot = room.seats.get(seat)
        assert bot is not None
        if len(people) != 1:  # R-BA-03: another person arrived, or nobody eligible is left
            self._send_away(room, seat, bot)
        elif bot.leave_after_hand and bot.stack > 0:
            bot.leave_after_hand = False  # the newcomer went away before the hand ended

    def _send_away(self, room: BotRoom, seat: int, bot: Occupant) -> None:
        hand = room.dealer.hand
        if hand is not None and hand.players.get(seat) == BOT_AHIKO_ID:
            if not bot.leave_after_hand:
                bot.leave_after_hand = True  # it plays the hand out, then leaves
                room.emit_room()
            return
        room.seats.remove(seat)
        room.player_left(bot)
        room.emit_room()
        room.dealer.wake()

    # --- joining -----------------------------------------------------------------------------
    def _join(self, room: BotRoom, table: BotTable) -> None:
        person = lone_person(room.seats.items())
        free = table.free_seats(room.view)
        if (
            person is None
            or not free
            or room.seats.seat_of(BOT_AHIKO_ID) is not None
            or BOT_AHIKO_ID in table.pending  # its funding is being written
        ):
            return
        tier = table.tier
        # R-BA-01 D: the person's stack (within the tier's range), or what the reserve holds
        # if that is less, as long as it reaches the tier's minimum buy-in.
        wanted = min(max(person.stack, tier.buy_in_min), tier.buy_in_max)
        amount = min(wanted, table.wallet.reserve_balance())
        if amount < tier.buy_in_min:
            self._reserve_short(room, table, person)
            return
        occupant = Occupant(BOT_AHIKO_ID, BOT_AHIKO_NAME, amount, is_bot=True, bot_level=self.level)
        seat = _across_from(room.seats.seat_of(person.player_id) or 0, free, room.seats.size)

        def funded(outcome: Outcome[Receipt]) -> None:
            self._funded(room, table, person, occupant, seat, outcome)

        table.fund_bot(room.view, occupant, seat, funded)  # the seat is taken when it comes back

    def _funded(
        self,
        room: BotRoom,
        table: BotTable,
        person: Occupant,
        occupant: Occupant,
        seat: int,
        outcome: Outcome[Receipt],
    ) -> None:
        receipt = outcome.value
        if outcome.error is not None or receipt is None:
            if isinstance(outcome.error, WalletError):  # R-BA-02: another room took the reserve
                self._reserve_short(room, table, person)
                return
            log.warning("funding the Bot Ahiko in %s failed: %s", room.room_id, outcome.error)
            if room.is_open:
                wait = room.config.timing.bot_ahiko_wait_s
                room.timers.set(BOT_AHIKO_TIMER, wait, lambda: self._join(room, table))
            return
        assert receipt.participation_id is not None
        self.fundings += 1
        if not room.is_open or seat not in room.seats.free_seats():
            table.pay_back(room.view, BOT_AHIKO_ID, receipt.participation_id, is_bot=True)
            return
        self._told = None
        room.bots[BOT_AHIKO_ID] = self._factory(self.level)
        room.seat_occupant(seat, occupant)
        room.emit_room()
        room.dealer.wake()

    def _reserve_short(self, room: BotRoom, table: BotTable, person: Occupant) -> None:
        """R-BA-02: the reserve cannot pay: the person is told once, and the bot tries again
        after another wait."""
        if self._told != person.player_id:
            self._told = person.player_id
            room.broadcast.notify(
                person.player_id,
                "notice",
                {
                    "code": "bot_reserve_unavailable",
                    "rule": "R-BA-02",
                    "message": RESERVE_UNAVAILABLE,
                },
            )
        wait = room.config.timing.bot_ahiko_wait_s
        room.timers.set(BOT_AHIKO_TIMER, wait, lambda: self._join(room, table))


def eligible_people(seated: Iterable[tuple[int, Occupant]]) -> list[Occupant]:
    """People who can play on: seated (or reserved) with chips, not on their way out, and
    dealt in at the next hand: neither disconnected (R-TM-05) nor sitting out (R-BA-03 D)."""
    return [o for _, o in seated if o.is_person and o.stack > 0 and _plays_on(o)]


def lone_person(seated: Iterable[tuple[int, Occupant]]) -> Occupant | None:
    """The person waiting with no one else to play (R-BA-01), if any, as long as they would
    be dealt in: the bot does not join a disconnected person or one sitting out (R-BA-03 D)."""
    players = [o for _, o in seated if o.stack > 0 and not o.leave_after_hand]
    if len(players) == 1 and players[0].is_person and _plays_on(players[0]):
        return players[0]
    return None


def _plays_on(occupant: Occupant) -> bool:
    return occupant.connected and not occupant.sitting_out and not occupant.leave_after_hand


def _across_from(seat: int, free: list[int], size: int) -> int:
    """The free seat farthest round the table from ``seat``."""
    return max(free, key=lambda s: min((s - seat) % size, (seat - s) % size))
