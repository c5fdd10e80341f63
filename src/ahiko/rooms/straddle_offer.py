"""The voluntary straddle, offered before the deal: at a table with the straddle on, the seat
after the big blind (or the button, Mississippi) is asked, once the hand is committed,
whether to post twice the big blind. The cards wait for the answer; a short clock, a bot
or a seat left empty answer "no straddle", the default.

The commitment does not depend on the answer (a straddle changes the bets, not where the
cards lie), so the deck is committed first and the answer picks the hand's config.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

from ahiko.poker.config import HoldemConfig
from ahiko.rooms import commands as c
from ahiko.rooms import frame_types as ft
from ahiko.rooms.commands import Reply
from ahiko.rooms.hand_phase import NO_STRADDLE, require_phase
from ahiko.rooms.ports import SeatQuestionTable
from ahiko.rooms.status import require
from ahiko.rooms.table_hand import Phase
from ahiko.rooms.timers import TimerName

if TYPE_CHECKING:
    from ahiko.rooms.table_hand import TableHand


class StraddleDealer(Protocol):
    """The dealer, as the straddle offer holds the cards and lets them come."""

    @property
    def hand(self) -> TableHand | None: ...
    def deal(self) -> None: ...


class StraddleTable(SeatQuestionTable, Protocol):
    """What the straddle offer is handed: its timer, the straddler's seat, the frames out,
    and the dealer whose cards wait for the answer."""

    @property
    def dealer(self) -> StraddleDealer: ...


@dataclass
class _Offer:
    hand: TableHand
    seat: int
    with_straddle: HoldemConfig
    cards_due: bool = False  # the commitment was shown: the cards come with the answer


class StraddleOffer:
    def __init__(self, room: StraddleTable) -> None:
        self._room = room
        self._offer: _Offer | None = None

    def offer(self, hand: TableHand, seat: int, with_straddle: HoldemConfig) -> None:
        room = self._room
        self._offer = _Offer(hand, seat, with_straddle)
        seconds = room.config.timing.straddle_answer_s
        room.timers.set(TimerName.STRADDLE, seconds, partial(self._answer, hand, False))
        frame: ft.StraddleOffer = {
            "hand_no": hand.hand_no,
            "seat": seat,
            "amount": with_straddle.straddle,
            "seconds": seconds,
        }
        room.broadcast.emit("straddle_offer", lambda _seat: frame, public=True)
        occupant = room.seats.get(seat)
        if occupant is None or occupant.is_bot:
            room.later(partial(self._answer, hand, False))

    def holds_cards(self, hand: TableHand) -> bool:
        """Whether the deal waits for the straddle's answer (it deals once answered)."""
        offer = self._offer
        if offer is None or offer.hand is not hand:
            return False
        offer.cards_due = True
        return True

    def command(self, cmd: c.TakeStraddle) -> Reply:
        room = self._room
        require(room.status, c.TakeStraddle)
        hand = require_phase(room.dealer.hand, c.TakeStraddle)
        offer = self._offer
        if offer is None or offer.hand is not hand or hand.players.get(offer.seat) != cmd.player_id:
            raise NO_STRADDLE.refusal()
        self._answer(hand, cmd.take)
        return Reply.accepted(straddle=cmd.take)

    def _answer(self, hand: TableHand, take: bool) -> None:
        room = self._room
        offer = self._offer
        if offer is None or offer.hand is not hand:
            return  # answered already, or another hand
        self._offer = None
        room.timers.cancel(TimerName.STRADDLE)
        if room.dealer.hand is not hand or hand.phase is not Phase.COMMITTED:
            return  # the hand was cancelled before its cards
        if take:
            hand.config = offer.with_straddle
        room.broadcast.emit(
            "straddle_answer",
            lambda _seat: {"hand_no": hand.hand_no, "seat": offer.seat, "take": take},
            public=True,
        )
        if offer.cards_due:
            room.dealer.deal()
