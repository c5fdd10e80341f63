"""``ahiko arena`` shows its progress on a terminal and nowhere else: a long match (thousands
of pairs) tells how far it has come, and a piped or ``--json`` run prints only its result."""

from __future__ import annotations

import json
import subprocess
import sys

from ahiko.bots.arena import run_match
from terminal import on_a_terminal

ARENA = [sys.executable, "-c", "from ahiko.cli import main; raise SystemExit(main())", "arena"]
MATCH = ["--a", "easy", "--b", "random", "--pairs", "120", "--seed", "4", "--secret", "p"]


def test_progress_counts_every_pair_and_changes_no_figure() -> None:
    reported: list[int] = []
    with_progress = run_match("holdem", "easy", "random", 120, 4, secret="p",
                              progress=reported.append)  # fmt: skip
    assert sum(reported) == 120 and len(reported) >= 3  # reported as it goes, not once
    assert with_progress == run_match("holdem", "easy", "random", 120, 4, secret="p")


def test_sessions_are_never_split_by_the_progress_reports() -> None:
    reported: list[int] = []
    run_match("holdem", "easy", "random", 120, 4, session=40, secret="p", progress=reported.append)
    assert sum(reported) == 120 and all(n % 40 == 0 for n in reported)


def test_a_terminal_gets_a_bar_and_a_pipe_only_the_result() -> None:
    shown = on_a_terminal([*ARENA, *MATCH])
    assert "120/120" in shown and "pair" in shown
    assert "easy vs random" in shown
    piped = subprocess.run([*ARENA, *MATCH], capture_output=True, text=True, check=True)
    assert piped.stderr == ""
    assert piped.stdout.startswith("easy vs random")
    as_json = on_a_terminal([*ARENA, *MATCH, "--json"])
    assert "120/120" not in as_json
    assert json.loads(as_json.strip().splitlines()[-1])["pairs"] == 120
