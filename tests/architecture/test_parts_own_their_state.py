"""Each part of a room owns its state: the broadcaster its ``seq`` and epoch, the dealer the
hand, turns the auto-action. No module of ``rooms/`` but ``room.py`` assigns a field of the
room it is handed, except the few its port declares settable (the room's run flags, the
chips that entered the table, how the room ended)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from import_contract import module_name

SRC = Path(__file__).resolve().parents[2] / "src"
#: The room's fields a part may set, each declared settable in that part's port.
#: The room's own fields a part may set, each declared settable in that part's port: the run
#: flags, the chips in and out of the table, how the room ended, and the host's desk changing
#: the room's settings or handing the room to another host.
SETTABLE = frozenset(
    {"draining", "stopped", "chips_in", "chips_out", "closed_stacks", "expiry_reason"}
    | {"config", "host_id"}
)
#: What moved to its owner: no one else writes these on the room any more.
OWNED_ELSEWHERE = frozenset({"seq", "epoch", "hand", "last_hand", "hands_dealt", "auto_action"})


def room_fields_written(source: str) -> list[tuple[int, str]]:
    """(line, field) of every assignment to ``room.X``, ``self._room.X`` or ``self.room.X``."""
    written = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            if not isinstance(target, ast.Attribute):
                continue
            holder = target.value
            named_room = isinstance(holder, ast.Name) and holder.id == "room"
            held_room = isinstance(holder, ast.Attribute) and holder.attr in ("room", "_room")
            if named_room or held_room:
                written.append((node.lineno, target.attr))
    return written


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("room.seq += 1\n", [(1, "seq")]),
        ("def f(self):\n    self._room.hand = None\n", [(2, "hand")]),
        ("self.room.auto_action: dict = {}\n", [(1, "auto_action")]),
        ("room.dealer.hand = None\nhand.seq = 1\n", []),  # a part's own field, another object
    ],
)
def test_the_scanner_finds_writes_to_the_room(source: str, expected: list) -> None:
    assert room_fields_written(source) == expected


def test_R_ARCH_parts_write_only_the_room_fields_their_ports_declare() -> None:
    package = SRC / "ahiko" / "rooms"
    stray = {}
    for path in sorted(package.rglob("*.py")):
        module = module_name(path, SRC)
        if module == "ahiko.rooms.room":
            continue
        written = room_fields_written(path.read_text(encoding="utf-8"))
        wrong = [(line, field) for line, field in written if field not in SETTABLE]
        if wrong:
            stray[module] = wrong
    assert not stray, f"the part that owns it writes it (dealer, broadcast, turns): {stray}"
    assert not SETTABLE & OWNED_ELSEWHERE
