"""Command-line start-up: ``ahiko --version`` and ``ahiko hh replay --json`` on the Pluribus
sample files, end to end, beside a pokerkit 0.7.7 script that loads and replays the same files.

Each command runs ``--repeats`` times as a fresh process; the figures are medians of its wall
time and of its CPU time (user + system, from ``wait4``: what a rival process on a shared
machine cannot inflate). ``--json`` prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHH_DIR = Path(__file__).resolve().parents[2] / "shared" / "phh" / "pluribus"  # ../shared
AHIKO = Path(sys.executable).parent / "ahiko"

# The reference: the same work with pokerkit, one JSON line of finishing stacks per file.
POKERKIT_SCRIPT = """
import json, sys, warnings
from pathlib import Path
from pokerkit import HandHistory
warnings.simplefilter("ignore")
for path in sorted(Path(sys.argv[1]).rglob("*.phh")):
    with path.open("rb") as file:
        history = HandHistory.load(file)
    state = None
    for state in history:
        pass
    print(json.dumps({"file": str(path), "finishing_stacks": list(state.stacks)}))
"""


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd``, which must succeed."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.stderr is not None
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-1000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def medians(cmd: list[str], repeats: int) -> tuple[float, float]:
    runs = [timed(cmd) for _ in range(repeats)]
    return (
        round(statistics.median(w for w, _ in runs), 3),
        round(statistics.median(c for _, c in runs), 3),
    )


def measure(repeats: int) -> dict[str, object]:
    files = len(list(PHH_DIR.rglob("*.phh")))
    timed([str(AHIKO), "--version"])  # bytecode caches written before timing
    version_wall, version_cpu = medians([str(AHIKO), "--version"], repeats)
    help_wall, help_cpu = medians([str(AHIKO), "--help"], repeats)
    replay = [str(AHIKO), "hh", "replay", "--json", str(PHH_DIR)]
    reference = [sys.executable, "-c", POKERKIT_SCRIPT, str(PHH_DIR)]
    timed(replay)
    timed(reference)
    ours_wall, ours_cpu, pk_wall, pk_cpu = [], [], [], []
    for _ in range(repeats):  # interleaved: both see the same machine state
        wall, cpu = timed(replay)
        ours_wall.append(wall)
        ours_cpu.append(cpu)
        wall, cpu = timed(reference)
        pk_wall.append(wall)
        pk_cpu.append(cpu)
    ours = statistics.median(ours_cpu)
    ref = statistics.median(pk_cpu)
    return {
        "version_wall_s": version_wall,
        "version_cpu_s": version_cpu,
        "help_wall_s": help_wall,
        "help_cpu_s": help_cpu,
        "phh_files": files,
        "hh_replay_wall_s": round(statistics.median(ours_wall), 3),
        "hh_replay_cpu_s": round(ours, 3),
        "pokerkit_script_wall_s": round(statistics.median(pk_wall), 3),
        "pokerkit_script_cpu_s": round(ref, 3),
        "hh_replay_speedup_cpu": round(ref / ours, 2),
        "repeats": repeats,
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each command (median)")
    args = parser.parse_args()
    result = measure(args.repeats)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:26} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
