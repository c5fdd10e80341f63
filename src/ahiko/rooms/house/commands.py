"""How an Ahiko room answers the commands that move coins: buy-in (sit or reserve, R-RM-12),
reload (R-RM-13) and "Sair após esta mão" (R-RM-14). Each refuses before changing anything,
or applies completely: the ledger transaction first (on a worker thread, ``AhikoTable``), then
the seat; the command is answered when the write came back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ahiko.rooms import commands as c
from ahiko.rooms.commands import NOT_SEATED, Refusal, Reply
from ahiko.rooms.config import RoomConfig, RoomKind
from ahiko.rooms.house.in_flight import Finished, Waiters, write_refusal
from ahiko.rooms.house.ports import PlaysHands, stand_up
from ahiko.rooms.house.seat_requests import KnowsConnections
from ahiko.rooms.house.table import AhikoTable
from ahiko.rooms.pending import ReplyHold
from ahiko.rooms.room_view import RoomView
from ahiko.rooms.seats import Occupant
from ahiko.rooms.status import RoomStatus, require
from ahiko.rooms.table_hand import Phase
from ahiko.store.writer import Outcome
from ahiko.wallet.operations import Receipt


class KnowsPresence(KnowsConnections, Protocol):
    def mark_absent(self, player_id: str) -> None: ...


class AutoActs(Protocol):
    """The turns, as a leave asks whether the room already answers for a seat."""

    def is_auto_acting(self, seat: int) -> bool: ...


class AhikoRoom(PlaysHands, Protocol):
    """What the commands that move coins ask of an Ahiko room: its table (the hooks), the
    seats and the hand, who is connected, the answer held while a write is in flight, and
    the one figure they write: the chips a reload brings to the table."""

    chips_in: int

    @property
    def config(self) -> RoomConfig: ...
    @property
    def hooks(self) -> object: ...
    @property
    def status(self) -> RoomStatus: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def view(self) -> RoomView: ...
    @property
    def presence(self) -> KnowsPresence: ...
    @property
    def turns(self) -> AutoActs: ...
    def hold_reply(self, player_id: str | None = None) -> ReplyHold | None: ...
    def seat_occupant(self, seat: int, occupant: Occupant) -> bool: ...


def _table(room: AhikoRoom, cmd: c.BuyIn | c.Reload | c.LeaveAfterHand) -> AhikoTable:
    if room.config.kind is not RoomKind.AHIKO or not isinstance(room.hooks, AhikoTable):
        raise Refusal("not_ahiko", "coins are used only in Ahiko rooms", "R-RM-02")
    require(room.status, type(cmd))  # the status table's answer: open rooms only
    return room.hooks


def _seated(room: AhikoRoom, player_id: str) -> tuple[int, Occupant]:
    seat = room.seats.seat_of(player_id)
    occupant = room.seats.get(seat) if seat is not None else None
    if seat is None or occupant is None or occupant.player_id != player_id:
        raise Refusal("not_seated", NOT_SEATED, "R-RM-01")
    return seat, occupant


def _in_hand(room: AhikoRoom, seat: int, player_id: str) -> bool:
    hand = room.dealer.hand
    return (
        hand is not None
        and hand.phase is not Phase.CANCELLED
        and hand.players.get(seat) == player_id
    )


def buy_in(room: AhikoRoom, cmd: c.BuyIn) -> Reply:
    """Take ``amount`` from the wallet and sit; during a hand the seat is reserved and the
    chips wait in escrow for the next hand (R-RM-12, R-RM-16)."""
    table = _table(room, cmd)
    content = (cmd.seat, cmd.amount)
    replay = table.answered.replayed("buy_in", cmd.player_id, cmd.key, content)
    if replay is not None:
        return replay
    in_flight = table.pending.get(cmd.player_id)
    if in_flight is not None and in_flight.again.key == cmd.key:
        return _join_in_flight(room, in_flight.again, "buy_in", content)
    tier = table.tier
    if not tier.allows_buy_in(cmd.amount):
        raise Refusal(
            "amount_out_of_range",
            f"the buy-in at {tier.name} is {tier.buy_in_min} to {tier.buy_in_max} coins, "
            f"not {cmd.amount}",
            "R-RM-10",
        )
    reentry = table.reentry(cmd.player_id)
    if reentry is not None and cmd.amount < reentry.minimum:
        raise Refusal(
            "reentry_minimum",
            f"you left a {tier.name} table with {reentry.left_with} coins less than 30 minutes "
            f"ago: sitting again at this tier needs at least {reentry.minimum} coins, not "
            f"{cmd.amount}",
        )
    if room.seats.seat_of(cmd.player_id) is not None or cmd.player_id in table.pending:
        raise Refusal("seat", "you already have a seat in this room", "R-RM-01")
    if not 0 <= cmd.seat < room.seats.size:
        raise Refusal("seat", "that seat does not exist", "R-RM-01")
    if cmd.seat not in table.free_seats(room.view):
        raise Refusal("seat", "that seat is taken", "R-RM-01")
    occupant = Occupant(cmd.player_id, cmd.name, cmd.amount)
    # Reserved now; the seat is taken when the ledger write comes back (table.buy_in).
    _answer_when_written(
        room,
        table,
        ("buy_in", cmd.player_id, cmd.key, content),
        lambda outcome: _seat_bought(room, table, cmd, occupant, outcome),
        lambda finished: table.buy_in(room.view, occupant, cmd.seat, cmd.key, finished).again,
    )
    return Reply.accepted(seat=cmd.seat, amount=cmd.amount, pending=True)


def _answer_when_written(
    room: AhikoRoom,
    table: AhikoTable,
    request: tuple[str, str, str, tuple[object, ...]],
    decide: Callable[[Outcome[Receipt]], Reply],
    start: Callable[[Finished], Waiters],
) -> None:
    """Holds the command's answer until the write ``start`` hands to the worker comes back;
    then the answer ``decide`` gives is remembered (when it is a success) for retries of
    ``request`` (kind, player, key, content), releases the held reply and is told to the
    same request sent again meanwhile (``start`` answers their ``Waiters``)."""
    kind, player_id, key, content = request
    hold = room.hold_reply()
    again: list[Waiters] = []

    def finished(outcome: Outcome[Receipt]) -> None:
        answer = decide(outcome)
        if answer.ok:
            table.answered.remember(kind, player_id, key, content, answer)
        if hold is not None:
            hold.release(answer)
        again[0].tell(answer)

    # The write's answer comes back through the room (``RoomView.fire``): after this command.
    again.append(start(finished))
    again[0].key, again[0].content = key, content


def _join_in_flight(
    room: AhikoRoom, again: Waiters, kind: str, content: tuple[object, ...]
) -> Reply:
    """The same request again while its write is in flight: the first one's answer."""
    if again.content != content:
        raise Refusal(
            "idempotency_conflict",
            f"this request key was already used for a different {kind} request",
        )
    hold = room.hold_reply()
    if hold is not None:
        again.waiting.append(hold.release)
    return Reply.accepted(pending=True)


