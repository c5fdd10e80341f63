"""How a home game's room answers its host: the table's settings for the next hand,
chips added to or removed from a stack, seat approvals, removing a player and handing the
host role on. Each handler refuses before changing anything, or applies completely and tells
the table (``HostDesk.announce``); the room's ledger records every chip that moves.

Only a recreational room has these (R-RM-02/03): a tournament's blinds and stacks are its
structure's, and an Ahiko room has no host (R-RM-11)."""

from __future__ import annotations

from typing import Any, Protocol

from ahiko.rooms.commands import Refusal, Reply
from ahiko.rooms.config import RoomKind
from ahiko.rooms.hand_options import HandOptionError
from ahiko.rooms.house import host_orders as h
from ahiko.rooms.house import next_hand
from ahiko.rooms.house.host_desk import HostDesk
from ahiko.rooms.house.ports import PlaysHands, TellsOnePlayer, stand_up
from ahiko.rooms.house.seat_requests import KeepsTheLine, SeatingRoom, seat_person
from ahiko.rooms.seats import Occupant
from ahiko.rooms.status import RoomStatus, require
from ahiko.rooms.table_hand import Phase


class OffersSeats(KeepsTheLine, Protocol):
    def open_seats(self) -> list[int]:
        """Free seats not held for someone first in the waiting list."""


class HostRoom(PlaysHands, SeatingRoom, TellsOnePlayer, Protocol):
    """What the host's menu asks of a home game's room: its desk, who hosts (the one write:
    handing the role on) and the seats."""

    host_id: str | None

    @property
    def status(self) -> RoomStatus: ...
    @property
    def host_desk(self) -> HostDesk: ...
    @property
    def waitlist(self) -> OffersSeats: ...


def require_home_host(room: HostRoom, order: h.HostOrder) -> None:
    require(room.status, type(order))  # the status table's answer: open rooms only
    player_id = order.player_id
    if not room.config.has_host or player_id != room.host_id:
        raise Refusal("not_host", "only the host may use the Sala menu", "R-RM-05")
    if room.config.kind is not RoomKind.RECREATIONAL:
        raise Refusal("home_game_only", "only a recreational room's host runs its table")


def _occupant(room: HostRoom, seat: int) -> Occupant:
    occupant = room.seats.get(seat) if 0 <= seat < room.seats.size else None
    if occupant is None:
        raise Refusal("empty_seat", f"nobody sits at seat {seat + 1}")
    return occupant


def _in_hand(room: HostRoom, seat: int, occupant: Occupant) -> bool:
    hand = room.dealer.hand
    return (
        hand is not None
        and hand.phase is not Phase.CANCELLED
        and hand.players.get(seat) == occupant.player_id
    )


def change_table(room: HostRoom, cmd: h.ChangeTable) -> Reply:
    """R-RM-04: for the next hand; between hands it is the next hand's at once."""
    require_home_host(room, cmd)
    fields = next_hand.proposed(room.config, cmd)
    desk = room.host_desk
    if room.dealer.hand is None:
        desk.apply_fields(fields)()
        room.emit_room()
        return Reply.accepted(applied=True)
    desk.pending.add_fields(fields)
    desk.announce("change_set", change={k: fields[k] for k in sorted(fields)})
    room.emit_room()
    return Reply.accepted(applied=False)


def adjust_stack(room: HostRoom, cmd: h.AdjustStack) -> Reply:
    """Chips for a stack, between hands: now, or when the hand the player is in ends."""
    require_home_host(room, cmd)
    occupant = _occupant(room, cmd.seat)
    limit = next_hand.CHIPS_CEILING
    if cmd.amount == 0 or abs(cmd.amount) > limit:
        raise Refusal(
            "chips_amount", f"add or remove 1 to {limit} chips, not {cmd.amount}", "R-RM-03"
        )
    desk = room.host_desk
    waiting = desk.pending.stacks.get(occupant.player_id, 0)
    if occupant.stack + waiting + cmd.amount < 0:
        raise Refusal(
            "chips_more_than_stack",
            f"{occupant.name} has {occupant.stack + waiting} chips: remove at most that many",
        )
    if _in_hand(room, cmd.seat, occupant):
        desk.pending.add_chips(occupant.player_id, cmd.amount)
        desk.announce("chips_set", seat=cmd.seat, name=occupant.name, amount=cmd.amount)
        room.emit_room()
        return Reply.accepted(applied=False)
    desk.apply_chips(cmd.seat, occupant, cmd.amount)()
    room.emit_room()
    room.dealer.wake()  # a stack that was empty may be dealt in now
    return Reply.accepted(applied=True, stack=occupant.stack)


