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

# (script, extra arguments, runs); scripts that do not exist yet are reported as missing.
BENCHMARKS: list[tuple[str, list[str], int]] = [
    ("bench/engine.py", [], 3),
    ("bench/bots.py", [], 1),
    ("bench/ladder.py", [], 1),
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


def render(sections: list[str]) -> str:
    head = (
        "# Benchmarks\n\n"
        f"Written by `make bench` on {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Medians of the runs shown; machines are shared and noisy.\n"
    )
    return head + "\n".join(sections)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", help="run only the benchmark whose script contains this text")
    args = parser.parse_args()
    sections = []
    for script, extra, runs in BENCHMARKS:
        if args.only and args.only not in script:
            continue
        command = " ".join(["python", script, "--json", *extra])
        if not (ROOT / script).exists():
            sections.append(f"\n## {script}\n\nnot present yet.\n")
            continue
        results = [run_one(script, extra) for _ in range(runs)]
        table = "\n".join(f"| {k} | {v} |" for k, v in median_of(results).items())
        sections.append(
            f"\n## {script}\n\nCommand: `{command}` ({runs} run(s), median)\n\n"
            f"| figure | value |\n|---|---|\n{table}\n"
        )
        print(f"{script}: done", file=sys.stderr)
    OUT.write_text(render(sections))
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
