"""The import contract (DESIGN.md layout): ``server > rooms > (bots | history | fairness |
wallet) > (poker | store)``, ``poker`` imports nothing of ours, no package loop, no loop
between the modules of ``rooms``, annotation-only imports included. The checker is shown
failing on bad trees first."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_contract import check, files_in_cycles, imports_of

SRC = Path(__file__).resolve().parents[2] / "src"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "ahiko" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


GOOD = {
    "poker/__init__.py": "",
    "poker/cards.py": "X = 1\n",
    "store/__init__.py": "",
    "wallet/__init__.py": "from ahiko.store import schema\n",
    "rooms/__init__.py": "",
    "rooms/room.py": "from ahiko.poker.cards import X\nfrom ahiko.rooms import seats\n",
    # a part names the port it is handed, declared beside it: no way back to the room
    "rooms/seats.py": "from typing import Protocol\nclass SeatsRoom(Protocol):\n    x: int\n",
    "server/__init__.py": "",
    "server/app.py": "from ahiko.rooms.room import X\n",
}


def test_a_tree_that_keeps_the_layers_passes(tmp_path: Path) -> None:
    assert check(_tree(tmp_path, GOOD)) == []


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        # an upward import: a router inside rooms/ reaching for the server's errors
        ({"rooms/api.py": "from ahiko.server.errors import ApiError\n"}, "may not import 'server'"),
        # an upward import hidden inside a function still counts
        (
            {"wallet/x.py": "def f():\n    from ahiko.rooms.room import Room\n"},
            "'wallet' (layer 1) may not import 'rooms'",
        ),
        # the rules core imports nothing of ours, not even the store below it
        ({"poker/hand.py": "from ahiko.store import schema\n"}, "'poker' imports nothing of ours"),
        # two packages of one layer may not lean on each other
        ({"bots/b.py": "from ahiko.history import phh\n"}, "'bots' (layer 1) may not import"),
        # a relative import is resolved like an absolute one
        ({"store/s.py": "from ..wallet import ledger\n"}, "'store' (layer 0) may not import"),
    ],
)
def test_the_checker_fails_on_an_upward_import(
    tmp_path: Path, bad: dict[str, str], expected: str
) -> None:
    problems = check(_tree(tmp_path, {**GOOD, **bad}))
    assert problems and expected in problems[0], problems


def test_the_checker_fails_on_a_package_loop(tmp_path: Path) -> None:
    bad = {"rooms/api.py": "from ahiko.server import errors\n"}
    problems = check(_tree(tmp_path, {**GOOD, **bad}))
    assert "packages import each other in a loop: rooms <-> server" in problems


@pytest.mark.parametrize(
    "late_import",
    [
        "from ahiko.rooms.room import X\n",  # at the top
        "def leave():\n    from ahiko.rooms.room import X\n",  # inside a function
        "X = 1\nfrom ahiko.rooms import room  # noqa: E402\n",  # at the end of the file
    ],
)
def test_the_checker_fails_on_a_loop_inside_rooms(tmp_path: Path, late_import: str) -> None:
    problems = check(_tree(tmp_path, {**GOOD, "rooms/seats.py": late_import}))
    assert problems == [
        "modules of 'rooms' import each other in a loop: ahiko.rooms.room, ahiko.rooms.seats"
    ]


TYPE_ONLY_ROOM = (
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ahiko.rooms.room import Room\n"
)


def test_R_ARCH_a_type_only_import_of_the_room_is_a_loop_too(tmp_path: Path) -> None:
    """A part naming the ``Room`` it is handed, even under ``if TYPE_CHECKING:``, ties itself
    to everything the room imports: the loop is reported like one that runs."""
    problems = check(_tree(tmp_path, {**GOOD, "rooms/seats.py": TYPE_ONLY_ROOM}))
    assert problems == [
        "modules of 'rooms' import each other in a loop: ahiko.rooms.room, ahiko.rooms.seats"
    ]
    assert files_in_cycles(tmp_path, "rooms") == 2
    assert files_in_cycles(tmp_path, "rooms", with_type_only=False) == 0


def test_annotation_only_imports_are_told_apart() -> None:
    found = imports_of(
        "ahiko.rooms.seats",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ahiko.rooms.room import Room\n",
    )
    assert found and all(imp.type_only for imp in found)


def test_the_tree_keeps_the_import_contract() -> None:
    """The real tree: no upward import, no package loop, no loop inside rooms/, counting
    annotation-only imports."""
    assert check(SRC) == []
    assert files_in_cycles(SRC, "rooms") == 0
