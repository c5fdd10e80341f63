"""Every decision of whether a room takes a command lives in two tables: the room status's
(``ahiko.rooms.status.TABLE``) and the hand phase's (``ahiko.rooms.hand_phase.TABLE``).

The status table is total (every status, every command), no module of ``ahiko.rooms`` but
``status.py`` compares a room's status (it asks the table or a named predicate instead, as
``tests/poker/test_variant_names.py`` asks of a variant's name), and a paused room refuses a
player's turn through the table with the code players always had.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import get_args

import pytest
from rooms_helpers import Table, holdem_config

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms import hand_phase, status
from ahiko.rooms.commands import Refusal, Refused
from ahiko.rooms.house import host_orders
from ahiko.rooms.status import RoomStatus
from ahiko.rooms.table_hand import Phase

ROOMS = Path(status.__file__).resolve().parent
DEFINITION = "status.py"  # the table, its predicates, and the only place statuses are compared
MEMBERS = {member.name for member in RoomStatus}
VALUES = {member.value for member in RoomStatus}
COMMAND_CLASSES = get_args(c.Command)
S = RoomStatus


def _classes_defined_in(module: object) -> set[type]:
    return {
        value
        for _, value in inspect.getmembers(module, inspect.isclass)
        if value.__module__ == module.__name__  # type: ignore[attr-defined]
    }


def test_every_command_class_is_a_command_of_the_room() -> None:
    """A command added to ``ahiko.rooms.commands`` (or a host order) joins ``Command``, so the
    tables below see it."""
    answers = {c.Reply, c.Refusal, c.Refused}
    defined = (_classes_defined_in(c) - answers) | _classes_defined_in(host_orders)
    assert defined == set(COMMAND_CLASSES)


def test_the_status_table_decides_every_command_in_every_status() -> None:
    missing = [
        (s.value, command.__name__)
        for s in RoomStatus
        for command in COMMAND_CLASSES
        if (s, command) not in status.TABLE
    ]
    assert missing == []
    assert len(status.TABLE) == len(RoomStatus) * len(COMMAND_CLASSES)


def test_each_command_belongs_to_one_family_of_the_status_table() -> None:
    """A command in two families would take whichever row came last: each is in one."""
    families = [set(family) for family in status._ROWS]
    seen = [command for family in families for command in family]
    assert len(seen) == len(set(seen)) == len(COMMAND_CLASSES)


def test_a_decision_is_a_move_of_MOVES_or_a_refusal() -> None:
    for (current, _command), decision in status.TABLE.items():
        assert (
            isinstance(decision, Refused)
            or decision is current
            or (decision in status.MOVES[current])
        )


@pytest.mark.parametrize("command", [c.Act, c.UseTimeBank])
def test_R_RM_07_a_paused_room_refuses_a_turn_through_the_table(command: type) -> None:
    assert status.TABLE[(S.PAUSED, command)] == Refused("paused", "the room is paused", "R-RM-07")
    with pytest.raises(Refusal) as refused:
        status.require(S.PAUSED, command)
    reply = refused.value.reply
    assert (reply.code, reply.message, reply.rule) == ("paused", "the room is paused", "R-RM-07")
    assert status.require(S.RUNNING, command) is S.RUNNING


def test_R_RM_07_a_paused_table_answers_act_and_time_bank_as_before() -> None:
    t = Table(holdem_config(action_deadline_s=20), host="ana")
    t.join("ana", 0)
    t.join("bia", 1)
    t.ok(c.Start("ana"))
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None
    player = hand.players[hand.to_act]
    t.ok(c.Pause("ana"))
    for command in (c.Act(player, hand.hand_no, Action.call()), c.UseTimeBank(player)):
        reply = t.submit(command)
        assert (reply.ok, reply.code, reply.rule, reply.message) == (
            False,
            "paused",
            "R-RM-07",
            "the room is paused",
        )


@pytest.mark.parametrize(
    ("current", "command", "code", "message"),
    [
        (S.WAITING, c.ChooseRuns, "not_running", "the room is waiting"),
        (S.PAUSED, c.TakeStraddle, "not_running", "the room is paused"),
        (S.RUNNING, c.Start, "started", "the room is already running"),
        (S.FINISHED, c.Chat, "closed", "this tournament is over"),
        (S.CLOSED, c.BuyIn, "closed", "this room is closed"),
    ],
)
def test_the_table_keeps_the_messages_players_see(
    current: RoomStatus, command: type, code: str, message: str
) -> None:
    with pytest.raises(Refusal) as refused:
        status.require(current, command)
    assert (refused.value.reply.code, refused.value.reply.message) == (code, message)


def test_a_room_that_is_over_still_takes_what_is_done_after_the_end() -> None:
    for over in (S.FINISHED, S.CLOSED):
        for command in status.WATCHING | status.AFTER_THE_END:
            assert status.takes(over, command)
        assert not status.takes(over, c.Sit)


def test_the_hand_phase_table_decides_each_of_its_commands_in_every_phase() -> None:
    for command, row in hand_phase.TABLE.items():
        assert set(row) == set(hand_phase.PHASES), command
        assert row[hand_phase.BETWEEN_HANDS] != hand_phase.TAKEN  # no hand takes nothing
    assert {cmd for cmd, row in hand_phase.TABLE.items() if row[Phase.DEALT] == "taken"} == {
        c.Act,
        c.UseTimeBank,
        c.ChooseRuns,
    }
    with pytest.raises(Refusal) as refused:
        hand_phase.require_phase(None, c.FairReveal, hand_no=7)
    assert refused.value.reply.message == "the reveals of hand 7 are closed"


# --- no module but status.py compares a room's status -------------------------------------
def _names_status(node: ast.AST) -> bool:
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute) and part.attr == "status":  # room.status(.value)
            return True
        if isinstance(part, ast.Name) and (part.id == "status" or part.id in MEMBERS):
            return True
        if isinstance(part, ast.Attribute) and part.attr in MEMBERS:  # RoomStatus.PAUSED
            return True
        if isinstance(part, ast.Constant) and part.value in VALUES:  # == "waiting"
            return True
    return False


def status_comparisons(source: str) -> list[str]:
    """Each comparison of a room's status (or its value, or a status member) in ``source``,
    and each ``match`` on one."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        compared: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            compared = [node.left, *node.comparators]
        elif isinstance(node, ast.Match):
            compared = [node.subject]
        if any(_names_status(part) for part in compared):
            found.append((node.lineno, f"{node.lineno}: {ast.get_source_segment(source, node)}"))
    return [text for _, text in sorted(found)]


def test_no_module_of_rooms_but_status_compares_a_room_status() -> None:
    comparing = {}
    for path in sorted(ROOMS.rglob("*.py")):
        name = path.relative_to(ROOMS).as_posix()
        if name != DEFINITION:
            found = status_comparisons(path.read_text(encoding="utf-8"))
            if found:
                comparing[name] = found
    assert not comparing, f"ask ahiko.rooms.status (its table or a predicate): {comparing}"


def test_the_scanner_finds_each_way_of_comparing_a_status() -> None:
    source = (
        "a = room.status is RoomStatus.PAUSED\n"
        "b = room.status is not RUNNING\n"
        "c = self.status in (RoomStatus.RUNNING, RoomStatus.PAUSED)\n"
        'd = room.status.value == "waiting"\n'
        "e = status == other\n"
        "f = RoomStatus.CLOSED is s\n"
        "match room.status:\n    case _:\n        pass\n"
    )
    assert [line.split(":")[0] for line in status_comparisons(source)] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
    ]
    fine = (
        "a = hand.phase is Phase.DEALT\n"
        "b = has_started(room.status)\n"
        "c = room.move_to(RoomStatus.PAUSED)\n"
        "d = hand.to_act != seat\n"
    )
    assert status_comparisons(fine) == []
