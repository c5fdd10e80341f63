"""``Room`` keeps the composition and the dispatch, and forwards no part's work.

A hand-off is a member of the room whose whole body asks one of its parts for the same thing
with the arguments it was given (``def wake(self): self.dealer.wake()``, a property returning
``self.dealer.hand``): its callers ask the part (``room.dealer.wake()``), and their port names
that part. A member that adds something of the room's own (passes ``self`` or the room's
view, builds a frame, moves the status) is the room's verb, not a hand-off.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOM_PY = Path(__file__).resolve().parents[2] / "src" / "ahiko" / "rooms" / "room.py"


def _body_without_docstring(method: ast.FunctionDef) -> list[ast.stmt]:
    body = method.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        return body[1:]
    return body


def _is_part_member(node: ast.expr) -> bool:
    """``self.<part>.<member>``; the room's own state (``self._pending``) is no part."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and not node.value.attr.startswith("_")
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "self"
    )


def _forwards_its_own_arguments(method: ast.FunctionDef, call: ast.Call) -> bool:
    params = [a.arg for a in method.args.args[1:] + method.args.kwonlyargs]
    passed = [a.id for a in call.args if isinstance(a, ast.Name)]
    passed += [k.value.id for k in call.keywords if isinstance(k.value, ast.Name)]
    every_argument_a_name = len(passed) == len(call.args) + len(call.keywords)
    return every_argument_a_name and sorted(passed) == sorted(params)


def hand_offs(source: str, class_name: str = "Room") -> list[str]:
    """The members of ``class_name`` in ``source`` that only forward to one of its parts."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.ClassDef) and node.name == class_name):
            continue
        for method in node.body:
            if not isinstance(method, ast.FunctionDef):
                continue
            body = _body_without_docstring(method)
            if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
                continue
            value = body[0].value
            if value is None:
                continue
            if isinstance(value, ast.Call) and _is_part_member(value.func):
                if _forwards_its_own_arguments(method, value):
                    found.append(method.name)
            elif _is_part_member(value) and len(method.args.args) == 1:
                found.append(method.name)  # a property read through to a part
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("class Room:\n    def wake(self):\n        self.dealer.wake()\n", ["wake"]),
        (
            "class Room:\n    @property\n    def hand(self):\n        return self.dealer.hand\n",
            ["hand"],
        ),
        (
            "class Room:\n    def emit(self, kind, build, *, public=False):\n"
            "        self.broadcast.emit(kind, build, public=public)\n",
            ["emit"],
        ),
        # the room's own verbs: the room handed over, or something added to the call
        ("class Room:\n    def over(self):\n        return self.kind.game_over(self)\n", []),
        (
            "class Room:\n    def entry(self):\n"
            "        return self.hooks.lobby_entry(self.view, summary(self))\n",
            [],
        ),
        ("class Room:\n    def later(self, job):\n        self._pending.append(job)\n", []),
        ("class Other:\n    def wake(self):\n        self.dealer.wake()\n", []),
    ],
)
def test_the_scanner_finds_hand_offs(source: str, expected: list[str]) -> None:
    assert hand_offs(source) == expected


def test_R_ARCH_room_forwards_no_parts_work() -> None:
    found = hand_offs(ROOM_PY.read_text(encoding="utf-8"))
    assert not found, f"ask the part that owns the work, not the room: {found}"
