"""The page that opens docs/BENCHMARKS.md: the headline figures against their goals, and plots
of the sweeps, read from the sections below it (the figures' tables stay where they are).

``python bench/summary.py`` draws the summary and the plots again from the BENCHMARKS.md on
disk, running nothing; bench/run_all.py calls ``summary_page`` each time it writes the file.
The plots need matplotlib (the ``bench`` extra); without it the summary says how to get them.

>>> text = "# B\\n\\n## engine\\n\\n| figure | median | range |\\n|---|---|---|\\n| allin_ratio | 68.2 | 67.8 – 68.4 |\\n"
>>> figures = parse_sections(text)
>>> figures["engine"]["allin_ratio"]
('68.2', '67.8 – 68.4')
>>> goal_met(">= 30", "68.2")
True
"""

from __future__ import annotations

import operator
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "BENCHMARKS.md"
PLOTS = ROOT / "docs" / "bench"
SUMMARY_START = "<!-- summary: written by bench/summary.py -->"
SUMMARY_END = "<!-- end of summary -->"

Figures = dict[str, dict[str, tuple[str, str]]]  # section -> figure -> (median, range)

# (section, figure, what it is, goal): the figures a reader of the page looks for first.
HEADLINES: list[tuple[str, str, str, str]] = [
    ("engine", "allin_ratio", "Engine, random play, all-in heavy (× pokerkit)", ">= 30"),
    ("engine", "mild_ratio", "Engine, random play, mild (× pokerkit)", ">= 30"),
    ("engine", "phh_files_ratio", "PHH replay from files (× pokerkit)", ">= 12"),
    ("bots", "holdem_hard_p99_ms", "Hard decision p99, hold'em (ms)", "<= 200"),
    ("bots", "draw_hard_p99_ms", "Hard decision p99, draw (ms)", "<= 200"),
    ("bots", "plo_hard_p99_ms", "Hard decision p99, Pot-Limit Omaha (ms)", "<= 200"),
    (
        "ladder",
        "holdem_hard_vs_normal_ci95_low",
        "Hold'em Hard − Normal, 95% low (bb/100)",
        ">= 10",
    ),
    ("ladder", "draw_hard_vs_normal_ci95_low", "Draw Hard − Normal, 95% low (bets/100)", ">= 3"),
    ("plo ladder", "plo_hard_vs_normal_ci95_low", "PLO Hard − Normal, 95% low (bb/100)", "> 0"),
    ("load 2000", "p99_ms", "2,000 players on one node, p99 action→broadcast (ms)", "< 50"),
    ("load 8000", "p99_ms", "8,000 players on one node, p99 action→broadcast (ms)", "< 100"),
    ("cluster sweep", "one_players_at_goal", "Players one node holds at p99 < 50 ms", ""),
    ("cluster sweep", "two_players_at_goal", "Players two nodes hold at p99 < 50 ms", ""),
    ("cluster sweep", "two_over_one_players_at_goal", "Two nodes over one", ">= 1.6"),
    (
        "fan-out floor",
        "ahiko_server_cpu_us_per_frame",
        "Server CPU a delivered frame (µs)",
        "<= 30",
    ),
    ("failover drill", "served_s_max", "Owner killed: served again after, worst (s)", "<= 4"),
    (
        "frozen owner drill",
        "failed_rounds",
        "Owner frozen past its lease, 20 rounds: failed",
        "== 0",
    ),
    (
        "redis blip drill",
        "freeze_answered_s_max",
        "Redis frozen 5 s: next action answered after, worst (s)",
        "< 2",
    ),
    ("redis blip drill", "failed_rounds", "Redis killed / frozen, 20 rounds: failed", "== 0"),
    ("sigterm drill", "hands_cancelled", "SIGTERM mid-hand, 20 rounds: hands cancelled", "== 0"),
    ("redis scan", "secrets_in_clear_on_redis", "100 relayed hands: secrets on Redis", "== 0"),
    ("crash", "ledger_ok", "20 kill -9 under load: ledger clean", "== True"),
    ("attack 1000", "p99_ratio", "Honest p99 under attack ÷ alone", "<= 2"),
    ("soak 2000", "rss_growth_pct", "Soak, 10 min at 2,000 players: RSS growth (%)", "< 10"),
    ("mtt live", "p99_ms", "1,000-player MTT, p99 action→broadcast (ms)", "< 100"),
    ("cli start", "version_wall_s", "`ahiko --version` (s)", "< 0.15"),
    (
        "fair deal pace",
        "v2_minus_v1_ms",
        "pokerfair/2 − pokerfair/1, hand end → next first card (ms)",
        "<= 0",
    ),
    ("fair deal pace", "stalled_tables", "Tables stopped by late or missing reveals", "== 0"),
]
COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
}  # fmt: skip


def parse_sections(text: str) -> Figures:
    """Every section's figures, as the tables show them."""
    figures: Figures = {}
    for section in text.split("\n## ")[1:]:
        label, _, body = section.partition("\n")
        rows = figures.setdefault(label.strip(), {})
        for line in body.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| ") and len(cells) == 3 and cells[0] not in ("figure", "---"):
                rows[cells[0]] = (cells[1], cells[2])
    return figures


def number(text: str) -> float | None:
    if text in ("True", "False"):
        return float(text == "True")
    try:
        return float(text)
    except ValueError:
        return None


def goal_met(goal: str, median: str) -> bool | None:
    """Whether ``median`` meets ``goal`` (``">= 30"``, ``"== True"``); None when either is
    not a number."""
    op, _, target = goal.partition(" ")
    value, wanted = number(median), number(target)
    if op not in COMPARE or value is None or wanted is None:
        return None
    return COMPARE[op](value, wanted)


