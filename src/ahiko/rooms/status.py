"""The room's status, and every transition of it, in one table (h11's ``_state.py`` idea).

``MOVES`` says which status may follow which; ``Room.move_to`` is the only writer of
``Room.status`` and checks it. ``TABLE`` is the status × command table: for every status and
every command, the status the command leaves the room in, or the refusal players see.
``require`` reads it; the predicates below (``has_started``, ``plays_hands``, ``may_finish``)
answer the room's own flow, so no other module compares statuses. Which commands a room
*kind* takes (a tournament's closed seats, an Ahiko buy-in) is the kind's policy
(``ahiko.rooms.kinds``); what a hand's phase takes is ``ahiko.rooms.hand_phase``'s; what a
seat allows is the handlers'.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import get_args

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal, Refused
from ahiko.rooms.house.host_orders import HostOrder


class RoomStatus(StrEnum):
    WAITING = "waiting"  # created, not started by the host yet
    RUNNING = "running"
    PAUSED = "paused"  # R-RM-07 / R-RM-09
    FINISHED = "finished"  # tournament over (R-TN-05)
    CLOSED = "closed"


WAITING, RUNNING, PAUSED, FINISHED, CLOSED = RoomStatus

#: status -> the statuses it may move to.
MOVES: Mapping[RoomStatus, frozenset[RoomStatus]] = {
    WAITING: frozenset({RUNNING, CLOSED}),  # the host starts (R-RM-03) or closes
    RUNNING: frozenset({PAUSED, FINISHED, CLOSED}),
    PAUSED: frozenset({RUNNING, FINISHED, CLOSED}),  # R-RM-07 resume; R-RM-09 empty close
    FINISHED: frozenset(),  # R-TN-05: the winner is decided; the table stays on show
    CLOSED: frozenset(),
}

# --- the commands, by how the room's status answers them ---------------------------------
#: Taken whatever the status: watching the room.
WATCHING: frozenset[type] = frozenset({c.Connect, c.Disconnect, c.SnapshotRequest})
#: Taken whatever the status too: what a player may still do about what was said or dealt
#: once the room is over (the chat's and the fair deal's own checks answer them).
AFTER_THE_END: frozenset[type] = frozenset({c.ChatMute, c.ChatReport, c.FairReveal})
#: Taken while the room is open, whether it waits, runs or is paused.
WHILE_OPEN: frozenset[type] = frozenset(
    {
        c.Sit,
        c.Leave,
        c.Show,
        c.FairCommit,
        c.NewEntry,
        c.AddBot,
        c.RemoveBot,
        c.Announce,
        c.MoveIn,
        c.MoveOut,
        c.Wake,
        c.TellMoved,
        c.BuyIn,
        c.Reload,
        c.LeaveAfterHand,
        c.SitOut,
        c.WaitList,
        c.Chat,
        c.ChatSetting,
        *get_args(HostOrder),  # a home game's host: the next hand's table, between hands
    }
)
#: A player's own turn: frozen while the room is paused, its clock with it (R-RM-07).
IN_TURN: frozenset[type] = frozenset({c.Act, c.UseTimeBank})
#: Answers a hand in play asks for (run it twice, the straddle): only while the room runs.
HAND_ANSWERS: frozenset[type] = frozenset({c.ChooseRuns, c.TakeStraddle})

# --- the refusals, as players see them ----------------------------------------------------
#: What a room that is over answers every command but the watchers' and AFTER_THE_END.
OVER: Mapping[RoomStatus, Refused] = {
    FINISHED: Refused("closed", "this tournament is over"),
    CLOSED: Refused("closed", "this room is closed"),
}
_ALREADY_STARTED = Refused("started", "the room is already {status}", "R-RM-03")
_NOT_RUNNING = Refused("not_running", "the room is {status}", "R-RM-07")
_NOT_PAUSED = Refused("not_paused", "the room is {status}", "R-RM-07")
_PAUSED = Refused("paused", "the room is paused", "R-RM-07")

Decision = RoomStatus | Refused  # the status the command leaves the room in, or its refusal


def _always() -> dict[RoomStatus, Decision]:
    return {status: status for status in RoomStatus}


def _while_open(
    waiting: Decision, running: Decision, paused: Decision
) -> dict[RoomStatus, Decision]:
    return {WAITING: waiting, RUNNING: running, PAUSED: paused, **OVER}


#: command family -> its decision in every status.
_ROWS: Mapping[frozenset[type], Mapping[RoomStatus, Decision]] = {
    WATCHING: _always(),
    AFTER_THE_END: _always(),
    WHILE_OPEN: _while_open(WAITING, RUNNING, PAUSED),
    IN_TURN: _while_open(WAITING, RUNNING, _PAUSED),
    HAND_ANSWERS: _while_open(_NOT_RUNNING, RUNNING, _NOT_RUNNING),
    frozenset({c.Start}): _while_open(RUNNING, _ALREADY_STARTED, _ALREADY_STARTED),  # R-RM-03
    frozenset({c.Pause}): _while_open(_NOT_RUNNING, PAUSED, _NOT_RUNNING),  # R-RM-07
    frozenset({c.Resume}): _while_open(_NOT_PAUSED, _NOT_PAUSED, RUNNING),
    frozenset({c.Close}): _while_open(CLOSED, CLOSED, CLOSED),  # R-RM-08
}

#: (status, command) -> the status it leaves the room in, or the refusal players see.
TABLE: Mapping[tuple[RoomStatus, type], Decision] = {
    (status, command): decision
    for family, row in _ROWS.items()
    for command in family
    for status, decision in row.items()
}

#: status × command: the commands that change the status, and to what.
COMMANDS: Mapping[tuple[RoomStatus, type], RoomStatus] = {
    (status, command): decision
    for (status, command), decision in TABLE.items()
    if isinstance(decision, RoomStatus) and decision is not status
}


def require(status: RoomStatus, command: type) -> RoomStatus:
    """The status ``command`` leaves the room in, or a ``Refusal`` when ``status`` does not
    take it."""
    decision = TABLE[(status, command)]
    if isinstance(decision, Refused):
        raise decision.refusal(status=status.value)
    return decision


def takes(status: RoomStatus, command: type) -> bool:
    """Whether ``status`` takes ``command`` (the house pausing an empty room as a host would)."""
    return isinstance(TABLE[(status, command)], RoomStatus)


def over(status: RoomStatus) -> Refusal:
    """What a room that is over (finished or closed) answers a command."""
    return OVER[status].refusal()


# --- the room's flow, asked of its status -------------------------------------------------
def is_open(status: RoomStatus) -> bool:
    return bool(MOVES[status])


def has_started(status: RoomStatus) -> bool:
    """Past the host's (or the house's) start: a tournament's seats are closed, a person
    seated now who is not connected is absent, a leaver is eliminated, not just gone."""
    return status is not WAITING


def plays_hands(status: RoomStatus) -> bool:
    """Hands are dealt and played, and their clocks run: not before the start, not during a
    pause, not once the room is over."""
    return status is RUNNING


def may_finish(status: RoomStatus) -> bool:
    """A tournament can be decided now (R-TN-05): it started and is not over."""
    return FINISHED in MOVES[status]


def check_move(current: RoomStatus, target: RoomStatus) -> None:
    """A transition not in ``MOVES`` is a bug in the room, never a player's mistake."""
    if target is not current and target not in MOVES[current]:
        raise AssertionError(f"a room cannot go from {current} to {target}")
