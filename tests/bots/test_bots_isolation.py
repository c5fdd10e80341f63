"""Isolation of bots (R-AI-01): strategy modules cannot reach their caller, a bot loaded by
import path runs in its own process on the serialised view (a cheat that reads the caller's
frame or walks ``gc`` finds nothing) and in a PID namespace of its own (a cheat that reads
other processes' command lines under ``/proc`` finds none), and the arena deals and seeds
bots' rngs from a secret rather than from the public match seed."""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from cheaters import FrameReader, GcWalker, ParentReader

from ahiko.bots.arena import SEATS, _start, deal_deck, play_hand, run_match
from ahiko.bots.protocol import BotLoadError, load_bot
from ahiko.bots.random_bot import RandomBot
from ahiko.bots.sandbox import SandboxedBot, SandboxedBots, process_isolation
from ahiko.poker.view import view

BOTS_DIR = Path(__file__).resolve().parents[2] / "src" / "ahiko" / "bots"
# The machinery around the bots (the arena, its command, the loader, the sandbox) may use the
# interpreter; strategy modules, which decide, may not.
MACHINERY = {"arena.py", "cli.py", "protocol.py", "sandbox.py", "__init__.py"}
FORBIDDEN_MODULES = {
    "gc", "sys", "inspect", "ctypes", "traceback", "builtins", "importlib", "faulthandler",
    "tracemalloc", "multiprocessing", "subprocess", "os", "signal", "pickle", "marshal",
}  # fmt: skip
FORBIDDEN_NAMES = {
    "_getframe", "f_back", "f_locals", "f_globals", "gi_frame", "cr_frame", "tb_frame",
    "__globals__", "__subclasses__", "__import__", "__builtins__", "eval", "exec", "globals",
    "locals", "vars",
}  # fmt: skip


def _reaching(path: Path) -> list[str]:
    """What in a module could reach beyond the view: forbidden imports and names."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            bad += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if (node.module or "").split(".")[0] in FORBIDDEN_MODULES:
                bad.append(node.module or "")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_NAMES:
            bad.append("." + node.attr)
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            bad.append(node.id)
    return bad


def test_R_AI_01_strategy_modules_cannot_reach_their_caller() -> None:
    modules = [p for p in BOTS_DIR.glob("*.py") if p.name not in MACHINERY]
    assert len(modules) > 15
    for path in modules:
        assert _reaching(path) == [], f"{path.name} reaches beyond its view"


def test_the_reach_check_catches_a_cheat() -> None:
    found = _reaching(Path(__file__).with_name("cheaters.py"))
    assert {"gc", "sys", "._getframe", ".f_locals", ".f_back"} <= set(found)


def _mid_hand(variant: str, seed: int) -> tuple[object, dict[str, object], int]:
    """A hand waiting for seat 0 or 1 to act, and that seat's view."""
    hand = _start(variant, deal_deck("s", seed, 0), 0, 200)
    seat = hand.to_act
    assert seat is not None
    return hand, view(hand, seat), seat


@pytest.mark.parametrize("cheat", [FrameReader, GcWalker])
def test_R_AI_01_a_cheat_in_the_callers_process_sees_every_card(cheat: type) -> None:
    """The attack is real when a bot runs in the process that holds the hand."""
    hand, seat_view, seat = _mid_hand("holdem", 5)
    bot = cheat()
    action = bot.decide(seat_view, random.Random(0))
    other = 1 - seat
    assert bot.found == list(hand.hole_cards(other))  # type: ignore[attr-defined]
    assert action.kind in ("bet", "raise", "call")  # all in when ahead, else a look


@pytest.mark.parametrize("cheat", ["FrameReader", "GcWalker"])
@pytest.mark.parametrize("variant", ["holdem", "draw"])
def test_R_AI_01_a_cheat_loaded_by_import_path_gets_nothing(cheat: str, variant: str) -> None:
    """In its own process the same cheat finds no hand: it is sent only the view."""
    hand, seat_view, _ = _mid_hand(variant, 6)
    box = SandboxedBots(f"cheaters:{cheat}")
    try:
        bot = box.new()
        action = bot.decide(seat_view, random.Random(0))  # the hand is alive in this process
    finally:
        box.close()
    # Hold'em: the small blind facing the big blind; draw: first to act after the antes. A cheat
    # that found the hand would have moved in or called; finding nothing it folds or checks.
    assert action.kind == ("fold" if variant == "holdem" else "check")
    assert not hand.is_over  # type: ignore[attr-defined]