def approve_players(room: HostRoom, cmd: h.ApprovePlayers) -> Reply:
    require_home_host(room, cmd)
    requests = room.host_desk.requests
    if requests.approve_players != cmd.on:
        requests.approve_players = cmd.on
        room.host_desk.announce("approve_players", on=cmd.on)
        room.emit_room()
    return Reply.accepted(on=cmd.on)


def answer_seat_request(room: HostRoom, cmd: h.AnswerSeatRequest) -> Reply:
    """Seat the player at the seat they asked for (another one if it was taken since), or
    turn them away; both are told to them and to the table."""
    require_home_host(room, cmd)
    desk = room.host_desk
    request = desk.requests.waiting.get(cmd.target_id)
    if request is None:
        raise Refusal("no_seat_request", "that player has no seat request waiting")
    if not cmd.approve:
        desk.requests.answer(cmd.target_id, approve=False)
        desk.announce("seat_refused", name=request.name)
        room.broadcast.notify(cmd.target_id, "notice", _notice("seat_refused", "the host said no"))
        room.emit_room()
        return Reply.accepted(seated=False)
    free = room.waitlist.open_seats()
    if not free:
        raise Refusal("full", "no free seat for this player", "R-RM-01")
    seat = request.seat if request.seat in free else free[0]
    seated = seat_person(room, request.player_id, request.name, seat)  # refuses unchanged
    desk.requests.answer(cmd.target_id, approve=True)
    desk.announce("seat_approved", name=request.name, seat=seat)
    room.emit_room()
    return Reply.accepted(seated=True, **seated.data)


def remove_player(room: HostRoom, cmd: h.RemovePlayer) -> Reply:
    """The player stands up (after the hand they are in, their cards folded), their chips
    leave with them into the ledger; they sit again only if the host approves."""
    require_home_host(room, cmd)
    occupant = _occupant(room, cmd.seat)
    if occupant.player_id == room.host_id:
        raise Refusal("remove_host", "the host cannot remove themselves: hand the host role on")
    if occupant.is_bot:
        raise Refusal("remove_bot_instead", "remove a bot with “Remove bot”", "R-RM-05")
    room.host_desk.requests.removed(occupant.player_id)
    room.host_desk.announce("player_removed", seat=cmd.seat, name=occupant.name)
    left = stand_up(room, occupant.player_id, reason="removed")
    return Reply.accepted(seat=cmd.seat, after_hand=left.data.get("after_hand", False))


def hand_over_host(room: HostRoom, cmd: h.HandOverHost) -> Reply:
    require_home_host(room, cmd)
    occupant = _occupant(room, cmd.seat)
    if occupant.is_bot or occupant.player_id == room.host_id:
        raise Refusal("new_host", "hand the host role to another person at the table")
    room.host_desk.announce("host_handed", seat=cmd.seat, name=occupant.name)  # by the old host
    room.host_id = occupant.player_id
    room.emit_room()
    return Reply.accepted(host_id=occupant.player_id)


def bomb_pot_next(room: HostRoom, cmd: h.BombPotNext) -> Reply:
    """The host's "Bomb pot": the next hand dealt is one, with the room's bomb pot ante."""
    require_home_host(room, cmd)
    if not room.config.hand_options.bomb_pot_ante:
        raise next_hand.option_refusal(
            HandOptionError(
                "bomb_pot_ante",
                "set the bomb pot ante (bomb_pot_ante) before asking for a bomb pot",
                "defina a aposta do bomb pot (bomb_pot_ante) antes de pedir um bomb pot",
            )
        )
    desk = room.host_desk
    if not desk.bomb_pot_next:
        desk.bomb_pot_next = True
        desk.announce("bomb_pot_next", ante=room.config.hand_options.bomb_pot_ante)
        room.emit_room()
    return Reply.accepted(bomb_pot_next=True)


def _notice(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "rule": None, "message": message}


HOST_HANDLERS: dict[type, Any] = {
    h.ChangeTable: change_table,
    h.AdjustStack: adjust_stack,
    h.ApprovePlayers: approve_players,
    h.AnswerSeatRequest: answer_seat_request,
    h.RemovePlayer: remove_player,
    h.HandOverHost: hand_over_host,
    h.BombPotNext: bomb_pot_next,
}
