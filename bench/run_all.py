"""`make bench`: run every benchmark in bench/ and write docs/BENCHMARKS.md.

Each benchmark is a script that prints one JSON object with ``--json``; it measures our figure
and its reference side by side in the same run. This runner repeats each one ``--runs`` times
(default 3) and records the median of every numeric field, with the exact command. The bot
matches (``STORED_RUNS``) keep their runs in bench/runs/ and count those on unchanged code.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from summary import with_summary
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "BENCHMARKS.md"

# The load sweep: players (8 a table, 1 s think) and the goal stated at that size. The knee
# (players at which the median p99 action->broadcast crosses 100 ms) is read from it.
LOAD_SWEEP: list[tuple[int, str]] = [
    (1000, "1,000 players, 1 s think: p99 < 100 ms, zero errors, ledger clean"),
    (2000, "our own goal: 2,000 players at p99 < 50 ms"),
    (4000, "4,000 players: p99 < 100 ms (the knee of the first version)"),
    (6000, "6,000 players: p99 < 100 ms"),
    (8000, "one node holds 8,000 players at 1 s think: p99 < 100 ms, zero errors, ledger clean"),
    (10000, "past the goal, to find the knee: 10,000 players"),
]
KNEE_MS = 100.0

# (label, script, extra arguments, runs, goal). Scripts take ``--json`` and print one JSON line;
# bench/engine.py already reports medians of its own repeats.
BENCHMARKS: list[tuple[str, str, list[str], int, str]] = [
    (
        "engine",
        "bench/engine.py",
        ["--repeats", "5"],
        3,
        "random-play 6-max hands/s >= 30x pokerkit 0.7.7 under both policies; PHH replay >= 12x"
        " pokerkit from files",
    ),
    ("bots", "bench/bots.py", [], 3, "decision p99 <= 20 ms (easy, normal), <= 200 ms (hard)"),
    (
        "ladder",
        "bench/ladder.py",
        ["--workers", "2"],
        3,
        "95% lower bounds, bb/100: NLHE easy-random >= 100, normal-easy >= 20, hard-normal >= 10;"
        " draw easy-random >= 50, normal-easy >= 5, hard-normal >= 3",
    ),
    (
        "plo ladder",
        "bench/ladder.py",
        ["--games", "plo", "--workers", "2"],
        3,
        "Pot-Limit Omaha, bb/100: random < easy < normal < hard, each rung's 95% lower bound > 0",
    ),
    (
        "styles holdem",
        "bench/ladder.py",
        ["--styles", "--variants", "holdem", "--workers", "2"],
        3,
        "sessions of 500 deals and fresh bots: Hard's 95% lower bound > 0"
        " against each style and Hard >= Normal in the means, fresh and in sessions; Hard >"
        " Normal > Easy in the session means; against the any-two jammer Hard >= 85% of the best"
        " response's win rate on the same deals",
    ),
    (
        "styles draw",
        "bench/ladder.py",
        ["--styles", "--variants", "draw", "--workers", "2"],
        3,
        "as styles holdem, five-card draw (big bets/100)",
    ),
    (
        "adaptation",
        "bench/ladder.py",
        ["--sessions", "--variants", "holdem,draw", "--workers", "2"],
        3,
        "sessions of 2,000 deals: adaptive Hard minus memory-off Hard (same deals and"
        " bot rngs) against the maniac, the nit and the jammer, both variants, 95% lower bound > 0",
    ),
    (
        "bot threads",
        "bench/bot_threads.py",
        [],
        3,
        "Hard bots thinking on worker threads keep the event loop's lag p99 low (no fixed goal)",
    ),
    (
        "fanout",
        "bench/fanout.py",
        ["--hands", "150"],
        3,
        "in one process, no network: the room's and the encoding's CPU per delivered frame"
        " (8 seats, 2 spectators); the load bench's server_cpu_us_per_frame <= 30 us is the goal",
    ),
    (
        "fan-out floor",
        "bench/floor.py",
        ["--players", "4000", "--duration", "40", "--warmup", "15", "--with-load"],
        3,
        "The least server CPU a delivered frame can cost on the stack `ahiko serve` runs"
        " (uvicorn, uvloop, websockets-sansio) with the load bench's traffic (tables of 8, 1 s"
        " think, an acknowledgement and 8 frames an action), by a server with no rules, views or"
        " store (direct write, and Starlette's send_text), with no framework (raw) and on a"
        " compiled C++ WebSocket server (uws, uWebSockets), beside the Ahiko server at the same"
        " size: the goal of <= 30 us a frame against this floor",
    ),
    (
        "mtt",
        "bench/mtt.py",
        ["--levels", "4"],
        3,
        "one process, no sockets: a 1,000-player MTT (112 tables, real signed deals and"
        " engine hands, balancing and breaking) beside a 100-player one: CPU s per level, p99"
        " action->views built, peak RSS",
    ),
    (
        "mtt live",
        "bench/mtt_live.py",
        ["--players", "1000", "--reference", "100", "--levels", "4", "--speed", "2"],
        3,
        "over real WebSockets: a 1,000-player MTT on one `ahiko serve`-like process"
        " (clients in another process; blind levels of 1 minute on a clock 2x fast: 30 s),"
        " beside a 100-player one: server CPU s and hands per level, p99 action->broadcast,"
        " server RSS (and per player), server CPU; 0 stranded players (every player still in"
        " connected at the table they sit at, nobody withdrawn for absence), 0 errors, ledger"
        " clean. The field shrinks as it plays (turbo levels, blinds doubling each): the"
        " per-level figures are over the whole run, see players_left",
    ),
    (
        "cli start",
        "bench/cli_start.py",
        ["--repeats", "5"],
        3,
        "`ahiko --version` < 0.15 s; `ahiko hh replay --json` on the Pluribus files faster than"
        " a pokerkit script doing the same",
    ),
    *(
        (
            f"load {players}",
            "bench/load.py",
            [
                "--players",
                str(players),
                "--think",
                "1",
                "--duration",
                "60",
                "--warmup",
                "20",
            ],
            3,
            goal,
        )
        for players, goal in LOAD_SWEEP
    ),
    (
        "relay transport",
        "bench/relay_transport.py",
        [],
        3,
        "Redis pub/sub vs streams for the frame relay, side by side: publish->receive"
        " p50/p99 and CPU per frame at 2,000 frames/s (the cheaper one carries the relay)",
    ),
    (
        "cluster relay",
        "bench/cluster.py",
        ["--tables", "250", "--actions", "15", "--spectators", "1"],
        3,
        "Action->broadcast for a player on the owner's node and one on another node"
        " (through the Redis relay), side by side, 500 players + 250 spectators at 1 s think;"
        " the relay's added p99 (both nodes in one process: the two-process run is cluster"
        " capacity)",
    ),
    (
        "cluster capacity",
        "bench/cluster_load.py",
        ["--players", "2000", "--think", "1", "--duration", "60", "--warmup", "20"],
        3,
        "2,000 players on one `ahiko serve` node, then on two (PostgreSQL + Redis, half"
        " the players on the node that does not own their table): p99 action->broadcast < 50 ms,"
        " zero errors, check-ledger clean in each; nodes' CPU per 1,000 players; two/one"
        " capacity ratio (CPU-bound) >= 1.6",
    ),
    (
        "cluster capacity routed",
        "bench/cluster_load.py",
        [
            *("--players", "2000", "--think", "1", "--duration", "60", "--warmup", "20"),
            *("--placement", "route"),
        ],
        3,
        "As cluster capacity, each socket asking to be sent to its table's owner"
        " (`--node-route`, docs/deploy.md): nobody relayed once seated; two/one capacity ratio"
        " (CPU-bound) >= 1.6",
    ),
    (
        "cluster sweep",
        "bench/cluster_load.py",
        [
            *("--sweep", ",".join(str(n) for n in range(3000, 10001, 500)), "--think", "1"),
            *("--duration", "30"),
            *("--warmup", "10", "--placement", "route"),
        ],
        3,
        "The most players one node and two nodes (players sent to their table's"
        " owner) each hold at p99 action->broadcast < 50 ms with 0 errors and a clean ledger,"
        " and two's over one's (this machine has 2 cores shared with the players, PostgreSQL"
        " and Redis: we expect >= 1.6)",
    ),
    (
        "failover drill",
        "bench/failover.py",
        ["--rounds", "20", "--lease-ms", "2000"],
        3,
        "The owner of an Ahiko room killed with SIGKILL mid-hand, 20 times (real"
        " nodes, PostgreSQL, Redis): served again within lease + 2 s, the hand cancelled with"
        " its bets returned, check-ledger clean every round",
    ),
    (
        "frozen owner drill",
        "bench/frozen_owner.py",
        ["--rounds", "20"],
        1,
        "The owner of an Ahiko room frozen (SIGSTOP) mid-hand past its lease, woken,"
        " 20 rounds back to back, then the table plays on three minutes: every frozen hand"
        " stays cancelled, the woken owner drops its run (its timers cancelled, no write of"
        " it lands), nobody cashed out, check-ledger clean every round",
    ),
    (
        "redis blip drill",
        "bench/redis_blip.py",
        ["--rounds", "10"],
        1,
        "Redis killed and restarted empty, and Redis frozen 5 s, 10 rounds each,"
        " mid-hand: no hand cancelled on an owner whose lease was valid, the next action"
        " answered within 2 s of Redis returning, the table's chips unchanged, check-ledger"
        " clean",
    ),
    (
        "sigterm drill",
        "bench/drain.py",
        ["--rounds", "10"],
        1,
        "SIGTERM mid-hand, 10 rounds on a two-node cluster (the owner drained) and"
        " 10 on a lone SQLite server (stopped and started): every hand in progress finishes,"
        " no hand cancelled, every chip at the table, check-ledger clean",
    ),
    (
        "redis scan",
        "bench/relay_scan.py",
        ["--hands", "100"],
        1,
        "100 hands whose frames cross Redis (the players' sockets on the other"
        " node); PSUBSCRIBE ahiko:* and MONITOR record everything: no card list and no salt"
        " the players saw is on Redis in clear",
    ),
    (
        "crash",
        "bench/crash.py",
        ["--kills", "20"],
        3,
        "20 SIGKILLs under load: ledger clean, no coin lost",
    ),
    (
        "fair deal pace",
        "bench/fair_pace.py",
        ["--runs", "3", "--hands", "30", "--speed", "20"],
        3,
        "pokerfair/2 (two browser-like contributors over real sockets) against pokerfair/1 in"
        " the same run: the median gap from a hand's end to the next hand's first card is no"
        " longer with v2; no table stalls",
    ),
    (
        "player figures",
        "bench/player_figures.py",
        ["--hands", "20000"],
        3,
        "The profile of an account with 20,000 archived hands, p99 < 50 ms, memory flat"
        " over 8 concurrent requests (before: 14.9 s a profile, 8 at once +1,973 MB)",
    ),
    (
        "attack 1000",
        "bench/attack.py",
        ["--players", "1000", "--duration", "60", "--warmup", "20"],
        3,
        "honest p99 action->broadcast under the floods (rooms, sockets, log-ins, 48 KB headers)"
        " within 2x of the same players alone; 0 honest errors; ledger clean",
    ),
    (
        "soak 2000",
        "bench/attack.py",
        ["--soak", "--players", "2000", "--duration", "600", "--warmup", "120"],
        3,
        "2,000 players for 10 minutes: peak RSS growth < 10% after warm-up, 0 errors, ledger clean",
    ),
]


# Sections whose figures do not depend on how fast or busy the machine is (duplicate matches
# over fixed deals and pair counts; only their run time does), with the code they measure.
# Their runs are stored in bench/runs/ as they finish, and a later run of the same command on
# the same code counts them (unless --fresh): a match already played on this code is not played
# again, and a `make bench` cut short keeps the runs it finished.
STORED_RUNS: dict[str, tuple[str, ...]] = {
    label: ("src/ahiko/bots", "src/ahiko/poker", "bench/ladder.py")
    for label in ("ladder", "plo ladder", "styles holdem", "styles draw", "adaptation")
}
# The fault drills run for many minutes: a run is stored on the code it ran
# (the drill, the tests' helpers it uses, the server).
_DRILL_CODE = ("src/ahiko", "tests/cluster/failover.py", "tests/cluster/house_players.py")
STORED_RUNS.update(
    {
        "frozen owner drill": (
            *_DRILL_CODE,
            "bench/frozen_owner.py",
            "tests/cluster/frozen_owner.py",
        ),
        "redis blip drill": (*_DRILL_CODE, "bench/redis_blip.py", "tests/cluster/redis_blip.py"),
        "sigterm drill": (*_DRILL_CODE, "bench/drain.py", "tests/cluster/drain_round.py"),
        "redis scan": (*_DRILL_CODE, "bench/relay_scan.py", "tests/cluster/redis_scan.py"),
    }
)
RUNS_DIR = ROOT / "bench" / "runs"


def code_digest(paths: tuple[str, ...], root: Path | None = None) -> str:
    """A digest of every file under ``paths`` (names and contents; caches left out)."""
    root = ROOT if root is None else root
    digest = hashlib.sha256()
    for top in paths:
        found = [root / top] if (root / top).is_file() else sorted((root / top).rglob("*"))
        for path in found:
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def command_line(script: str, extra: list[str]) -> str:
    """A section's command as BENCHMARKS.md shows it (and its stored runs are filed under)."""
    return " ".join(["python", script, "--json", *extra])