def _seat_bought(
    room: AhikoRoom, table: AhikoTable, cmd: c.BuyIn, occupant: Occupant, outcome: Outcome[Receipt]
) -> Reply:
    """The buy-in's write came back: take the seat, or say why nothing moved."""
    receipt = outcome.value
    if outcome.error is not None or receipt is None:
        assert outcome.error is not None
        return write_refusal(outcome.error, "buy-in", "R-RM-12").reply
    if not receipt.applied:
        return Reply.refused("duplicate", "this request was already applied")
    assert receipt.participation_id is not None
    if not room.is_open or cmd.seat not in room.seats.free_seats():
        table.pay_back(room.view, cmd.player_id, receipt.participation_id, is_bot=False)
        return Reply.refused(
            "closed",
            "this room closed while your buy-in was being written: the coins went back to "
            "your wallet",
        )
    reserved = room.seat_occupant(cmd.seat, occupant)
    if not room.presence.is_connected(cmd.player_id):
        room.presence.mark_absent(cmd.player_id)  # R-TM-03: absent until they connect
    room.emit_room()
    room.dealer.wake()
    return Reply.accepted(
        seat=cmd.seat,
        reserved=reserved,
        amount=cmd.amount,
        participation_id=receipt.participation_id,
        applied=True,
    )


