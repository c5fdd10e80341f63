"""pokerfair/2 with one honest seated browser (seat 1): every way the server could still try
to choose the cards is rejected, by `ahiko verify` and by tools/verify_proof.py."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fair_helpers import TEST_PUBLIC_KEY
from fair_helpers_v2 import (
    HONEST_SEAT,
    dropped_reveal,
    fixed_mixed_deal,
    reordered_set,
    reshuffled_after_reveals,
    seat_document,
    second_transcript,
    tampered_receipt,
)

from ahiko.cli import main as ahiko_main

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_proof.py"
PUBKEY = TEST_PUBLIC_KEY.hex()

Doc = dict[str, Any]


@pytest.fixture(scope="module")
def honest() -> Doc:
    mixed, receipts = fixed_mixed_deal()
    return seat_document(mixed, receipts, HONEST_SEAT)


def both_verdicts(
    doc: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[dict[str, str], dict[str, str]]:
    """The failing checks (name -> detail) of `ahiko verify` and of the standalone tool."""
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(doc))
    args = [str(path), "--pubkey", PUBKEY, "--json", *extra]
    ahiko_main(["verify", *args])
    ours = json.loads(capsys.readouterr().out)
    tool = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)
    theirs = json.loads(tool.stdout)
    failed = [
        {c["name"]: c["detail"] for c in result["checks"] if c["status"] == "fail"}
        for result in (ours, theirs)
    ]
    return failed[0], failed[1]


def test_R_FD_05_the_honest_file_is_consistent_for_both_verifiers(
    honest: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    digest = honest["commitment"]["digest"]
    assert both_verdicts(honest, tmp_path, capsys, "--expect-digest", digest) == ({}, {})


def test_R_FD_02_a_server_that_reshuffles_after_seeing_the_reveals_is_caught(
    honest: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = reshuffled_after_reveals(honest)
    assert forged["commitment"]["digest"] != honest["commitment"]["digest"]
    recorded = honest["commitment"]["digest"]  # what the browser saw before it revealed
    for failed in both_verdicts(forged, tmp_path, capsys, "--expect-digest", recorded):
        assert set(failed) == {"expected_digest", "receipts"}, failed
    # even without the recorded digest, the honest browser's receipt gives it away
    for failed in both_verdicts(forged, tmp_path, capsys):
        assert set(failed) == {"receipts"} and "does not match" in failed["receipts"]


SCHEMES: dict[str, tuple[Callable[[Doc], Doc], set[str], str]] = {
    "tampered_receipt": (tampered_receipt, {"receipts"}, "does not match"),
    "dropped_reveal": (dropped_reveal, {"receipts"}, "replaced by the fallback"),
    "reordered_set": (reordered_set, {"reveals", "mix", "openings"}, "seats"),
}


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_R_FD_03_each_way_of_steering_the_mix_is_rejected(
    scheme: str, honest: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forge, failing, words = SCHEMES[scheme]
    for failed in both_verdicts(forge(honest), tmp_path, capsys):
        assert failing <= set(failed), failed
        assert any(words in detail for detail in failed.values()), failed


def test_R_FD_03_a_second_transcript_shown_to_another_seat_is_rejected_when_files_meet(
    honest: Doc, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = second_transcript(honest)
    assert both_verdicts(other, tmp_path, capsys) == ({}, {})  # alone, seat 4 cannot tell
    mine, theirs = tmp_path / "seat-1.json", tmp_path / "seat-4.json"
    mine.write_text(json.dumps(honest))
    theirs.write_text(json.dumps(other))
    code = ahiko_main(["verify", str(mine), str(theirs), "--pubkey", PUBKEY, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [f["verdict"] for f in report["files"]] == ["consistent", "consistent"]
    together = report["together"]
    assert together["status"] == "fail"
    assert "two different transcripts" in together["detail"]
    assert "replaces seat 1's reveal by the fallback" in together["detail"]


def test_R_FD_03_files_of_one_honest_hand_agree_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed, receipts = fixed_mixed_deal()
    paths = []
    for seat in (1, 4, 6, None):
        path = tmp_path / f"{seat}.json"
        path.write_text(json.dumps(seat_document(mixed, receipts, seat)))
        paths.append(str(path))
    assert ahiko_main(["verify", *paths, "--pubkey", PUBKEY]) == 0
    out = capsys.readouterr().out
    assert "[  ok] 11 together: t-42 hand 8: 4 file(s) share one commitment" in out