def runs_file(label: str) -> Path:
    return RUNS_DIR / f"{label.replace(' ', '-')}.jsonl"


def stored_runs(label: str, command: str, code: str) -> list[dict[str, object]]:
    """The stored results of ``command`` on code ``code``, newest first."""
    path = runs_file(label)
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        run = json.loads(line)
        if run["command"] == command and run["code"] == code:
            found.append(run["result"])
    return found[::-1]


def store_run(label: str, command: str, code: str, result: dict[str, object]) -> None:
    RUNS_DIR.mkdir(parents=True, exist_ok=True)
    run = {
        "command": command,
        "code": code,
        "finished": f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        "result": result,
    }
    with runs_file(label).open("a") as out:
        out.write(json.dumps(run, separators=(",", ":")) + "\n")


def section_runs(
    label: str, script: str, extra: list[str], runs: int, *, fresh: bool = False
) -> tuple[list[dict[str, object]], int]:
    """``runs`` results for a section and how many of them were stored earlier. A section of
    ``STORED_RUNS`` takes its stored runs on the same code first (unless ``fresh``) and
    stores each new run as it finishes; any other section runs afresh every time."""
    paths = STORED_RUNS.get(label)
    if paths is None:
        return [run_one(script, extra) for _ in range(runs)], 0
    command = command_line(script, extra)
    code = code_digest(paths)
    results = [] if fresh else stored_runs(label, command, code)[:runs]
    earlier = len(results)
    while len(results) < runs:
        result = run_one(script, extra)
        store_run(label, command, code, result)
        results.append(result)
    return results, earlier