def test_R_AI_01_load_bot_puts_an_outside_import_path_in_its_own_process() -> None:
    """``load_bot`` (what rooms seat bots with) gives a third party's class a process of its
    own: the cheat finds nothing, two threads deciding at once get their own answers, and the
    process ends with the bot."""
    from concurrent.futures import ThreadPoolExecutor

    hand, seat_view, _ = _mid_hand("holdem", 6)
    bot = load_bot("cheaters:GcWalker")
    assert isinstance(bot, SandboxedBot)
    try:
        with ThreadPoolExecutor(4) as pool:
            actions = list(pool.map(lambda i: bot.decide(seat_view, random.Random(i)), range(8)))
        assert {a.kind for a in actions} == {"fold"}  # found nothing: folds, every time
        assert not hand.is_over  # type: ignore[attr-defined]
    finally:
        bot.close()
    assert bot.box.proc.poll() is not None
    assert not isinstance(load_bot("easy"), SandboxedBot)  # our own levels stay in-process


def test_R_AI_01_load_bot_names_a_bad_outside_path() -> None:
    with pytest.raises(BotLoadError, match="cheaters:Nope"):
        load_bot("cheaters:Nope")
    with pytest.raises(BotLoadError, match="no_such_module_18"):
        load_bot("no_such_module_18:Bot")


def test_R_AI_01_a_cheat_by_import_path_in_the_arena_plays_like_a_folder() -> None:
    """Through the arena a cheat's results are exactly a plain folder's on the same deals;
    handed the objects directly it sees the other seat's cards at every decision."""
    cheat = run_match("holdem", "cheaters:GcWalker", "random", pairs=6, seed=3, secret="s")
    folder = run_match("holdem", "cheaters:Folder", "random", pairs=6, seed=3, secret="s")
    assert cheat.pair_results == folder.pair_results
    assert cheat.bb_per_100 < 0
    decided = []
    for deal in range(12):
        for a_seat in SEATS:
            cheat_bot = GcWalker()
            bots = {a_seat: cheat_bot, 1 - a_seat: RandomBot()}
            rngs = {s: random.Random(f"{deal}:{s}") for s in SEATS}
            play_hand("holdem", bots, rngs, deal_deck("s", 3, deal), deal % 2, 200)
            if "found" in vars(cheat_bot):  # it had a decision to make in this hand
                decided.append(cheat_bot.found)
    assert decided and all(len(found) == 2 for found in decided if found is not None)
    assert None not in decided  # in-process it found the live hand every time


def test_R_AI_01_the_arena_seeds_bots_from_a_secret_not_the_match_seed() -> None:
    first = run_match("holdem", "random", "easy", pairs=30, seed=9)
    second = run_match("holdem", "random", "easy", pairs=30, seed=9)
    assert first.pair_results != second.pair_results  # different secrets: other decks, rngs
    fixed = run_match("holdem", "random", "easy", pairs=30, seed=9, secret="k")
    assert fixed == run_match("holdem", "random", "easy", pairs=30, seed=9, secret="k")


BOTS_TESTS = Path(__file__).resolve().parent


def _python(code: str, *argv: str, cwd: Path) -> str:
    """Run ``code`` in a fresh interpreter whose command line ends with ``argv`` (what a cheat
    reading ``/proc/<pid>/cmdline`` would see), with the cheats importable."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(BOTS_TESTS), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _reports(cwd: Path) -> list[dict[str, object]]:
    lines = (cwd / "proc_reader.jsonl").read_text().splitlines()
    assert lines, "the cheat never decided"
    return [json.loads(line) for line in lines]


def test_R_AI_01_a_sandboxed_bot_sees_no_other_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sandbox runs alone in a PID namespace with its own /proc: the only process it can
    see is itself, so neither its parent's command line nor anyone's environment."""
    assert process_isolation(), "this machine must give the sandbox a PID namespace"
    monkeypatch.chdir(tmp_path)
    _, seat_view, _ = _mid_hand("holdem", 6)
    box = SandboxedBots("cheaters:ProcReader")
    try:
        box.new().decide(seat_view, random.Random(0))
    finally:
        box.close()
    (report,) = _reports(tmp_path)
    assert report["seen"] == [report["pid"]]
    assert os.getpid() not in report["seen"]


