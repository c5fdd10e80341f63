"""`make bench`: run every benchmark in bench/ and write docs/BENCHMARKS.md.

Each benchmark is a script that prints one JSON object with ``--json``; it measures our figure
and its reference side by side in the same run. This runner repeats each one ``--runs`` times
(default 3) and records the median of every numeric field, with the exact command.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "BENCHMARKS.md"

# (label, script, extra arguments, runs, goal). Scripts take ``--json`` and print one JSON line;
# bench/engine.py already reports medians of its own repeats.
BENCHMARKS: list[tuple[str, str, list[str], int, str]] = [
    (
        "engine",
        "bench/engine.py",
        ["--repeats", "5"],
        3,
        "random-play 6-max hands/s >= 25x pokerkit 0.7.7; PHH replay >= 10x pokerkit",
    ),
    ("bots", "bench/bots.py", [], 3, "decision p99 <= 20 ms (easy, normal), <= 200 ms (hard)"),
    (
        "ladder",
        "bench/ladder.py",
        ["--workers", "2"],
        1,
        "95% lower bounds, bb/100: NLHE easy-random >= 100, normal-easy >= 20, hard-normal >= 10;"
        " draw easy-random >= 50, normal-easy >= 5, hard-normal >= 3",
    ),
    (
        "bot threads",
        "bench/bot_threads.py",
        [],
        3,
        "Hard bots thinking on worker threads keep the event loop's lag p99 low (no fixed goal)",
    ),
    (
        "load 1000",
        "bench/load.py",
        [
            "--players",
            "1000",
            "--tables",
            "125",
            "--think",
            "1",
            "--duration",
            "60",
            "--warmup",
            "20",
        ],
        1,
        "1,000 players on 125 tables, 1 s think: p99 < 100 ms, zero errors, ledger clean",
    ),
    (
        "load 2000",
        "bench/load.py",
        [
            "--players",
            "2000",
            "--tables",
            "250",
            "--think",
            "1",
            "--duration",
            "60",
            "--warmup",
            "20",
        ],
        1,
        "our own goal: 2,000 players on 250 tables at p99 < 50 ms",
    ),
    (
        "crash",
        "bench/crash.py",
        ["--kills", "20"],
        1,
        "20 SIGKILLs under load: ledger clean, no coin lost",
    ),
    (
        "attack 1000",
        "bench/attack.py",
        ["--players", "1000", "--duration", "60", "--warmup", "20"],
        1,
        "honest p99 action->broadcast under the floods (rooms, sockets, log-ins, 48 KB headers)"
        " within 2x of the same players alone; 0 honest errors; ledger clean (issue 17)",
    ),
    (
        "soak 2000",
        "bench/attack.py",
        ["--soak", "--players", "2000", "--duration", "600", "--warmup", "120"],
        1,
        "2,000 players for 10 minutes: peak RSS growth < 10% after warm-up, 0 errors,"
        " ledger clean (issue 17)",
    ),
]


def run_one(script: str, args: list[str]) -> dict[str, object]:
    cmd = [sys.executable, script, "--json", *args]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def median_of(results: list[dict[str, object]]) -> dict[str, object]:
    merged: dict[str, object] = {}
    for key, value in results[0].items():
        values = [r[key] for r in results]
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            merged[key] = statistics.median(values)  # type: ignore[type-var]
        else:
            merged[key] = value
    return merged


def _cell(value: object) -> str:
    if isinstance(value, dict | list):
        return "`" + json.dumps(value, separators=(",", ":")) + "`"
    return str(value)


def render(sections: list[str]) -> str:
    head = (
        "# Benchmarks\n\n"
        f"Written by `make bench` on {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Medians of the runs shown; machines are shared and noisy.\n"
    )
    return head + "\n".join(sections)


def _keep_previous(sections: list[str], only: str | None) -> list[str]:
    """With --only, the other benchmarks keep the sections of their last full run."""
    if not only or not OUT.exists():
        return sections
    previous = OUT.read_text().split("\n## ")[1:]
    fresh = {section.split("\n", 2)[1][3:] for section in sections}
    kept = {p.split("\n", 1)[0]: "\n## " + p for p in previous}
    ordered = []
    for label, *_ in BENCHMARKS:
        if label in fresh:
            ordered += [s for s in sections if s.split("\n", 2)[1][3:] == label]
        elif label in kept:
            ordered.append(kept[label].rstrip("\n") + "\n")
    return ordered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--only",
        help="run only the benchmarks whose label contains this text (engine, bots, bot threads, ladder, load, crash, attack, soak)",
    )
    args = parser.parse_args()
    sections = []
    for label, script, extra, runs, goal in BENCHMARKS:
        if args.only and args.only not in label:
            continue
        command = " ".join(["python", script, "--json", *extra])
        if not (ROOT / script).exists():
            sections.append(f"\n## {label}\n\nnot present yet.\n")
            continue
        results = [run_one(script, extra) for _ in range(runs)]
        rows = "\n".join(f"| {k} | {_cell(v)} |" for k, v in median_of(results).items())
        sections.append(
            f"\n## {label}\n\nGoal: {goal}\n\nCommand: `{command}` ({runs} run(s))\n\n"
            f"| figure | value |\n|---|---|\n{rows}\n"
        )
        print(f"{label}: done", file=sys.stderr)
    OUT.write_text(render(_keep_previous(sections, args.only)))
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
