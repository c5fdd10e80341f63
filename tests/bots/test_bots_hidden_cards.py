"""R-AI-01: bots decide from their own seat's view only, and always legally."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from botviews import random_view

from ahiko.bots.protocol import LEVELS, load_bot
from ahiko.bots.situation import is_legal, legal_from_view, situation_from_view

BOTS_DIR = Path(__file__).resolve().parents[2] / "src" / "ahiko" / "bots"
# The arena and its command drive the engine; every other bot module sees views only.
ENGINE_DRIVERS = {"arena.py", "cli.py"}
# ``games`` is the variants' definitions, data only: it holds no hand and no deck.
ALLOWED_AHIKO = {
    "ahiko.poker.cards",
    "ahiko.poker.actions",
    "ahiko.poker.ranking",
    "ahiko.poker.games",
    "ahiko.poker.view_types",  # the view's named types: TypedDicts, no hand and no deck
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.add("ahiko.bots." + (node.module or ""))
            else:
                names.add(node.module or "")
    return names


def test_R_AI_01_bot_modules_cannot_reach_the_deck() -> None:
    modules = [p for p in BOTS_DIR.glob("*.py") if p.name not in ENGINE_DRIVERS]
    assert len(modules) > 10
    for path in modules:
        for name in _imports(path):
            if name.startswith("ahiko.") and not name.startswith("ahiko.bots."):
                assert name in ALLOWED_AHIKO, f"{path.name} imports {name}"
            if name.startswith("ahiko.bots."):
                target = name.removeprefix("ahiko.bots.")
                assert target + ".py" not in ENGINE_DRIVERS, f"{path.name} imports {name}"


@pytest.mark.parametrize("variant", ["holdem", "draw"])
@pytest.mark.parametrize("level", list(LEVELS))
def test_R_AI_01_bots_decide_legally_with_opponent_cards_hidden(level: str, variant: str) -> None:
    bot = load_bot(level)
    rng = random.Random(f"{level}:{variant}")
    for i in range(60):
        view = random_view(rng, variant)
        assert all(s["cards"] is None for s in view["seats"] if s["seat"] != view["viewer"])
        action = bot.decide(view, random.Random(i))
        hole = situation_from_view(view).hole
        assert is_legal(action, legal_from_view(view["legal"]), hole), (view, action)
