"""How a room answers each command. A handler either refuses (raising ``Refusal`` before
changing anything) or applies the command completely.

This is the dispatch: a command may touch any part of the table, so its port (``Table``,
in ``table_port``) is the one wide port of the room, and names the parts themselves rather
than a slice of each. It is still a port: the handlers see the parts and the room's own
verbs (``start_running``, ``close``, ``seat_occupant``, ``player_left``, ``emit_room``). The
house's commands (a buy-in, a reload, the host's menu, seating a person) join the dispatch
in ``room.py``, where the house is composed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ahiko.poker.actions import IllegalAction
from ahiko.rooms import commands as c
from ahiko.rooms import pausing
from ahiko.rooms.commands import NOT_SEATED, Refusal, Reply
from ahiko.rooms.hand_phase import NOT_IN_A_HAND, require_phase
from ahiko.rooms.leaving import ensure_open, leave
from ahiko.rooms.seats import Occupant
from ahiko.rooms.status import has_started, require
from ahiko.rooms.table_hand import Phase

if TYPE_CHECKING:
    from ahiko.rooms.table_port import Table

OPERATOR_NOTICE = "operator_notice"  # the notice frame's code: the client shows the text


def _host(room: Table, player_id: str) -> None:
    ensure_open(room)
    if not room.config.has_host or player_id != room.host_id:
        raise Refusal("not_host", "only the host may use the Sala menu", "R-RM-05")


def ask_to_sit(room: Table, cmd: c.Sit) -> Reply | None:
    """A ``sit``'s checks: the answer when the host must approve it first, None when the
    person is seated now (the house's ``seat_person``, R-RM-16 during a hand)."""
    ensure_open(room)
    room.kind.may_sit(room)  # an Ahiko buy-in (R-RM-12), a started tournament (R-TN-02)
    room.waitlist.may_sit(cmd.player_id, cmd.seat)  # a seat held for the first in line
    return room.host_desk.ask_to_sit(cmd)  # "approve players": the host decides


def act(room: Table, cmd: c.Act) -> Reply:
    ensure_open(room)
    hand = require_phase(room.dealer.hand, c.Act)
    if cmd.hand_no != hand.hand_no:
        raise Refusal("stale_hand", f"hand {cmd.hand_no} is over; hand {hand.hand_no} is in play")
    seat = hand.seat_of(cmd.player_id)
    if seat is None:
        raise Refusal("not_in_hand", f"you are not dealt into hand {hand.hand_no}")
    if cmd.seat is not None and cmd.seat != seat:
        raise Refusal("not_your_seat", "that seat is not yours")
    require(room.status, c.Act)  # a paused room's turn waits for the resume (R-RM-07)
    if hand.to_act != seat:
        raise Refusal("out_of_turn", "it is not your turn", "R-HE-05")
    try:
        room.dealer.apply_action(seat, cmd.action)
    except IllegalAction as exc:
        raise Refusal("illegal_action", exc.message, exc.rule) from None
    return Reply.accepted(hand_no=hand.hand_no)


def show(room: Table, cmd: c.Show) -> Reply:
    """R-HE-12: a player who won without showdown may show, until the next hand."""
    ensure_open(room)
    hand = room.dealer.last_hand
    if hand is None or hand.hand_no != cmd.hand_no:
        raise Refusal("stale_hand", f"hand {cmd.hand_no} is not the hand just finished")
    seat = hand.seat_of(cmd.player_id)
    if seat is None:
        raise Refusal("not_in_hand", f"you were not in hand {hand.hand_no}")
    before = hand.deal_state
    try:
        events = hand.show(seat)
    except IllegalAction as exc:
        raise Refusal("illegal_action", exc.message, exc.rule) from None
    room.dealer.after_events(hand, events, before)
    return Reply.accepted(hand_no=hand.hand_no)


def new_entry(room: Table, cmd: c.NewEntry) -> Reply:
    """R-RM-06: a person with no chips, not in a hand, gets the starting chips again."""
    ensure_open(room)
    room.kind.may_new_entry(room)
    seat = room.seats.seat_of(cmd.player_id)
    occupant = room.seats.get(seat) if seat is not None else None
    if seat is None or occupant is None or occupant.player_id != cmd.player_id:
        raise Refusal("not_seated", NOT_SEATED, "R-RM-01")
    if occupant.stack > 0:
        raise Refusal(
            "has_chips", f"a new entry needs 0 chips; you have {occupant.stack}", "R-RM-06"
        )
    hand = room.dealer.hand
    if hand is not None and hand.players.get(seat) == cmd.player_id:
        raise Refusal("in_hand", "a new entry is not possible during your hand", "R-RM-06")
    most = room.config.max_rebuys
    if most is not None and room.host_desk.ledger.rebuys_of(cmd.player_id) >= most:
        raise Refusal("rebuys_used", f"this game allows {most} rebuys a player", "R-RM-06")
    occupant.stack = room.config.starting_chips
    occupant.new_entries += 1
    room.chips_in += occupant.stack
    room.host_desk.ledger.rebought(
        occupant.player_id, occupant.name, occupant.stack, room.dealer.next_hand_no
    )
    room.emit_room()
    room.dealer.wake()
    return Reply.accepted(stack=occupant.stack)


def start(room: Table, cmd: c.Start) -> Reply:
    """R-RM-03: two participants with chips, at least one of them a person; the host
    seated among them (R-RM-03 D). The house starts a room without a host (a sit & go):
    a seated person not connected then has the absence deadline to come (R-TM-03)."""
    house = cmd.player_id is None
    if house:
        ensure_open(room)
        if room.host_id is not None:
            raise Refusal("not_host", "only the host may use the Sala menu", "R-RM-05")
    else:
        assert cmd.player_id is not None
        _host(room, cmd.player_id)
    require(room.status, c.Start)
    if not house and room.seats.seat_of(cmd.player_id or "") is None:
        raise Refusal("host_not_seated", "take a seat at the table to start the game", "R-RM-03")
    if house and len(room.seats.items()) < 2:
        raise Refusal("not_ready", "a tournament needs two players seated", "R-TN-01")
    if not house and not room.dealer.participants_ready():
        raise Refusal(
            "not_ready",
            "starting needs two participants with chips, one of them a person",
            "R-RM-03",
        )
    room.start_running()
    if house:
        room.presence.absent_from_start()
    room.emit_room()
    room.dealer.schedule_next_hand(0.0)
    return Reply.accepted()


def pause(room: Table, cmd: c.Pause) -> Reply:
    _host(room, cmd.player_id)
    require(room.status, c.Pause)
    pausing.pause(room)
    return Reply.accepted()


def resume(room: Table, cmd: c.Resume) -> Reply:
    _host(room, cmd.player_id)
    require(room.status, c.Resume)
    room.presence.auto_paused = False
    pausing.resume(room)
    return Reply.accepted()


def add_bot(room: Table, cmd: c.AddBot) -> Reply:
    """R-RM-05: a bot added during a hand plays from the next one."""
    _host(room, cmd.player_id)
    room.kind.may_add_bot(room)
    free = room.waitlist.open_seats()  # not a seat offered to the waiting list
    seat = cmd.seat if cmd.seat is not None else (free[0] if free else None)
    if seat is not None:
        room.waitlist.may_sit(cmd.player_id, seat)
    if seat is None:
        raise Refusal("full", "no free seat for a bot", "R-RM-01")
    occupant = room.bots.new(cmd.level, room.config.starting_chips, room.config.variant.game)
    try:
        reserved = room.seat_occupant(seat, occupant)
    except Refusal:
        room.bots.drop(occupant.player_id)
        raise
    room.kind.on_seated(room)
    room.emit_room()
    room.dealer.wake()
    return Reply.accepted(seat=seat, player_id=occupant.player_id, reserved=reserved)


def remove_bot(room: Table, cmd: c.RemoveBot) -> Reply:
    """R-RM-05: a bot removed while in a hand finishes it, then leaves."""
    _host(room, cmd.player_id)
    occupant = room.seats.get(cmd.seat)
    if occupant is None or not occupant.is_bot:
        raise Refusal("not_a_bot", "that seat holds no bot", "R-RM-05")
    hand = room.dealer.hand
    if hand is not None and hand.players.get(cmd.seat) == occupant.player_id:
        if hand.phase is Phase.COMMITTED:
            room.dealer.cancel_committed_hand(f"bot at seat {cmd.seat} removed before the deal")
        else:
            occupant.leave_after_hand = True
            room.emit_room()
            return Reply.accepted(seat=cmd.seat, after_hand=True)
    room.seats.remove(cmd.seat)
    room.player_left(occupant)
    room.emit_room()
    room.dealer.wake()
    return Reply.accepted(seat=cmd.seat, after_hand=False)


def close(room: Table, cmd: c.Close) -> Reply:
    """R-RM-08: closing during a hand returns the bets. Without a player it is the house
    closing a room (the Ahiko lobby's surplus rule): no host needed."""
    if cmd.player_id is None:
        ensure_open(room)
    else:
        _host(room, cmd.player_id)
    room.close(cmd.reason)
    return Reply.accepted(stacks=room.closed_stacks)


def announce(room: Table, cmd: c.Announce) -> Reply:
    ensure_open(room)
    notice = {"code": OPERATOR_NOTICE, "rule": None, "message": cmd.text}
    room.broadcast.tell_watchers("notice", notice, lambda _player: True)
    return Reply.accepted()


def _table_of_mtt(room: Table) -> None:
    ensure_open(room)
    if room.config.part_of is None:
        raise Refusal("not_mtt", "only a multi-table tournament's table moves players")


def move_in(room: Table, cmd: c.MoveIn) -> Reply:
    """A multi-table tournament's house seats a player with their chips."""
    _table_of_mtt(room)
    if cmd.stack < 1:
        raise Refusal("no_chips", "a player moves with chips", "R-TN-04")
    occupant = Occupant(
        cmd.player_id,
        cmd.name,
        cmd.stack,
        connected=room.presence.is_connected(cmd.player_id),
        waits_for_big_blind=cmd.waits_for_big_blind,
    )
    reserved = room.seat_occupant(cmd.seat, occupant)
    if has_started(room.status) and not occupant.connected:
        occupant.connected = True  # absent from now on (R-TM-03), as at a sit & go's start
        room.presence.mark_absent(cmd.player_id)
    room.emit_room()
    room.dealer.wake()
    return Reply.accepted(seat=cmd.seat, reserved=reserved)


def move_out(room: Table, cmd: c.MoveOut) -> Reply:
    """A multi-table tournament's house moves a player away, after their hand if in one."""
    _table_of_mtt(room)
    seat = room.seats.seat_of(cmd.player_id)
    occupant = room.seats.get(seat) if seat is not None else None
    if seat is None or occupant is None or occupant.player_id != cmd.player_id:
        raise Refusal("not_seated", NOT_SEATED, "R-RM-01")
    hand = room.dealer.hand
    in_hand = hand is not None and hand.players.get(seat) == cmd.player_id
    if hand is not None and in_hand and hand.phase is Phase.COMMITTED:
        room.dealer.cancel_committed_hand(f"seat {seat} moved to another table before the deal")
        in_hand = False
    if in_hand:
        occupant.leave_after_hand = True
    else:
        room.seats.remove(seat)
        room.player_left(occupant)
    room.emit_room()
    if room.dealer.hand is None:
        room.dealer.wake()
    return Reply.accepted(after_hand=in_hand)


def wake(room: Table, cmd: c.Wake) -> Reply:
    """A multi-table tournament's house lets a held table deal (hand-for-hand)."""
    _table_of_mtt(room)
    room.dealer.wake()
    return Reply.accepted()


def tell_moved(room: Table, cmd: c.TellMoved) -> Reply:
    """A multi-table tournament's house tells a player they sit at another table now."""
    _table_of_mtt(room)
    room.broadcast.notify(cmd.player_id, "moved", dict(cmd.where))
    return Reply.accepted()


def sit_out(room: Table, cmd: c.SitOut) -> Reply:
    ensure_open(room)
    return room.sitting_out.command(cmd)


def wait_list(room: Table, cmd: c.WaitList) -> Reply:
    ensure_open(room)
    return room.waitlist.command(cmd)


def use_time_bank(room: Table, cmd: c.UseTimeBank) -> Reply:
    ensure_open(room)
    hand = require_phase(room.dealer.hand, c.UseTimeBank)
    seat = hand.seat_of(cmd.player_id)
    if seat is None:
        raise NOT_IN_A_HAND.refusal()
    require(room.status, c.UseTimeBank)
    if hand.to_act != seat:
        raise Refusal("out_of_turn", "it is not your turn", "R-HE-05")
    return room.turns.use_time_bank(hand, seat)


def chat(room: Table, cmd: c.Chat) -> Reply:
    ensure_open(room)
    return room.chat.say(cmd)


def chat_mute(room: Table, cmd: c.ChatMute) -> Reply:
    return room.chat.mute(cmd)


def chat_report(room: Table, cmd: c.ChatReport) -> Reply:
    return room.chat.report(cmd)


def chat_setting(room: Table, cmd: c.ChatSetting) -> Reply:
    ensure_open(room)
    return room.chat.set_mode(cmd)


def connect(room: Table, cmd: c.Connect) -> Reply:
    # before anything newer: what it missed of this run, else a snapshot
    room.broadcast.catch_up(cmd.connection_id, cmd.player_id, cmd.since, cmd.epoch)
    room.presence.connect(cmd.connection_id, cmd.player_id)
    if cmd.player_id is not None:
        room.hooks.on_connected(room.view, cmd.player_id)
    return Reply.accepted()


def disconnect(room: Table, cmd: c.Disconnect) -> Reply:
    room.presence.disconnect(cmd.connection_id)
    return Reply.accepted()


def snapshot(room: Table, cmd: c.SnapshotRequest) -> Reply:
    room.broadcast.send_snapshot(cmd.connection_id, room.presence.player_of(cmd.connection_id))
    return Reply.accepted()


def fair_commit(room: Table, cmd: c.FairCommit) -> Reply:
    ensure_open(room)
    seat = room.seat_secrets.commit(cmd.player_id, cmd.hand_no, cmd.commitment)
    return Reply.accepted(hand_no=cmd.hand_no, seat=seat)


def fair_reveal(room: Table, cmd: c.FairReveal) -> Reply:
    return Reply.accepted(
        hand_no=cmd.hand_no, **room.seat_secrets.reveal(cmd.player_id, cmd.hand_no, cmd.secret)
    )


Handler = Callable[["Table", Any], Reply]

#: The table's own commands; ``room.py`` adds the house's (``Sit`` among them).
HANDLERS: dict[type, Handler] = {
    c.Leave: lambda room, cmd: leave(room, cmd.player_id),
    c.Act: act,
    c.Show: show,
    c.FairCommit: fair_commit,
    c.FairReveal: fair_reveal,
    c.NewEntry: new_entry,
    c.Start: start,
    c.Pause: pause,
    c.Resume: resume,
    c.AddBot: add_bot,
    c.RemoveBot: remove_bot,
    c.Close: close,
    c.Announce: announce,
    c.MoveIn: move_in,
    c.MoveOut: move_out,
    c.Wake: wake,
    c.TellMoved: tell_moved,
    c.SitOut: sit_out,
    c.WaitList: wait_list,
    c.UseTimeBank: use_time_bank,
    c.ChooseRuns: lambda room, cmd: room.run_question.command(cmd),
    c.TakeStraddle: lambda room, cmd: room.straddle_offer.command(cmd),
    c.Chat: chat,
    c.ChatMute: chat_mute,
    c.ChatReport: chat_report,
    c.ChatSetting: chat_setting,
    c.Connect: connect,
    c.Disconnect: disconnect,
    c.SnapshotRequest: snapshot,
}
