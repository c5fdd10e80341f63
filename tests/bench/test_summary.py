"""The summary that opens docs/BENCHMARKS.md: headline figures against their goals, read from
the sections below it, written once however often the page is rewritten."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import summary

PAGE = """# Benchmarks

Written by `make bench`.

## engine

Goal: 30x

| figure | median | range |
|---|---|---|
| allin_ratio | 68.2 | 67.77 – 68.35 |
| mild_ratio | 29.5 | 29 – 33 |

## crash

| figure | median | range |
|---|---|---|
| ledger_ok | True | same in every run |

## load knee

The players at which p99 crosses 100 ms: **about 8636 players**.
"""


def no_plots(figures: summary.Figures) -> list[tuple[str, str]]:
    assert "allin_ratio" in figures["engine"]
    return [("players_p99.png", "players against p99")]


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(summary).failed == 0


def test_the_summary_opens_the_page_and_judges_each_headline_by_its_goal() -> None:
    page = summary.with_summary(PAGE, no_plots)
    intro, _, rest = page.partition(summary.SUMMARY_START)
    assert intro.rstrip().endswith("Written by `make bench`.")
    block = rest.partition(summary.SUMMARY_END)[0]
    assert "**about 8636 players**" in block
    lines = block.splitlines()
    allin = next(line for line in lines if line.startswith("| Engine, random play, all-in"))
    mild = next(line for line in lines if line.startswith("| Engine, random play, mild"))
    crash = next(line for line in lines if "ledger clean" in line)
    assert allin.endswith("| >= 30 | yes |") and "| 68.2 | 67.77 – 68.35 |" in allin
    assert mild.endswith("| >= 30 | **no** |")
    assert crash.endswith("| == True | yes |")
    unmeasured = next(line for line in lines if "`ahiko --version`" in line)
    assert "| not measured |" in unmeasured and unmeasured.endswith("| – |")
    assert "![players against p99](bench/players_p99.png)" in block
    assert rest.partition(summary.SUMMARY_END)[2].lstrip().startswith("## engine")


def test_rewriting_the_page_keeps_one_summary() -> None:
    once = summary.with_summary(PAGE, no_plots)
    assert summary.with_summary(once, no_plots) == once
    assert once.count("## Summary") == 1
    assert set(summary.parse_sections(once)) >= {"engine", "crash", "load knee"}


def test_without_matplotlib_the_summary_says_how_to_get_the_plots() -> None:
    def missing(figures: summary.Figures) -> list[tuple[str, str]]:
        raise ImportError("No module named 'matplotlib'")

    assert "install the `bench` extra" in summary.with_summary(PAGE, missing)
