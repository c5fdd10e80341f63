"""The second board in the fair deal: a hand run twice and a double-board bomb pot are dealt
by the ``*-2board-v1`` layouts (the second board's own cards, role ``board2``, from the
deck's next positions after the first board's five), their openings verify with
``ahiko verify`` and ``tools/verify_proof.py``, and a tampered second run-out is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fair_helpers import TEST_PUBLIC_KEY, document_for, dumps, tampered
from second_board_helpers import CASES, SECOND_BOARD_TAMPERINGS, shown_deal

from ahiko.cli import main as ahiko_main
from ahiko.fairness.positions import ROLE_BOARD2, LayoutError, expected_position
from ahiko.poker.events import SecondBoardDealt

TOOL = Path(__file__).resolve().parents[2] / "tools" / "verify_proof.py"
PUBKEY = TEST_PUBLIC_KEY.hex()


def verdicts(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, int, str]:
    code = ahiko_main(["verify", str(path), "--pubkey", PUBKEY])
    out = capsys.readouterr().out
    tool = subprocess.run(
        [sys.executable, str(TOOL), str(path), "--pubkey", PUBKEY], capture_output=True, text=True
    )
    return code, tool.returncode, out + tool.stdout


@pytest.mark.parametrize("name", list(CASES))
def test_R_FD_03_both_verifiers_accept_the_second_board_and_refuse_it_tampered(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal, hand, state = shown_deal(CASES[name])
    second = [e for e in hand.events if isinstance(e, SecondBoardDealt)]
    assert second, "the hand has a second board"
    doc = document_for(deal, state, None)
    openings = [c for c in doc["cards"] if c["role"] == ROLE_BOARD2]
    assert [c["position"] for c in openings] == [p for e in second for p in e.positions]
    path = tmp_path / "proof.json"
    path.write_text(dumps(doc))
    code, tool, out = verdicts(path, capsys)
    assert (code, tool) == (0, 0), out

    for change in SECOND_BOARD_TAMPERINGS:
        path.write_text(dumps(tampered(doc, change)))
        code, tool, out = verdicts(path, capsys)
        assert (change.__name__, code, tool) == (change.__name__, 1, 1), out
        assert "INCONSISTENT" in out


def test_R_FD_03_the_engine_deals_the_second_board_where_the_layout_says() -> None:
    _, hand, _ = shown_deal(CASES["run-twice"])
    layout, seats = hand.events[0].layout, hand.dealt_seats
    positions = [p for e in hand.events if isinstance(e, SecondBoardDealt) for p in e.positions]
    assert positions == [expected_position(layout, seats, ROLE_BOARD2, None, k) for k in range(5)]
    with pytest.raises(LayoutError, match="no second board"):
        expected_position("holdem-noburn-v1", seats, ROLE_BOARD2, None, 0)
