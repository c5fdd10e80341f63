"""How an Ahiko room answers the commands that move coins: buy-in (sit or reserve, R-RM-12),
reload (R-RM-13) and "Sair após esta mão" (R-RM-14). Each refuses before changing anything,
or applies completely: the ledger transaction first, then the seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ahiko.rooms import commands as c
from ahiko.rooms.commands import NOT_SEATED, Refusal, Reply, closed_message
from ahiko.rooms.config import RoomKind
from ahiko.rooms.house.table import AhikoTable
from ahiko.rooms.leaving import leave
from ahiko.rooms.seats import Occupant
from ahiko.rooms.table_hand import Phase

if TYPE_CHECKING:
    from ahiko.rooms.room import Room


def _table(room: Room) -> AhikoTable:
    if room.config.kind is not RoomKind.AHIKO or not isinstance(room.hooks, AhikoTable):
        raise Refusal("not_ahiko", "coins are used only in Ahiko rooms", "R-RM-02")
    if not room.is_open:
        raise Refusal("closed", closed_message(room.status.value))
    return room.hooks


def _seated(room: Room, player_id: str) -> tuple[int, Occupant]:
    seat = room.seats.seat_of(player_id)
    occupant = room.seats.get(seat) if seat is not None else None
    if seat is None or occupant is None or occupant.player_id != player_id:
        raise Refusal("not_seated", NOT_SEATED, "R-RM-01")
    return seat, occupant


def _in_hand(room: Room, seat: int, player_id: str) -> bool:
    hand = room.hand
    return (
        hand is not None
        and hand.phase is not Phase.CANCELLED
        and hand.players.get(seat) == player_id
    )


def buy_in(room: Room, cmd: c.BuyIn) -> Reply:
    """Take ``amount`` from the wallet and sit; during a hand the seat is reserved and the
    chips wait in escrow for the next hand (R-RM-12, R-RM-16)."""
    table = _table(room)
    content = (cmd.seat, cmd.amount)
    replay = table.replayed("buy_in", cmd.player_id, cmd.key, content)
    if replay is not None:
        return replay
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
    if room.seats.seat_of(cmd.player_id) is not None:
        raise Refusal("seat", "you already have a seat in this room", "R-RM-01")
    if not 0 <= cmd.seat < room.seats.size:
        raise Refusal("seat", "that seat does not exist", "R-RM-01")
    if cmd.seat not in room.seats.free_seats():
        raise Refusal("seat", "that seat is taken", "R-RM-01")
    occupant = Occupant(cmd.player_id, cmd.name, cmd.amount)
    receipt = table.buy_in(room, occupant, cmd.seat, cmd.key)
    reserved = room.seat_occupant(cmd.seat, occupant)
    if not room.presence.is_connected(cmd.player_id):
        room.presence.mark_absent(cmd.player_id)  # R-TM-03: absent until they connect
    room.emit_room()
    room.wake()
    reply = Reply.accepted(
        seat=cmd.seat,
        reserved=reserved,
        amount=cmd.amount,
        participation_id=receipt.participation_id,
        applied=True,
    )
    table.remember("buy_in", cmd.player_id, cmd.key, content, reply)
    return reply


def reload(room: Room, cmd: c.Reload) -> Reply:
    """R-RM-13: between hands only, up to the tier's ceiling counting the current stack."""
    table = _table(room)
    content = (cmd.amount,)
    replay = table.replayed("reload", cmd.player_id, cmd.key, content)
    if replay is not None:
        return replay
    seat, occupant = _seated(room, cmd.player_id)
    hand = room.hand
    if hand is not None and _in_hand(room, seat, cmd.player_id):
        raise Refusal(
            "in_hand",
            f"reloads happen between hands: hand {hand.hand_no} is in play; "
            "reload after its result",
            "R-RM-13",
        )
    if occupant.leave_after_hand:
        raise Refusal("leaving", "you are leaving this table; a reload is not possible")
    ceiling = table.tier.buy_in_max
    if cmd.amount < 1 or occupant.stack + cmd.amount > ceiling:
        raise Refusal(
            "amount_out_of_range",
            f"a reload may bring the stack to at most {ceiling}; it is {occupant.stack}, "
            f"so from 1 to {max(0, ceiling - occupant.stack)} more, not {cmd.amount}",
            "R-RM-13",
        )
    receipt = table.reload(room, occupant, cmd.amount, cmd.key)
    occupant.stack += cmd.amount
    room.chips_in += cmd.amount
    room.emit_room()
    room.wake()
    reply = Reply.accepted(
        amount=cmd.amount,
        stack=occupant.stack,
        participation_id=receipt.participation_id,
        applied=True,
    )
    table.remember("reload", cmd.player_id, cmd.key, content, reply)
    return reply


def leave_after_hand(room: Room, cmd: c.LeaveAfterHand) -> Reply:
    """ "Sair após esta mão" (R-RM-14): the player's decisions stand until the result, then
    the chips go to the wallet before the next hand; outside a hand the exit is immediate."""
    _table(room)
    seat, occupant = _seated(room, cmd.player_id)
    in_hand = _in_hand(room, seat, cmd.player_id)
    if not cmd.on:
        if room.is_auto_acting(seat):
            raise Refusal("left", "you already stood up; the exit happens after this hand")
        occupant.leave_after_hand = False
        room.emit_room()
        return Reply.accepted(seat=seat, after_hand=False)
    if not in_hand:
        return leave(room, cmd.player_id)
    occupant.leave_after_hand = True
    room.emit_room()
    return Reply.accepted(seat=seat, after_hand=True)
