"""``ahiko hh replay`` of a folder shows a progress bar on a terminal, and a piped or
``--json`` run prints exactly its lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from terminal import on_a_terminal

PLURIBUS = Path(__file__).resolve().parents[3] / "shared" / "phh" / "pluribus"
HH = [sys.executable, "-c", "from ahiko.cli import main; raise SystemExit(main())", "hh"]


def test_a_folder_replayed_on_a_terminal_shows_its_progress() -> None:
    files = sorted(PLURIBUS.rglob("*.phh"))
    assert len(files) > 100
    shown = on_a_terminal([*HH, "replay", str(PLURIBUS)])
    assert f"/{len(files)}" in shown and "file/s" in shown  # the bar, while it ran
    assert f"{len(files)} file(s), 0 failed" in shown
    piped = subprocess.run([*HH, "replay", str(PLURIBUS)], capture_output=True, text=True)
    assert piped.returncode == 0
    assert len(piped.stdout.splitlines()) == len(files)
    assert piped.stderr.strip() == f"{len(files)} file(s), 0 failed"
    as_json = on_a_terminal([*HH, "replay", "--json", str(PLURIBUS)])
    assert "file/s" not in as_json and len(as_json.strip().splitlines()) == len(files)
