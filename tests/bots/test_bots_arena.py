"""The duplicate-match arena and ``ahiko arena`` (issue 4): deterministic, seat-swapped,
all-in adjusted, and a small ladder smoke run."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ahiko.bots.arena import ArenaError, run_match, showdown_equities
from ahiko.bots.protocol import BotLoadError, load_bot, load_bot_class
from ahiko.bots.random_bot import RandomBot
from ahiko.cli import main
from ahiko.poker.actions import Action
from ahiko.poker.cards import parse_cards


class AlwaysFoldBot:
    """Folds whenever it may (an outside bot, loaded by import path)."""

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        legal = view["legal"]
        if legal["is_draw_phase"]:
            return Action.discard(())
        return Action.fold() if legal["can_fold"] else Action.check()


class CheatingRaiseBot:
    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        return Action.raise_to(10**9)


@pytest.mark.parametrize("variant", ["holdem", "draw"])
def test_R_AI_02_R_AI_05_easy_beats_random_in_a_deterministic_smoke_match(variant: str) -> None:
    first = run_match(variant, "easy", "random", pairs=50, seed=7, secret="s")
    again = run_match(variant, "easy", "random", pairs=50, seed=7, secret="s")
    assert first == again
    assert first.pairs == 50 and len(first.pair_results) == 50
    assert first.bb_per_100 > 0
    assert first.ci95_low < first.bb_per_100 < first.ci95_high


def test_duplicate_match_of_a_bot_against_itself_is_even() -> None:
    # Both halves of a pair see the same cards and the same per-seat rng: A and B cancel.
    result = run_match("holdem", "easy", "easy", pairs=20, seed=3)
    # All-in hands are scored by equity, in floats: the halves cancel to rounding, not to 0.0.
    assert result.pair_results == pytest.approx((0.0,) * 20, abs=1e-9)


def test_outside_bot_by_import_path_loses_its_blinds() -> None:
    path = f"{__name__}:AlwaysFoldBot"
    result = run_match("holdem", path, "random", pairs=30, seed=1)
    assert result.bb_per_100 < 0


def test_illegal_action_from_a_bot_is_reported_with_the_bot_name() -> None:
    with pytest.raises(ArenaError, match="CheatingRaiseBot"):
        run_match("holdem", f"{__name__}:CheatingRaiseBot", "random", pairs=1, seed=1)


def test_R_HE_11_allin_adjustment_uses_exact_equity_after_the_flop() -> None:
    eq = showdown_equities(
        {0: parse_cards("AsAh"), 1: parse_cards("KsKh")}, parse_cards("2c7d9h"), random.Random(0)
    )
    # KK wins with a king (Kc or Kd) and no ace among the 990 turn-river pairs: 87 - 4.
    assert eq[1] == pytest.approx(83 / 990, abs=1e-12)
    assert eq[0] + eq[1] == pytest.approx(1.0)


def test_bot_loading_by_level_and_path() -> None:
    assert isinstance(load_bot("random"), RandomBot)
    assert load_bot_class("ahiko.bots.random_bot:RandomBot") is RandomBot
    with pytest.raises(BotLoadError, match="neither a level"):
        load_bot("grandmaster")
    with pytest.raises(BotLoadError, match="cannot import"):
        load_bot("no.such.module:Bot")
    with pytest.raises(BotLoadError, match="no class"):
        load_bot("ahiko.bots.random_bot:Nope")


def test_arena_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--variant", "draw", "--a", "easy", "--b", "random", "--pairs", "10",
                 "--seed", "2", "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"a", "b", "pairs", "bb_per_100", "ci95_low", "ci95_high"}
    assert out["a"] == "easy" and out["pairs"] == 10


def test_arena_command_rejects_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "easy", "--b", "nobody", "--pairs", "1"]) == 2
    assert "nobody" in capsys.readouterr().err
