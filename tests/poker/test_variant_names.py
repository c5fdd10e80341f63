"""A variant is asked of its game (``ahiko.poker.games``), never compared by name.

This test reads the source of every module and finds where a variant's name is compared as
a string (``variant == "holdem"``, ``!= "draw"``, ``in ("holdem", "draw")``), compared as a
``Variant`` member, or listed in a tuple of names beside the games' own list: every package
asks the definition. (A street is named ``draw`` too: comparisons of a street are not a
variant's.)
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "ahiko"
NAMES = {"holdem", "draw", "plo"}
DEFINITION = "poker/games.py"


def _names_variant(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, ast.Attribute):  # Variant.HOLDEM
        return isinstance(node.value, ast.Name) and node.value.id == "Variant"
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_variant(element) for element in node.elts)
    return False


def variant_comparisons(source: str) -> list[str]:
    """Each comparison of a variant by name (or list of names) in ``source``."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            if any(_names_variant(part) for part in (node.left, *node.comparators)):
                text = ast.get_source_segment(source, node) or ""
                if "street" not in text:
                    found.append(f"{node.lineno}: {text}")
        elif isinstance(node, ast.Tuple) and len(node.elts) > 1:
            values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
            if len(values) == len(node.elts) and set(values) <= NAMES:
                found.append(f"{node.lineno}: a list of variant names {tuple(values)}")
    return found


def test_a_variant_is_compared_by_name_nowhere_but_its_definition() -> None:
    comparing = {}
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        if name != DEFINITION:
            found = variant_comparisons(path.read_text(encoding="utf-8"))
            if found:
                comparing[name] = found
    assert not comparing, f"ask ahiko.poker.games instead: {comparing}"


def test_the_scanner_finds_each_way_of_naming_a_variant() -> None:
    source = (
        'a = variant == "holdem"\nb = "draw" != kind\nc = v in ("holdem", "draw")\n'
        'd = cfg.variant is Variant.HOLDEM\nVARIANTS = ("holdem", "draw", "plo")\n'
        'e = street == "draw"\nf = game.has_draw\n'
    )
    assert sorted(line.split(":")[0] for line in variant_comparisons(source)) == [
        "1", "2", "3", "3", "4", "5"
    ]  # fmt: skip