class Refused(RuntimeError):
    """A benchmark that measured nothing (exit status 2): it reports no figure."""


def run_one(script: str, args: list[str]) -> dict[str, object]:
    """One run's JSON, with the 1-minute load average just before it started. Exit status 1
    with a JSON line is a run whose figures miss a goal (errors, a broken ledger): reported."""
    cmd = [sys.executable, script, "--json", *args]
    load_before = os.getloadavg()[0]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if proc.returncode == 2:
        raise Refused(proc.stderr.strip()[-500:])
    lines = proc.stdout.strip().splitlines()
    if proc.returncode not in (0, 1) or not lines or not lines[-1].startswith("{"):
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    result: dict[str, object] = json.loads(lines[-1])
    result.setdefault("load_average_1m", round(os.getloadavg()[0], 2))
    result["load_average_1m_before"] = round(load_before, 2)
    return result


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def summary_rows(results: list[dict[str, object]]) -> list[tuple[str, object, str]]:
    """(figure, median, range) for every field: numbers get their median and min-max over
    the runs; anything else its value when every run agrees, else every run's value."""
    rows = []
    keys = dict.fromkeys(key for r in results for key in r)  # a sweep stops where a run fails
    for key in keys:
        values = [r[key] for r in results if key in r]
        some = "" if len(values) == len(results) else f" ({len(values)} of {len(results)} runs)"
        if all(_is_number(v) for v in values):
            numbers = [float(v) for v in values]  # type: ignore[arg-type]
            low, high = min(numbers), max(numbers)
            median = statistics.median(numbers)
            rows.append((key, _num(median), f"{_num(low)} – {_num(high)}{some}"))
        elif all(v == values[0] for v in values):
            rows.append((key, values[0], f"same in every run{some}"))
        else:
            rows.append((key, " / ".join(_cell(v) for v in values), f"one value a run{some}"))
    return rows


