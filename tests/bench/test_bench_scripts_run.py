"""Every script ``make bench`` runs still runs: each one, at a tiny size, prints the JSON line
``bench/run_all.py`` reads, with the figures it reports. A redesign that breaks a bench fails
here, not on the night somebody runs ``make bench``. The figures are not checked against their
goals (that is the benchmarks' job, on a quiet machine), only that they were measured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ahiko.poker.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def run_bench(script: str, *arguments: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *arguments, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(result, dict)
    return result


def positive(result: dict[str, object], *keys: str) -> None:
    for key in keys:
        value = result[key]
        assert isinstance(value, int | float) and value > 0, (key, value)


def test_fanout_bench_measures_cpu_per_delivered_frame() -> None:
    result = run_bench("fanout.py", "--hands", "3")
    positive(result, "frames_delivered", "cpu_us_per_frame")


def test_floor_bench_measures_the_bare_stack_beside_the_ahiko_server() -> None:
    """The floors that need nothing beyond the test install (uws needs the bench extra)."""
    result = run_bench(
        "floor.py", "--players", "16", "--seats", "2", "--think", "0.3", "--warmup", "8",
        "--duration", "8", "--write", "raw,direct,asgi", "--with-load",
    )  # fmt: skip
    assert not any(key.startswith("floor_uws") for key in result)
    for write in ("raw", "direct", "asgi"):
        positive(result, f"floor_{write}_server_cpu_us_per_frame", f"floor_{write}_p99_ms")
        assert result[f"floor_{write}_errors"] == 0
        # an action is the actor's acknowledgement and one frame for each of the 2 seats
        per_action = result[f"floor_{write}_frames_per_action"]
        assert isinstance(per_action, float) and 2.5 <= per_action <= 3.5
        positive(result, f"ahiko_over_floor_{write}")
    positive(result, "ahiko_server_cpu_us_per_frame", "ahiko_bytes_per_frame")
    assert result["ahiko_ledger_ok"] is True


def test_engine_bench_measures_ours_beside_pokerkit_and_eval7() -> None:
    result = run_bench("engine.py", "--repeats", "1", "--hands", "20")
    positive(result, "mild_ratio", "phh_replay_ratio", "phh_files_ratio", "ours_vs_eval7")


def test_bots_bench_measures_every_level_in_every_game() -> None:
    result = run_bench("bots.py", "--situations", "5")
    for variant in GAMES:
        for level in ("easy", "normal", "hard"):
            positive(result, f"{variant}_{level}_p99_ms")
    positive(result, "plo_tables_ms")


def test_plo_ladder_plays_its_three_rungs() -> None:
    result = run_bench("ladder.py", "--games", "plo", "--scale", "0.005", "--secret", "tiny")
    for rung in ("easy_vs_random", "normal_vs_easy", "hard_vs_normal"):
        assert result[f"plo_{rung}_pairs"] and f"plo_{rung}_ci95_low" in result
    assert not any(key.startswith(("holdem_", "draw_")) for key in result)


def test_bot_threads_bench_measures_the_loop_lag_both_ways() -> None:
    result = run_bench("bot_threads.py", "--tables", "1", "--seconds", "2")
    positive(result, "inline_p99_ms", "threads_p99_ms")


def test_cli_start_bench_times_ours_beside_the_pokerkit_script() -> None:
    result = run_bench("cli_start.py", "--repeats", "1")
    positive(result, "version_cpu_s", "hh_replay_cpu_s", "pokerkit_script_cpu_s")


def test_relay_transport_bench_measures_pubsub_beside_streams() -> None:
    result = run_bench("relay_transport.py", "--frames", "200")
    positive(result, "pubsub_p99_ms", "streams_p99_ms", "streams_over_pubsub_cpu")


def test_cluster_bench_measures_the_relayed_beside_the_local_latency() -> None:
    result = run_bench("cluster.py", "--tables", "3", "--actions", "4", "--think", "0.01")
    positive(result, "local_p99_ms", "relayed_p99_ms", "cpu_ms_per_action", "relayed_frames")


def test_cluster_load_bench_measures_one_node_beside_two() -> None:
    result = run_bench(
        "cluster_load.py", "--players", "8", "--seats", "2", "--think", "0.05",
        "--warmup", "1", "--duration", "3", "--idle", "0.5",
    )  # fmt: skip
    positive(result, "one_p99_ms", "two_p99_ms", "two_relayed_players", "capacity_ratio_cpu")
    positive(result, "one_nodes_cpu_pct_per_1000_players", "two_nodes_cpu_pct_per_1000_players")
    assert result["one_ledger_ok"] is True and result["two_ledger_ok"] is True


def test_mtt_live_bench_plays_a_small_mtt_over_websockets_with_nobody_stranded() -> None:
    result = run_bench(
        "mtt_live.py", "--players", "20", "--reference", "10", "--speed", "10",
        "--levels", "1", "--think", "0.2",
    )  # fmt: skip
    positive(result, "p99_ms", "server_cpu_s_per_level", "hands_per_level", "server_rss_mib")
    positive(result, "reference_p99_ms", "reference_server_cpu_s_per_level", "moves")
    assert result["stranded_players"] == 0 and result["reference_stranded_players"] == 0
    assert result["ledger_ok"] is True and result["reference_ledger_ok"] is True


def test_player_figures_bench_reads_a_profile_of_many_archived_hands() -> None:
    result = run_bench(
        "player_figures.py", "--hands", "600", "--requests", "20", "--concurrency", "2",
        "--no-reference",
    )  # fmt: skip
    assert result["hands"] == 600
    positive(result, "profile_p50_ms", "profile_p99_ms", "profile_p99_ms_2_at_once")
    positive(result, "table_line_p99_ms", "floor_me_p99_ms", "server_peak_rss_mib", "rebuild_s")


def test_R_FD_02_fair_pace_bench_times_v2_beside_v1_and_no_table_stalls() -> None:
    result = run_bench("fair_pace.py", "--runs", "1", "--hands", "4", "--speed", "300")
    positive(result, "v1_gap_median_ms", "v2_gap_median_ms", "v1_gaps", "v2_gaps", "v2_reveals")
    assert result["stalled_tables"] == 0
