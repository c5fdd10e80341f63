"""The house's parts (``ahiko.rooms.house``) see the room through narrow ports.

No module under ``rooms/house/`` imports ``ahiko.rooms.room`` (a type-only import
included) or names ``Room``: each declares beside its code the small ``Protocol`` it needs of
the room (``DeskRoom``, ``SeatingRoom``, ``AhikoRoom``...). The Ahiko table alone, handed its
room's view as every hook is, goes behind it (``room_behind``), and only as its port
(``TableRoom``). Those ports are checked against the room itself by mypy here, so a port
the room no longer satisfies fails this test, whoever changed which side.
"""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest
from import_contract import cycles, module_edges, module_name, read_tree
from test_room_behind_its_view import reaches_the_room

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
HOUSE = SRC / "ahiko" / "rooms" / "house"
HOUSE_PACKAGE = "ahiko.rooms.house"
#: The one house module that goes behind its room's view, and how.
GOES_BEHIND_ITS_VIEW = ("ahiko.rooms.house.table", "imports ahiko.rooms.room_view.room_behind")


def _house_modules() -> list[tuple[str, Path]]:
    return [(module_name(path, SRC), path) for path in sorted(HOUSE.rglob("*.py"))]


def house_ports() -> list[tuple[str, str]]:
    """(module, name) of every room port the house declares: a ``Protocol`` whose name ends
    in ``Room``, defined in a module of ``rooms/house/``."""
    ports = []
    for module, _path in _house_modules():
        for name, value in vars(importlib.import_module(module)).items():
            is_protocol = inspect.isclass(value) and getattr(value, "_is_protocol", False)
            if is_protocol and value.__module__ == module and name.endswith("Room"):
                ports.append((module, name))
    return ports


def test_no_module_of_the_house_reaches_the_room() -> None:
    reaching = {}
    for module, path in _house_modules():
        text = path.read_text(encoding="utf-8")
        found = reaches_the_room(module, text, is_package=path.name == "__init__.py")
        table, behind = GOES_BEHIND_ITS_VIEW
        found = [way for way in found if module != table or not way.endswith(behind)]
        if found:
            reaching[module] = found
    assert not reaching, f"ask the room through a port (a Protocol beside its user): {reaching}"


def test_no_cycle_inside_the_house_type_only_imports_included() -> None:
    edges = module_edges(read_tree(SRC), "rooms", with_type_only=True)
    house = {m: {t for t in to if t.startswith(HOUSE_PACKAGE)} for m, to in edges.items()}
    inside = {m: to for m, to in house.items() if m.startswith(HOUSE_PACKAGE)}
    assert cycles(inside) == [], "a house part asks another through a port, not back"


def test_the_house_declares_its_ports() -> None:
    names = {name for _module, name in house_ports()}
    # the host's desk, a person sitting down, the host's menu, the Ahiko room's commands,
    # its table (cash-outs included) and the Bot Ahiko
    expected = {"DeskRoom", "SeatingRoom", "HostRoom", "AhikoRoom", "TableRoom", "BotRoom"}
    assert expected | {"CashOutRoom"} <= names


def _mypy(program: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    checked = tmp_path / "room_satisfies_ports.py"
    checked.write_text(program, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(SRC)}  # this tree's ahiko, not an installed one
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    return subprocess.run(
        [*command, "--no-error-summary", str(checked)],
        cwd=ROOT,  # the tree's own mypy cache
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _handing_over(ports: list[tuple[str, str]]) -> str:
    lines = ["from ahiko.rooms.room import Room"]
    lines += [f"from {module} import {name}" for module, name in ports]
    lines += [
        f"def hand_{n}(room: Room) -> {name}:\n    return room" for n, (_, name) in enumerate(ports)
    ]
    return "\n".join(lines) + "\n"


def test_the_room_satisfies_every_house_port(tmp_path: Path) -> None:
    ports = house_ports()
    result = _mypy(_handing_over(ports), tmp_path)
    assert result.returncode == 0, f"the room no longer fits a house port:\n{result.stdout}"


@pytest.mark.parametrize(
    "port",
    [
        "class WantsMoreRoom(Protocol):\n    def fly(self) -> None: ...\n",
        "class WrongTypeRoom(Protocol):\n    @property\n    def room_id(self) -> int: ...\n",
    ],
)
def test_the_port_check_catches_a_port_the_room_does_not_fit(port: str, tmp_path: Path) -> None:
    name = port.split("(")[0].removeprefix("class ")
    program = "from typing import Protocol\nfrom ahiko.rooms.room import Room\n"
    program += f"{port}\ndef hand(room: Room) -> {name}:\n    return room\n"
    result = _mypy(program, tmp_path)
    assert result.returncode == 1 and "incompatible return value" in result.stdout.lower()