def _num(value: float) -> str:
    if value != value:  # NaN
        return "nan"
    return f"{value:.0f}" if value == int(value) and abs(value) >= 100 else f"{value:.4g}"


def median_of(results: list[dict[str, object]], key: str) -> float | None:
    values = [r[key] for r in results if _is_number(r.get(key))]
    return statistics.median(values) if values else None  # type: ignore[type-var]


def _previous_sections() -> dict[str, str]:
    """The last BENCHMARKS.md's sections by label (none when there is no file)."""
    if not OUT.exists():
        return {}
    sections = OUT.read_text().split("\n## ")[1:]
    return {section.split("\n", 1)[0]: "\n## " + section for section in sections}


def _previous_p99(players: int) -> float | None:
    """The median p99 of ``load {players}`` in the last BENCHMARKS.md, if it has that section."""
    for line in _previous_sections().get(f"load {players}", "").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == "p99_ms" and len(cells) > 1:
            return _number(cells[1])
    return None


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def knee_section(load_results: dict[int, list[dict[str, object]]]) -> str:
    """The players at which the median p99 crosses KNEE_MS, interpolated between the sweep's
    sizes (linear in players). A size not run this time (``--only``) counts with the median of
    its last run, read from BENCHMARKS.md, and is marked so."""
    points = [
        (players, p99, "")
        for players, runs in load_results.items()
        if (p99 := median_of(runs, "p99_ms")) is not None
    ]
    for players, _ in LOAD_SWEEP:
        if players not in load_results and (p99 := _previous_p99(players)) is not None:
            points.append((players, p99, " (its last run)"))
    points.sort()
    table = "\n".join(f"| {n} | {p99:.1f}{note} |" for n, p99, note in points)
    sizes = ", ".join(f"{n:,}" for n, _, _ in points)
    knee = f"not reached: every size measured ({sizes}) stays under it"
    if len(points) < len(LOAD_SWEEP):
        knee += "; the sweep's other sizes have not been run (run `make bench`)"
    for (n0, p0, _), (n1, p1, _) in itertools.pairwise(points):
        if p0 < KNEE_MS <= p1:
            knee = f"about {n0 + (n1 - n0) * (KNEE_MS - p0) / (p1 - p0):.0f} players"
            break
    if points and points[0][1] >= KNEE_MS:
        knee = f"below {points[0][0]} players (the smallest size measured)"
    return (
        f"\n## load knee\n\nThe players at which p99 action->broadcast crosses {KNEE_MS:.0f} ms"
        f" (median p99 of each size of the sweep, interpolated): **{knee}**.\n\n"
        f"| players | median p99 ms |\n|---|---|\n{table}\n"
    )


