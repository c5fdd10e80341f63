"""Outside ``ahiko.rooms`` a room is seen through its ``RoomView`` only.

The layer check (``import_contract``) lets ``competition`` and ``server`` import anything of
``rooms``; this one closes the door it leaves open: no module outside ``rooms/`` imports
``ahiko.rooms.room`` (a type-only import included), names ``Room`` (in code or in an
annotation string), or reaches the room behind a view (``room_behind``, the house's own).

Inside ``rooms/`` the same holds for names: only ``room.py`` names ``Room``. Each part is
handed its collaborators, or a ``Protocol`` declared beside it listing what it uses.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from import_contract import imports_of, module_name

SRC = Path(__file__).resolve().parents[2] / "src"
ROOM_MODULE = "ahiko.rooms.room"
BEHIND_THE_VIEW = "ahiko.rooms.room_view.room_behind"


def _names_room(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "Room"
    if isinstance(node, ast.Attribute):
        return node.attr == "Room"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # "Room" as a type
        try:
            expression = ast.parse(node.value, mode="eval")
        except SyntaxError:
            return False  # prose, a docstring: not a type
        return any(_names_room(part) for part in ast.walk(expression))
    return False


def reaches_the_room(module: str, source: str, *, is_package: bool = False) -> list[str]:
    """Each place in ``source`` (the text of ``module``) that imports the room's module,
    names ``Room`` or asks for the room behind a view."""
    found = []
    for imp in imports_of(module, source, is_package=is_package):
        in_the_room = imp.target == ROOM_MODULE or imp.target.startswith(ROOM_MODULE + ".")
        if in_the_room or imp.target == BEHIND_THE_VIEW:
            found.append(f"{imp.line}: imports {imp.target}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name | ast.Attribute | ast.Constant) and _names_room(node):
            found.append(f"{node.lineno}: names Room")
    return sorted(set(found))


def test_no_module_outside_rooms_reaches_the_room() -> None:
    reaching = {}
    for path in sorted((SRC / "ahiko").rglob("*.py")):
        module = module_name(path, SRC)
        if module == "ahiko.rooms" or module.startswith("ahiko.rooms."):
            continue
        text = path.read_text(encoding="utf-8")
        found = reaches_the_room(module, text, is_package=path.name == "__init__.py")
        if found:
            reaching[module] = found
    assert not reaching, f"see the room through its RoomView (ahiko.rooms.room_view): {reaching}"


def names_the_room(source: str) -> list[str]:
    """Each place in ``source`` that names ``Room``, in code, an annotation or a type string,
    or imports it from ``ahiko.rooms.room``."""
    found = [f"{n.lineno}: names Room" for n in ast.walk(ast.parse(source)) if _is_room(n)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and any(a.name == "Room" for a in node.names):
            found.append(f"{node.lineno}: imports Room")
    return sorted(set(found))


def _is_room(node: ast.AST) -> bool:
    return isinstance(node, ast.Name | ast.Attribute | ast.Constant) and _names_room(node)


def test_R_ARCH_no_module_of_rooms_but_room_py_names_the_room() -> None:
    """The parts see ports, not the ``Room``: none of them imports it, even for annotations."""
    package = SRC / "ahiko" / "rooms"
    naming = {}
    for path in sorted(package.rglob("*.py")):
        module = module_name(path, SRC)
        if module == ROOM_MODULE:
            continue
        found = names_the_room(path.read_text(encoding="utf-8"))
        if found:
            naming[module] = found
    assert not naming, f"hand the part a port (a Protocol beside it), not the Room: {naming}"


@pytest.mark.parametrize(
    "source",
    [
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ahiko.rooms.room import Room\n",
        "def f(room: 'Room') -> None: ...\n",
        "class P(Protocol):\n    def f(self, room: Room) -> None: ...\n",
        "from ahiko.rooms.room import Room as Table\n",
    ],
)
def test_the_scanner_finds_the_room_named_inside_rooms(source: str) -> None:
    assert names_the_room(source)


@pytest.mark.parametrize(
    "source",
    [
        "class DealerTable(Protocol):\n    def later(self, job: Job) -> None: ...\n",
        '"""The room hands the dealer its seats (``Room.seats``)."""\n',
        "from ahiko.rooms.room_view import RoomView\n",
    ],
)
def test_the_scanner_lets_ports_and_prose_pass(source: str) -> None:
    assert names_the_room(source) == []


@pytest.mark.parametrize(
    "source",
    [
        "from ahiko.rooms.room import Room\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ahiko.rooms.room import X\n",
        "def f():\n    from ahiko.rooms.room import AVG_POT_HANDS\n",
        "from ahiko.rooms import room\n",
        "import ahiko.rooms.room\n",
        "from ..rooms.room import X\n",
        "from ahiko.rooms.room_view import RoomView, room_behind\n",
        "def f(room: Room) -> None: ...\n",
        "x = cast('Room', None)\n",
        "def f(room: 'Room | None') -> None: ...\n",
        "import ahiko.rooms\nx: ahiko.rooms.Room\n",
    ],
)
def test_the_scanner_finds_each_way_to_the_room(source: str) -> None:
    assert reaches_the_room("ahiko.competition.x", source)


@pytest.mark.parametrize(
    "source",
    [
        "from ahiko.rooms.room_view import RoomView, SeatFacts\n",
        "from ahiko.rooms.config import RoomConfig, RoomKind\nfrom ahiko.rooms.actor import RoomActor\n",
        '"""Room commands and replies as JSON."""\n',
        "def f(view: RoomView) -> None: ...\n",
    ],
)
def test_the_scanner_lets_the_view_and_its_neighbours_pass(source: str) -> None:
    assert reaches_the_room("ahiko.competition.x", source) == []
