"""The room's status, and every transition of it, in one table (h11's ``_state.py`` idea).

``MOVES`` says which status may follow which; ``Room.move_to`` is the only writer of
``Room.status`` and checks it. ``require`` is the status × command table: a command the
room's status does not take is refused here, with the code, message and rule players see.
Which commands a room *kind* takes (a tournament's closed seats, an Ahiko buy-in) is the
kind's policy (``ahiko.rooms.kinds``); what a seat or a hand allows is the handlers'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal, closed_message


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

#: Commands a room takes whatever its status: watching it.
WATCHING: frozenset[type] = frozenset({c.Connect, c.Disconnect, c.SnapshotRequest})

#: status × command: the commands that change the status, and to what.
COMMANDS: Mapping[tuple[RoomStatus, type], RoomStatus] = {
    (WAITING, c.Start): RUNNING,
    (RUNNING, c.Pause): PAUSED,
    (PAUSED, c.Resume): RUNNING,
    (WAITING, c.Close): CLOSED,
    (RUNNING, c.Close): CLOSED,
    (PAUSED, c.Close): CLOSED,
}

#: Why a status-changing command is refused in a status that does not take it.
_REFUSED: Mapping[type, Callable[[RoomStatus], Refusal]] = {
    c.Start: lambda s: Refusal("started", f"the room is already {s}", "R-RM-03"),
    c.Pause: lambda s: Refusal("not_running", f"the room is {s}", "R-RM-07"),
    c.Resume: lambda s: Refusal("not_paused", f"the room is {s}", "R-RM-07"),
}


#: status × command: commands a hand in play answers, taken only while the room runs.
WHILE_RUNNING: Mapping[type, Callable[[RoomStatus], Refusal]] = {
    c.ChooseRuns: lambda s: Refusal("not_running", f"the room is {s}", "R-RM-07"),
    c.TakeStraddle: lambda s: Refusal("not_running", f"the room is {s}", "R-RM-07"),
}


def is_open(status: RoomStatus) -> bool:
    return bool(MOVES[status])


def require(status: RoomStatus, command: type) -> RoomStatus:
    """The status ``command`` leaves the room in, or a ``Refusal`` when ``status`` does not
    take it: a room that is over takes nothing but watchers; a status-changing command only
    in a status that has that move."""
    if command in WATCHING:
        return status
    if not is_open(status):
        raise Refusal("closed", closed_message(status.value))
    playing = WHILE_RUNNING.get(command)
    if playing is not None and status is not RoomStatus.RUNNING:
        raise playing(status)
    target = COMMANDS.get((status, command))
    if target is not None:
        return target
    refused = _REFUSED.get(command)
    if refused is not None:
        raise refused(status)
    return status


def check_move(current: RoomStatus, target: RoomStatus) -> None:
    """A transition not in ``MOVES`` is a bug in the room, never a player's mistake."""
    if target is not current and target not in MOVES[current]:
        raise AssertionError(f"a room cannot go from {current} to {target}")