def _cell(value: object) -> str:
    if isinstance(value, dict | list):
        return "`" + json.dumps(value, separators=(",", ":")) + "`"
    return str(value)


def render(sections: list[str]) -> str:
    head = (
        "# Benchmarks\n\n"
        f"Written by `make bench` on {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores. Every figure is the median of the runs shown with its range"
        " (min – max); each run's 1-minute load average is a figure too (`load_average_1m`"
        " when it ended, `load_average_1m_before` when it started): the machine is shared,"
        " and wall-clock figures taken at a high load average are not reliable; CPU-time"
        " figures are.\n"
    )
    return head + "\n".join(sections)


def _keep_previous(sections: list[str], only: str | None) -> list[str]:
    """With --only, the other benchmarks keep the sections of their last full run."""
    if not only:
        return sections
    fresh = {section.split("\n", 2)[1][3:] for section in sections}
    kept = _previous_sections()
    ordered = []
    for label in [b[0] for b in BENCHMARKS] + ["load knee"]:
        if label in fresh:
            ordered += [s for s in sections if s.split("\n", 2)[1][3:] == label]
        elif label in kept:
            ordered.append(kept[label].rstrip("\n") + "\n")
    return ordered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--only",
        help="run only the benchmarks whose label contains this text (engine, bots, bot threads, ladder, plo ladder, styles, adaptation, fanout, fan-out floor, mtt, mtt live, load, cluster, failover, crash, fair deal pace, attack, soak)",
    )
    parser.add_argument("--runs", type=int, help="runs of each benchmark (default: its own, >= 3)")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="run the sections of STORED_RUNS afresh, not counting their stored runs",
    )
    args = parser.parse_args()
    sections = []
    load_results: dict[int, list[dict[str, object]]] = {}
    chosen = [b for b in BENCHMARKS if not args.only or args.only in b[0]]
    # A bar on a terminal (sections done, the one running), quiet when logged to a file.
    bar = tqdm(chosen, desc="make bench", unit="section", disable=not sys.stderr.isatty())
    for label, script, extra, runs, goal in bar:
        bar.set_postfix_str(label)
        runs = args.runs or runs
        command = command_line(script, extra)
        if not (ROOT / script).exists():
            sections.append(f"\n## {label}\n\nnot present yet.\n")
            continue
        try:
            results, earlier = section_runs(label, script, extra, runs, fresh=args.fresh)
        except Refused as exc:
            sections.append(f"\n## {label}\n\nGoal: {goal}\n\nRefused to report: {exc}\n")
            continue
        except RuntimeError as exc:  # a run that crashed: the others' figures are kept
            crash = str(exc)[-1500:].replace("```", "'''")
            sections.append(
                f"\n## {label}\n\nGoal: {goal}\n\nFailed to run:\n\n```\n{crash}\n```\n"
            )
            tqdm.write(f"{label}: failed", file=sys.stderr)
            continue
        if label.startswith("load "):
            load_results[int(label.split()[1])] = results
        rows = "\n".join(f"| {k} | {_cell(m)} | {r} |" for k, m, r in summary_rows(results))
        stored = ""
        if earlier:
            where = runs_file(label).relative_to(ROOT)
            stored = f"; {earlier} of them stored earlier on the same code, in `{where}`"
        sections.append(
            f"\n## {label}\n\nGoal: {goal}\n\nCommand: `{command}` ({runs} run(s){stored})\n\n"
            f"| figure | median | range |\n|---|---|---|\n{rows}\n"
        )
        tqdm.write(f"{label}: done", file=sys.stderr)
    if load_results:
        sections.append(knee_section(load_results))
    OUT.write_text(with_summary(render(_keep_previous(sections, args.only))))
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
