"""Issue 18 (R-AI-01): a bot seated by an import path outside ``ahiko.bots`` (a third party's)
plays from its own process, sent only its seat's serialised view. In the room's process the
same cheat finds the hand through ``gc``; through the sandbox it finds nothing and plays like
a folder, and its process ends when it leaves the table."""

from __future__ import annotations

import gc
from pathlib import Path
from random import Random
from typing import Any

import pytest
from rooms_helpers import Table, holdem_config

from ahiko.bots.sandbox import SandboxedBot
from ahiko.rooms import commands as c
from ahiko.rooms.room import Room

CHEAT = "cheaters:GcWalker"  # tests/bots/cheaters.py: walks gc.get_objects() to the hand


@pytest.fixture(autouse=True)
def _cheaters_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "bots"))


def _table(bot_factory: Any = None) -> Table:
    t = Table(holdem_config(seats=2), host="ana")
    if bot_factory is not None:
        t.room = Room(
            "t-1", t.room.config, clock=t.clock, host_id="ana", rng=Random(7),
            bot_factory=bot_factory,
        )  # fmt: skip
    t.join("ana", 0)
    t.ok(c.AddBot("ana", CHEAT, seat=1))
    t.ok(c.Start("ana"))
    return t


def _bot_actions(t: Table, hands: int) -> list[str]:
    """Play ``hands`` hands (Ana checks or calls); the bot's actions in them."""
    kinds: list[str] = []
    for _ in range(hands):
        t.to_deal()
        t.play_hand_passively()
        hand = t.room.dealer.last_hand
        assert hand is not None
        history = (hand.view(0) or {}).get("history") or []
        kinds += [e["action"] for e in history if e["kind"] == "action" and e["seat"] == 1]
        t.advance(10)
    return kinds


def test_R_AI_01_a_cheat_seated_in_the_rooms_process_finds_the_hand() -> None:
    """The attack is real when the bot runs where the room's hand lives."""
    from cheaters import GcWalker

    made: list[Any] = []

    def in_process(level: str) -> Any:
        made.append(GcWalker())
        return made[-1]

    t = _table(in_process)
    _bot_actions(t, 3)
    (bot,) = made
    assert bot.found is not None and len(bot.found) == 2  # Ana's hole cards


def test_R_AI_01_a_cheat_seated_by_import_path_gets_nothing_and_leaves_with_its_process() -> None:
    t = _table()  # the room's own loader: ahiko.bots.protocol.load_bot
    (bot_id,) = t.room.bots
    bot = t.room.bots[bot_id]
    assert isinstance(bot, SandboxedBot)
    proc = bot.box.proc
    del bot
    kinds = _bot_actions(t, 4)
    # Finding no hand, the cheat checks or folds; one that found it would bet, raise or call.
    assert kinds and set(kinds) <= {"check", "fold"}
    t.ok(c.RemoveBot("ana", 1))
    _bot_actions(t, 1)
    gc.collect()
    assert bot_id not in t.room.bots
    assert proc.wait(timeout=10) is not None  # its process ended with it
    t.assert_chips_conserved()


def test_R_AI_01_closing_the_room_ends_its_sandboxed_bots_processes() -> None:
    t = _table()
    (bot,) = t.room.bots.values()
    assert isinstance(bot, SandboxedBot)
    _bot_actions(t, 1)
    t.ok(c.Close("ana"))
    assert not t.room.bots
    assert bot.box.proc.poll() is not None  # closed with the room, not left to the collector