def reload(room: AhikoRoom, cmd: c.Reload) -> Reply:
    """R-RM-13: between hands only, up to the tier's ceiling counting the current stack."""
    table = _table(room, cmd)
    content = (cmd.amount,)
    replay = table.answered.replayed("reload", cmd.player_id, cmd.key, content)
    if replay is not None:
        return replay
    in_flight = table.reloading.get(cmd.player_id)
    if in_flight is not None and in_flight.again.key == cmd.key:
        return _join_in_flight(room, in_flight.again, "reload", content)
    seat, occupant = _seated(room, cmd.player_id)
    hand = room.dealer.hand
    if hand is not None and _in_hand(room, seat, cmd.player_id):
        raise Refusal(
            "in_hand",
            f"reloads happen between hands: hand {hand.hand_no} is in play; "
            "reload after its result",
            "R-RM-13",
        )
    if occupant.leave_after_hand:
        raise Refusal("leaving", "you are leaving this table; a reload is not possible")
    if cmd.player_id in table.reloading:
        raise Refusal("reloading", "your previous reload is still being written; wait for it")
    ceiling = table.tier.buy_in_max
    if cmd.amount < 1 or occupant.stack + cmd.amount > ceiling:
        raise Refusal(
            "amount_out_of_range",
            f"a reload may bring the stack to at most {ceiling}; it is {occupant.stack}, "
            f"so from 1 to {max(0, ceiling - occupant.stack)} more, not {cmd.amount}",
            "R-RM-13",
        )
    # Reserved now (the next hand waits); the stack grows when the write comes back.
    _answer_when_written(
        room,
        table,
        ("reload", cmd.player_id, cmd.key, content),
        lambda outcome: _reloaded(room, cmd, occupant, outcome),
        lambda finished: table.reload(room.view, occupant, cmd.amount, cmd.key, finished).again,
    )
    return Reply.accepted(amount=cmd.amount, stack=occupant.stack, pending=True)


def _reloaded(
    room: AhikoRoom, cmd: c.Reload, occupant: Occupant, outcome: Outcome[Receipt]
) -> Reply:
    receipt = outcome.value
    if outcome.error is not None or receipt is None:
        assert outcome.error is not None
        return write_refusal(outcome.error, "reload", "R-RM-13").reply
    if not receipt.applied:
        return Reply.refused("duplicate", "this request was already applied")
    seat = room.seats.seat_of(cmd.player_id)
    if seat is not None and room.seats.get(seat) is occupant:
        occupant.stack += cmd.amount
        room.chips_in += cmd.amount
        room.emit_room()
        room.dealer.wake()
    # else: the player left meanwhile; the cash-out, written after it, paid the reload too
    return Reply.accepted(
        amount=cmd.amount,
        stack=occupant.stack,
        participation_id=receipt.participation_id,
        applied=True,
    )


def leave_after_hand(room: AhikoRoom, cmd: c.LeaveAfterHand) -> Reply:
    """ "Sair após esta mão" (R-RM-14): the player's decisions stand until the result, then
    the chips go to the wallet before the next hand; outside a hand the exit is immediate."""
    _table(room, cmd)
    seat, occupant = _seated(room, cmd.player_id)
    in_hand = _in_hand(room, seat, cmd.player_id)
    if not cmd.on:
        if room.turns.is_auto_acting(seat):
            raise Refusal("left", "you already stood up; the exit happens after this hand")
        occupant.leave_after_hand = False
        room.emit_room()
        return Reply.accepted(seat=seat, after_hand=False)
    if not in_hand:
        return stand_up(room, cmd.player_id)
    occupant.leave_after_hand = True
    room.emit_room()
    return Reply.accepted(seat=seat, after_hand=True)