def headline_table(figures: Figures) -> str:
    rows = ["| figure | median | range | goal | met |", "|---|---|---|---|---|"]
    for section, key, what, goal in HEADLINES:
        median, spread = figures.get(section, {}).get(key, ("not measured", ""))
        met = goal_met(goal, median) if goal else None
        mark = {True: "yes", False: "**no**", None: "–"}[met]
        rows.append(f"| {what} [{section}](#{section.replace(' ', '-')}) | {median} | {spread} "
                    f"| {goal or '–'} | {mark} |")  # fmt: skip
    return "\n".join(rows)


def knee(text: str) -> str | None:
    found = re.search(r"## load knee\n\n.*?\*\*(.+?)\*\*", text, re.S)
    return found.group(1) if found else None


def series(figures: Figures, section: str, pattern: str) -> list[tuple[int, float, float, float]]:
    """(size, median, min, max) of every figure of ``section`` whose name matches ``pattern``
    (its one group is the size), in order of size."""
    points = []
    for key, (median, spread) in figures.get(section, {}).items():
        match = re.fullmatch(pattern, key)
        mid = number(median)
        if match is None or mid is None:
            continue
        ends = [number(v) for v in re.findall(r"[\d.e+]+", spread.split("(")[0])[:2]]
        low, high = (ends[0], ends[1]) if len(ends) == 2 and None not in ends else (mid, mid)
        points.append((int(match.group(1)), mid, low or mid, high or mid))
    return sorted(points)


def draw_plots(figures: Figures) -> list[tuple[str, str]]:
    """The plots as PNG files under docs/bench/, each with its caption."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    PLOTS.mkdir(parents=True, exist_ok=True)
    drawn = []
    load = [
        (n, *figures[s]["p99_ms"])
        for s in figures
        if (m := re.fullmatch(r"load (\d+)", s)) and "p99_ms" in figures[s] and (n := int(m[1]))
    ]
    sweeps = {
        "one node, load bench": [(n, number(p) or 0.0) for n, p, _ in sorted(load)],
        "one node, cluster sweep": [(n, p) for n, p, _, _ in series(figures, "cluster sweep", r"one_(\d+)_p99_ms")],
        "two nodes, cluster sweep": [(n, p) for n, p, _, _ in series(figures, "cluster sweep", r"two_(\d+)_p99_ms")],
    }  # fmt: skip
    if any(sweeps.values()):
        fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
        for name, points in sweeps.items():
            if points:
                ax.plot(*zip(*points, strict=True), marker="o", label=name)
        for ms, note in ((50.0, "50 ms"), (100.0, "100 ms")):
            ax.axhline(ms, color="grey", linestyle=":", linewidth=1)
            ax.annotate(note, (0.01, ms), xycoords=("axes fraction", "data"), fontsize=8)
        ax.set_yscale("log")
        ax.set_xlabel("players (8 a table, 1 s think)")
        ax.set_ylabel("p99 action→broadcast, ms")
        ax.set_title("Players against latency (median of the runs)")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(PLOTS / "players_p99.png")
        plt.close(fig)
        drawn.append(("players_p99.png", "p99 action→broadcast by players: one node, two nodes"))
    engine = figures.get("engine", {})
    names = {
        "allin_ratio": "random play, all-in heavy", "mild_ratio": "random play, mild",
        "phh_files_ratio": "PHH replay, from files", "phh_replay_ratio": "PHH replay, in memory",
    }  # fmt: skip
    bars = [(names[k], number(engine[k][0])) for k in names if k in engine]
    if bars:
        fig, ax = plt.subplots(figsize=(7, 2.8), dpi=110)
        ax.barh([name for name, _ in bars], [v or 0.0 for _, v in bars], color="#3a7d44")
        for goal, label in ((30, "random-play goal 30×"), (12, "replay goal 12×")):
            ax.axvline(goal, color="grey", linestyle=":", linewidth=1)
            ax.annotate(label, (goal, 1.02), xycoords=("data", "axes fraction"), fontsize=8)
        ax.set_xlabel("our engine ÷ pokerkit 0.7.7, same run")
        ax.invert_yaxis()
        fig.tight_layout()
        fig.savefig(PLOTS / "engine_ratios.png")
        plt.close(fig)
        drawn.append(("engine_ratios.png", "the engine against pokerkit, same run"))
    return drawn


Draw = Callable[[Figures], list[tuple[str, str]]]


def summary_page(text: str, draw: Draw = draw_plots) -> str:
    """The summary block for a BENCHMARKS.md whose sections are ``text``."""
    figures = parse_sections(text)
    try:
        plots = draw(figures)
        pictures = "\n\n".join(f"![{caption}](bench/{name})" for name, caption in plots)
    except ImportError:
        pictures = "(plots: install the `bench` extra, `pip install -e '.[bench]'`)"
    where = knee(text)
    knee_line = f"One node's knee (p99 crosses 100 ms): **{where}**.\n\n" if where else ""
    return (
        f"{SUMMARY_START}\n## Summary\n\n{knee_line}{headline_table(figures)}\n\n{pictures}\n\n"
        f"The sections below give every figure with its command, runs and range.\n{SUMMARY_END}\n"
    )


def with_summary(text: str, draw: Draw = draw_plots) -> str:
    """``text`` with its summary block (re)written just after the page's introduction."""
    if SUMMARY_START in text:
        before, _, rest = text.partition(SUMMARY_START)
        text = before + rest.partition(SUMMARY_END)[2].lstrip("\n")
    head, sep, sections = text.partition("\n## ")
    return f"{head.rstrip()}\n\n{summary_page(text, draw)}{sep}{sections}"


def main() -> int:
    OUT.write_text(with_summary(OUT.read_text()))
    print(f"wrote the summary of {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