def test_R_AI_01_a_sandboxed_bot_cannot_open_the_arenas_proc_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told the arena's pid, a sandboxed bot still cannot open ``/proc/<arena>/cmdline`` (nor
    its environment, open files or working directory), nor its own parent's: it has none
    in its namespace. Run in the arena's process, the same cheat reads them all."""
    assert process_isolation(), "this machine must give the sandbox a PID namespace"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arena.pid").write_text(str(os.getpid()))
    _, seat_view, _ = _mid_hand("holdem", 7)
    ParentReader().decide(seat_view, random.Random(0))  # the control: no sandbox
    box = SandboxedBots("cheaters:ParentReader")
    try:
        box.new().decide(seat_view, random.Random(0))
    finally:
        box.close()
    control, sandboxed = (
        json.loads(line) for line in (tmp_path / "parent_reader.jsonl").read_text().splitlines()
    )
    arena = os.getpid()
    own_cmdline = Path(f"/proc/{arena}/cmdline").read_bytes().decode(errors="replace")
    assert control[f"{arena}/cmdline"] == own_cmdline and control[f"{arena}/fd"]
    assert sandboxed["ppid"] == 0  # its parent is outside its namespace
    assert all(
        sandboxed[f"{arena}/{name}"] is None for name in ("cmdline", "environ", "fd", "cwd")
    ), sandboxed


ARENA_IN_PROCESS = """
from cheaters import ProcReader
from ahiko.bots.arena import play_pair
from ahiko.bots.random_bot import RandomBot
print(sum(play_pair("holdem", ProcReader, RandomBot, 3, d, 100, "s") for d in range(8)))
"""


def test_R_AI_01_the_arenas_command_line_gives_a_sandboxed_bot_nothing(tmp_path: Path) -> None:
    """The audit's attack: a bot read ``--seed`` from the arena's command line and rebuilt
    every deck. Where it can read that command line (here, in the arena's own process) it
    does rebuild them; sandboxed, it sees no arena and plays exactly like a folder on the
    same deals."""
    control = tmp_path / "in_process"
    control.mkdir()
    _python(ARENA_IN_PROCESS, "arena", "--seed", "3", "--secret", "s", cwd=control)
    later = [r["derived"] for r in _reports(control) if r["hand"] >= 1]  # type: ignore[operator]
    assert later and all(later)  # from its second hand on it knows the other seat's cards
    results = {}
    for bot in ("ProcReader", "Folder"):
        out = _python(
            "from ahiko.cli import main; raise SystemExit(main())",
            *("arena", "--a", f"cheaters:{bot}", "--b", "random", "--pairs", "8"),
            *("--seed", "3", "--secret", "s", "--json"),
            cwd=tmp_path,
        )
        results[bot] = json.loads(out)["bb_per_100"]
    assert results["ProcReader"] == results["Folder"]
    assert not any(r["derived"] for r in _reports(tmp_path))


ARENA_WITHOUT_NAMESPACE = """
import ahiko.bots.sandbox as sandbox
sandbox.process_isolation = lambda: ()
from ahiko.bots.arena import run_match
print(run_match("holdem", "cheaters:ProcReader", "random", pairs=6, seed=3).bb_per_100)
"""


def test_R_AI_01_the_public_match_seed_does_not_give_the_deck(tmp_path: Path) -> None:
    """Even a bot that can read the arena's command line (the namespace turned off) learns
    only the seed: the decks come from the match's secret, random when none is given."""
    _python(ARENA_WITHOUT_NAMESPACE, "arena", "--seed", "3", cwd=tmp_path)
    reports = _reports(tmp_path)
    assert all([3, ""] in r["guesses"] for r in reports)  # type: ignore[operator]  # the seed...
    assert not any(r["derived"] for r in reports)  # ...and no deck from it
    decks = {tuple(deal_deck(secret, 3, 0)) for secret in ("", "a", "b")}
    assert len(decks) == 3
