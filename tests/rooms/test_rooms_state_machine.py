"""The room's state machine in one table (``ahiko.rooms.status``), its typed timers
(``ahiko.rooms.timers``) and its kinds as policy objects (``ahiko.rooms.kinds``)."""

from __future__ import annotations

import pytest
from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.commands import Refusal
from ahiko.rooms.config import RoomKind
from ahiko.rooms.kinds import House, Recreational, Tournament, policy_for
from ahiko.rooms.status import COMMANDS, MOVES, WATCHING, RoomStatus, check_move, require
from ahiko.rooms.timers import PAUSABLE, TimerName, Timers, absence

S = RoomStatus


def test_every_status_change_a_command_makes_is_a_move_of_the_table() -> None:
    for (status, _command), target in COMMANDS.items():
        assert target in MOVES[status]


@pytest.mark.parametrize(
    ("status", "command", "code", "rule"),
    [
        (S.RUNNING, c.Start, "started", "R-RM-03"),
        (S.PAUSED, c.Start, "started", "R-RM-03"),
        (S.WAITING, c.Pause, "not_running", "R-RM-07"),
        (S.PAUSED, c.Pause, "not_running", "R-RM-07"),
        (S.RUNNING, c.Resume, "not_paused", "R-RM-07"),
        (S.CLOSED, c.Sit, "closed", None),
        (S.FINISHED, c.Act, "closed", None),
        (S.CLOSED, c.Close, "closed", None),
    ],
)
def test_R_RM_07_a_status_refuses_the_commands_it_does_not_take(
    status: RoomStatus, command: type, code: str, rule: str | None
) -> None:
    with pytest.raises(Refusal) as refused:
        require(status, command)
    assert refused.value.reply.code == code and refused.value.reply.rule == rule


def test_R_TN_05_a_finished_tournament_and_a_closed_room_take_only_watchers() -> None:
    assert MOVES[S.FINISHED] == MOVES[S.CLOSED] == frozenset()
    for status in (S.FINISHED, S.CLOSED):
        for command in WATCHING:
            assert require(status, command) is status
    assert require(S.WAITING, c.Start) is S.RUNNING
    assert require(S.RUNNING, c.Pause) is S.PAUSED and require(S.PAUSED, c.Resume) is S.RUNNING


def test_a_move_outside_the_table_is_a_bug_not_a_refusal() -> None:
    check_move(S.RUNNING, S.PAUSED)
    with pytest.raises(AssertionError, match="from closed to running"):
        check_move(S.CLOSED, S.RUNNING)
    t = Table(holdem_config())
    t.room.close("host")
    with pytest.raises(AssertionError):
        t.room.move_to(S.RUNNING)  # a closed room never opens again


def test_R_RM_07_a_pause_freezes_the_timers_of_play_and_not_the_absence_clock() -> None:
    clock = ManualClock()
    fired: list[str] = []
    timers = Timers(clock, lambda job: job())
    timers.set(TimerName.DEADLINE, 20, lambda: fired.append("deadline"))
    timers.set(absence("ana"), 120, lambda: fired.append("absence"))
    clock.advance(5)
    timers.freeze()
    assert TimerName.DEADLINE in PAUSABLE and not timers.is_set(TimerName.DEADLINE)
    assert timers.frozen_left(TimerName.DEADLINE) == 15
    clock.advance(200)  # paused: the deadline does not run out; the absence clock does
    assert fired == ["absence"]
    left = timers.thaw()
    assert left == {TimerName.DEADLINE: 15}
    timers.set(TimerName.DEADLINE, left[TimerName.DEADLINE], lambda: fired.append("deadline"))
    clock.advance(15)
    assert fired == ["absence", "deadline"]


def test_R_RM_07_a_paused_room_keeps_the_seat_to_act_its_time() -> None:
    t = Table(holdem_config(action_deadline_s=20), host="ana")
    t.join("ana", 0)
    t.join("bia", 1)
    t.ok(c.Start("ana"))  # the host seated (R-RM-03 D)
    t.to_deal()
    t.advance(6)
    t.ok(c.Pause("ana"))
    t.advance(600)
    assert t.room.dealer.hand is not None and t.room.turns.deadline() == {
        "seat": t.room.dealer.hand.to_act,
        "seconds_left": 14.0,
        "time_bank_running": None,  # issue 19: the bank is frozen with the clock
        "time_bank": 30.0,
    }
    t.ok(c.Resume("ana"))
    assert t.room.timers.left(TimerName.DEADLINE) == 14.0


@pytest.mark.parametrize(
    ("kind", "policy", "person", "takes_bot_place", "closes_empty", "waits"),
    [
        (RoomKind.RECREATIONAL, Recreational, True, True, True, False),
        (RoomKind.TOURNAMENT, Tournament, False, False, False, False),
        (RoomKind.AHIKO, House, True, False, False, True),
    ],
)
def test_R_RM_03_R_RM_09_R_RM_11_each_room_kind_is_one_policy(
    kind: RoomKind,
    policy: type,
    person: bool,
    takes_bot_place: bool,
    closes_empty: bool,
    waits: bool,
) -> None:
    found = policy_for(kind)
    assert isinstance(found, policy) and found.kind is kind
    assert (
        found.needs_a_person,
        found.may_take_bot_place,
        found.closes_when_empty,
        found.deals_after_wait,
    ) == (person, takes_bot_place, closes_empty, waits)


def test_R_RM_06_R_RM_12_what_a_kind_refuses_it_refuses_with_its_rule() -> None:
    t = Table(holdem_config())
    with pytest.raises(Refusal) as house:
        policy_for(RoomKind.AHIKO).may_sit(t.room)
    assert house.value.reply.code == "buy_in_required" and house.value.reply.rule == "R-RM-12"
    with pytest.raises(Refusal) as entry:
        policy_for(RoomKind.TOURNAMENT).may_new_entry(t.room)
    assert entry.value.reply.rule == "R-RM-06"
    assert policy_for(RoomKind.RECREATIONAL).may_new_entry(t.room) is None
