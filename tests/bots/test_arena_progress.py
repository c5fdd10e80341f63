"""``ahiko arena`` shows its progress on a terminal and nowhere else: a long match (thousands
of pairs) tells how far it has come, and a piped or ``--json`` run prints only its result."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios

from ahiko.bots.arena import run_match

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


def _on_a_terminal(argv: list[str]) -> str:
    """Run ``argv`` with a pseudo-terminal as its stderr and stdout; what the terminal got."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    proc = subprocess.Popen(argv, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the follower side closed: the process is done
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait() == 0
    os.close(leader)
    return seen.decode(errors="replace")


def test_a_terminal_gets_a_bar_and_a_pipe_only_the_result() -> None:
    shown = _on_a_terminal([*ARENA, *MATCH])
    assert "120/120" in shown and "pair" in shown
    assert "easy vs random" in shown
    piped = subprocess.run([*ARENA, *MATCH], capture_output=True, text=True, check=True)
    assert piped.stderr == ""
    assert piped.stdout.startswith("easy vs random")
    as_json = _on_a_terminal([*ARENA, *MATCH, "--json"])
    assert "120/120" not in as_json
    assert json.loads(as_json.strip().splitlines()[-1])["pairs"] == 120
