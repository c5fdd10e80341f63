"""A short, seeded crash drill (``bench/crash.py`` runs the long one): SIGKILL the server
three times under load, restart it on the same data, and check each time that the ledger is
clean, nobody lost a coin, every interrupted hand was cancelled (R-FD-06) and every player
finds their seat again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from crash import run_drill

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("load")]


def test_R_FD_06_sigkill_under_load_loses_no_coin_and_cancels_interrupted_hands() -> None:
    result = run_drill(kills=3, players=16, tables=2, think=0.2, seed=11, min_s=1.5, max_s=5.0)
    for round_ in result["rounds"]:
        assert round_["ledger_ok_while_dead"], round_["ledger"]
        assert round_["ledger_ok_after_restart"]
        assert round_["coins_before"] == round_["coins_after"] == 16 * 5000
        assert round_["players_whole"], round_
        assert round_["hands_cancelled_now"] == round_["hands_interrupted"]
        assert round_["hands_left_in_progress"] == 0
        assert round_["players_back_in_seat"] == 16  # R-TM-03: a restart is a reconnection
    assert result["hands_interrupted"] >= 1  # the kills did land in the middle of hands
    assert result["ledger_ok"] and result["errors"] == 0, result["error_samples"]
    assert result["server_log_tracebacks"] == 0
    assert result["ok"]
