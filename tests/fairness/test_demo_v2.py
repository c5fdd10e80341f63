"""`ahiko fairness demo --out DIR` writes pokerfair/1 files (DIR), pokerfair/2 files (DIR/v2)
and a duplicate deal (DIR/duplicate) that `ahiko verify` and tools/verify_proof.py accept;
the duplicate's tables are shown to have got the same cards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ahiko.cli import main as ahiko_main

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_proof.py"


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo-v2")
    assert (
        ahiko_main(["fairness", "demo", "--out", str(out), "--players", "5", "--tables", "3"]) == 0
    )
    return out


def test_R_FD_03_demo_writes_v1_v2_and_duplicate_files(demo_dir: Path) -> None:
    assert len(list(demo_dir.glob("*.json"))) == 6  # pokerfair/1: five seats, a spectator
    v2 = sorted(p.name for p in (demo_dir / "v2").glob("*.json"))
    assert len(v2) == 6 and "spectator.json" in v2
    assert len(list((demo_dir / "duplicate").glob("table-*.json"))) == 18
    formats = {json.loads(p.read_text())["format"] for p in (demo_dir / "v2").glob("*.json")}
    assert formats == {"pokerfair-proof/2"}


def test_R_FD_03_every_v2_demo_file_passes_both_verifiers(
    demo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pubkey = (demo_dir / "public-key.txt").read_text().strip()
    contributed = 0
    for path in sorted([*(demo_dir / "v2").glob("*.json"), *(demo_dir / "duplicate").glob("*")]):
        digest = json.loads(path.read_text())["commitment"]["digest"]
        args = [str(path), "--pubkey", pubkey, "--expect-digest", digest]
        assert ahiko_main(["verify", *args]) == 0
        out = capsys.readouterr().out
        tool = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)
        assert tool.returncode == 0, tool.stdout
        for text in (out, tool.stdout):
            assert "shaped by the players' secrets" in text and "provably" not in text
        contributed += "seu navegador contribuiu" in out
    assert contributed == 3 + 3 * 3  # v2: 3 of 4 people; duplicate: 3 tables of 3


def test_R_FD_03_a_duplicate_deal_shows_every_table_got_the_same_cards(
    demo_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pubkey = (demo_dir / "public-key.txt").read_text().strip()
    files = sorted(str(p) for p in (demo_dir / "duplicate").glob("*.json"))
    assert ahiko_main(["verify", *files, "--pubkey", pubkey]) == 0
    out = capsys.readouterr().out
    assert "one commitment and one mix drove tables ['A', 'B', 'C']" in out
    # a table dealt from another deck (another commitment) is caught when the files meet
    other = tmp_path / "other"
    assert ahiko_main(["fairness", "demo", "--out", str(other), "--tables", "2"]) == 0
    stranger = next((other / "duplicate").glob("table-B-*.json"))
    capsys.readouterr()
    code = ahiko_main(["verify", *files, str(stranger), "--pubkey", pubkey])
    assert code == 1 and "hold different commitments" in capsys.readouterr().out
