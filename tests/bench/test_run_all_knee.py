"""``make bench``'s knee: where the load sweep's median p99 crosses 100 ms, interpolated; a size
not run this time (``run_all.py --only``) counts with its last run's median, read back from
BENCHMARKS.md and marked so."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import run_all

PREVIOUS = """# Benchmarks

## load 8000

| figure | median | range |
|---|---|---|
| p50_ms | 1.7 | 1.7 – 2.4 |
| p99_ms | 52.4 | 49.8 – 64.4 |

## load knee

old
"""


@pytest.fixture
def previous(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    out = tmp_path / "BENCHMARKS.md"
    out.write_text(PREVIOUS)
    monkeypatch.setattr(run_all, "OUT", out)
    return out


def test_the_knee_is_interpolated_with_a_size_from_its_last_run(previous: Path) -> None:
    section = run_all.knee_section(
        {10000: [{"p99_ms": 140.0}, {"p99_ms": 152.4}, {"p99_ms": 160.0}]}
    )
    # 8,000 at 52.4 ms, 10,000 at 152.4: 8,000 + 2,000 x 47.6 / 100
    assert "**about 8952 players**" in section
    assert "| 8000 | 52.4 (its last run) |" in section
    assert "| 10000 | 152.4 |" in section


def test_a_sweep_under_the_knee_says_so_and_names_what_was_not_run(previous: Path) -> None:
    section = run_all.knee_section({1000: [{"p99_ms": 4.2}]})
    assert "not reached: every size measured (1,000, 8,000) stays under it" in section
    assert "other sizes have not been run" in section


def test_no_previous_file_counts_only_this_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_all, "OUT", tmp_path / "missing.md")
    assert run_all._previous_p99(8000) is None
    section = run_all.knee_section({4000: [{"p99_ms": 80.0}], 6000: [{"p99_ms": 120.0}]})
    assert "**about 5000 players**" in section
