"""``make bench``'s stored runs: the sections of ``STORED_RUNS`` (statistical matches whose
figures do not depend on the machine's speed) keep each run as it finishes, and a later run of
the same command counts the stored runs on the same code only; a change to the code they
measure, another command or ``--fresh`` plays them again."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import run_all


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of its own: bot code, a bench script and an empty runs folder."""
    (tmp_path / "src" / "bots").mkdir(parents=True)
    (tmp_path / "src" / "bots" / "hard.py").write_text("EDGE = 1\n")
    (tmp_path / "src" / "bots" / "__pycache__").mkdir()
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "match.py").write_text("print('{}')\n")
    monkeypatch.setattr(run_all, "ROOT", tmp_path)
    monkeypatch.setattr(run_all, "RUNS_DIR", tmp_path / "bench" / "runs")
    monkeypatch.setattr(run_all, "STORED_RUNS", {"match": ("src/bots", "bench/match.py")})
    return tmp_path


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each fresh run returns the next number as its figure; the list counts them."""
    calls: list[int] = []

    def run_one(script: str, args: list[str]) -> dict[str, Any]:
        calls.append(len(calls) + 1)
        return {"bb_per_100": float(calls[-1])}

    monkeypatch.setattr(run_all, "run_one", run_one)
    return calls


def test_the_digest_follows_the_code_and_leaves_caches_out(tree: Path) -> None:
    paths = ("src/bots", "bench/match.py")
    before = run_all.code_digest(paths, tree)
    (tree / "src" / "bots" / "__pycache__" / "hard.cpython-311.pyc").write_bytes(b"\x00")
    assert run_all.code_digest(paths, tree) == before
    (tree / "src" / "bots" / "hard.py").write_text("EDGE = 2\n")
    assert run_all.code_digest(paths, tree) != before
    (tree / "src" / "bots" / "hard.py").write_text("EDGE = 1\n")
    assert run_all.code_digest(paths, tree) == before
    (tree / "src" / "bots" / "easy.py").write_text("")
    assert run_all.code_digest(paths, tree) != before


def test_runs_are_stored_as_they_finish_and_counted_later_on_the_same_code(
    tree: Path, played: list[int]
) -> None:
    results, earlier = run_all.section_runs("match", "bench/match.py", [], 2)
    assert (results, earlier) == ([{"bb_per_100": 1.0}, {"bb_per_100": 2.0}], 0)
    assert len(run_all.runs_file("match").read_text().splitlines()) == 2
    # three wanted now: the two stored count, one more is played
    results, earlier = run_all.section_runs("match", "bench/match.py", [], 3)
    assert earlier == 2 and len(played) == 3
    assert sorted(r["bb_per_100"] for r in results) == [1.0, 2.0, 3.0]  # type: ignore[type-var]
    # enough stored: nothing is played
    results, earlier = run_all.section_runs("match", "bench/match.py", [], 3)
    assert earlier == 3 and len(played) == 3


def test_another_command_new_code_or_fresh_plays_again(tree: Path, played: list[int]) -> None:
    run_all.section_runs("match", "bench/match.py", [], 1)
    _, earlier = run_all.section_runs("match", "bench/match.py", ["--seed", "7"], 1)
    assert earlier == 0 and len(played) == 2
    _, earlier = run_all.section_runs("match", "bench/match.py", [], 1, fresh=True)
    assert earlier == 0 and len(played) == 3
    (tree / "src" / "bots" / "hard.py").write_text("EDGE = 2\n")
    _, earlier = run_all.section_runs("match", "bench/match.py", [], 1)
    assert earlier == 0 and len(played) == 4


def test_a_section_outside_stored_runs_always_runs_afresh_and_stores_nothing(
    tree: Path, played: list[int]
) -> None:
    for _ in range(2):
        results, earlier = run_all.section_runs("load 1000", "bench/load.py", [], 3)
        assert earlier == 0 and len(results) == 3
    assert len(played) == 6
    assert not (tree / "bench" / "runs").exists()


def test_the_default_sections_store_the_bot_matches() -> None:
    labels = {label for label, *_ in run_all.BENCHMARKS}
    assert set(run_all.STORED_RUNS) <= labels
    bot_matches = {"ladder", "plo ladder", "styles holdem", "styles draw", "adaptation"}
    drills = {"frozen owner drill", "redis blip drill", "sigterm drill", "redis scan"}
    assert bot_matches | drills == set(run_all.STORED_RUNS)
    for paths in run_all.STORED_RUNS.values():
        assert all((run_all.ROOT / path).exists() for path in paths)


def test_a_figure_only_some_runs_reached_is_reported_with_how_many() -> None:
    """A sweep stops at the first size that misses its goal, so runs differ in their keys:
    a figure from some runs only is summarised over those, and says so."""
    runs: list[dict[str, object]] = [
        {"two_3000_p99_ms": 31.5},
        {"two_3000_p99_ms": 11.6, "two_6000_p99_ms": 40.0},
        {"two_3000_p99_ms": 13.7, "two_6000_p99_ms": 30.0},
    ]
    rows = {key: (median, spread) for key, median, spread in run_all.summary_rows(runs)}
    assert rows["two_3000_p99_ms"] == ("13.7", "11.6 – 31.5")
    assert rows["two_6000_p99_ms"] == ("35", "30 – 40 (2 of 3 runs)")
