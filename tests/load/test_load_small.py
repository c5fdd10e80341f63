"""A small version of ``bench/load.py`` inside ``make test`` (issue 9): 48 players on six
Ahiko tables for ten seconds against a real server process; no errors, the ledger clean."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load import run_load

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("load")]
# A sanity bound, not the benchmark's goal: the suite shares two cores with other work.
P99_BOUND_MS = 1500.0


def test_R_RM_11_small_load_run_has_no_errors_and_a_clean_ledger() -> None:
    result = run_load(players=48, tables=6, think=0.3, duration=10, warmup=10)
    assert result["errors"] == 0, result["error_samples"]
    assert result["ledger_ok"], result["ledger"]
    assert result["server_log_tracebacks"] == 0, result.get("first_traceback")
    assert result["actions_measured"] >= 50
    assert not math.isnan(result["p99_ms"]) and result["p99_ms"] < P99_BOUND_MS
    assert result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"]
    assert result["frames_per_s"] > 0 and result["server_rss_mib"] > 0
