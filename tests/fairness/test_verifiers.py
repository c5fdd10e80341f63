"""R-FD-03/05: `ahiko verify`, tools/verify_proof.py and the package verifier agree on the
test vectors, on demo files and on every tampering; broken files are malformed (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fair_helpers import (
    TEST_PUBLIC_KEY,
    document_for,
    dumps,
    fixed_deal,
    showdown_state,
    tampered,
    tamperings,
)

from ahiko.cli import main as ahiko_main
from ahiko.fairness.demo import deal_demo_hand
from ahiko.fairness.keys import load_or_create_signing_key
from ahiko.fairness.verify import CAVEAT_EN, verify_text

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_proof.py"
VECTORS = Path(__file__).parent / "vectors"
EXPECTED = json.loads((VECTORS / "expected.json").read_text())
EXIT = {"consistent": 0, "inconsistent": 1, "malformed": 2}
PUBKEY = TEST_PUBLIC_KEY.hex()


def run_tool(
    path: Path, *args: str, python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, str(TOOL), str(path), *args], capture_output=True, text=True)


def run_ahiko(path: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = ahiko_main(["verify", str(path), *args])
    return code, capsys.readouterr().out


def tool_statuses(path: Path, *args: str) -> tuple[str, dict[str, str]]:
    result = json.loads(run_tool(path, "--json", *args).stdout)
    return result["verdict"], {c["name"]: c["status"] for c in result["checks"]}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_R_FD_03_vector_files_get_their_verdict_from_both_python_verifiers(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = VECTORS / name
    code, out = run_ahiko(path, "--pubkey", PUBKEY, "--json", capsys=capsys)
    ours = json.loads(out)
    tool = run_tool(path, "--pubkey", PUBKEY, "--json")
    theirs = json.loads(tool.stdout)
    assert (code, tool.returncode) == (EXIT[EXPECTED[name]],) * 2
    assert ours["verdict"] == theirs["verdict"] == EXPECTED[name]
    assert [(c["name"], c["status"]) for c in ours["checks"]] == [
        (c["name"], c["status"]) for c in theirs["checks"]
    ]


@pytest.fixture(scope="module", params=["holdem", "draw", "plo"])
def demo_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp(f"demo-{request.param}")
    data_dir = out / "data"
    assert ahiko_main(["fairness", "demo", "--out", str(out), "--players", "5",
                       "--variant", request.param, "--data-dir", str(data_dir)]) == 0  # fmt: skip
    return out


def test_R_FD_03_demo_writes_one_file_per_seat_and_a_spectator(demo_dir: Path) -> None:
    names = sorted(p.name for p in demo_dir.glob("*.json"))
    assert len(names) == 6 and "spectator.json" in names
    spectator = json.loads((demo_dir / "spectator.json").read_text())
    assert all(card["role"] != "hole" for card in spectator["cards"])


def test_R_FD_03_demo_files_pass_both_command_line_verifiers(
    demo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pubkey = (demo_dir / "public-key.txt").read_text().strip()
    for path in sorted(demo_dir.glob("*.json")):
        digest = json.loads(path.read_text())["commitment"]["digest"]
        args = ("--pubkey", pubkey, "--expect-digest", digest)
        code, out = run_ahiko(path, *args, capsys=capsys)
        tool = run_tool(path, *args)
        assert (code, tool.returncode) == (0, 0), out + tool.stdout
        for text in (out, tool.stdout):
            assert "[  ok] 2 signature" in text
            assert text.rstrip().splitlines()[-1].startswith(f"verdict: {CAVEAT_EN}")
            assert "fair." not in text.lower()


def test_R_FD_03_every_tampering_of_a_demo_file_is_inconsistent(
    demo_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pubkey = (demo_dir / "public-key.txt").read_text().strip()
    seat_file = next(p for p in sorted(demo_dir.glob("seat-*.json")))
    doc = json.loads(seat_file.read_text())
    key = load_or_create_signing_key(demo_dir / "data")
    other = deal_demo_hand("holdem", 3, key, hand_no=2).documents["spectator"]
    for name, change in tamperings(other).items():
        path = tmp_path / f"{name}.json"
        path.write_text(dumps(tampered(doc, change)))
        code, out = run_ahiko(path, "--pubkey", pubkey, capsys=capsys)
        tool = run_tool(path, "--pubkey", pubkey)
        assert (name, code, tool.returncode) == (name, 1, 1), out
        assert "INCONSISTENT" in out and "INCONSISTENT" in tool.stdout


def test_R_FD_03_expected_digest_mismatch_is_inconsistent(
    demo_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = demo_dir / "spectator.json"
    code, out = run_ahiko(path, "--expect-digest", "ab" * 32, capsys=capsys)
    assert code == 1 and "[FAIL] 2 expected_digest" in out
    assert run_tool(path, "--expect-digest", "ab" * 32).returncode == 1


MALFORMED = {
    "truncated": lambda text: text[: len(text) // 2],
    "not_an_object": lambda text: "[1, 2]",
    "wrong_format": lambda text: text.replace("pokerfair-proof/1", "pokerfair-proof/9"),
    "hand_no_string": lambda text: text.replace('"hand_no": 7', '"hand_no": "7"'),
    "hand_no_beyond_javascript": lambda text: text.replace(
        '"hand_no": 7', '"hand_no": 9007199254740993'
    ),
    "root_not_hex": lambda text: text.replace('"root": "', '"root": "zz', 1),
    "card_unreadable": lambda text: text.replace('"card": "', '"card": "X', 1),
    "nan": lambda text: text.replace('"hand_no": 7', '"hand_no": NaN'),
    "invalid_utf8": lambda text: text.replace('"t-42"', '"t-\udcff"'),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_R_FD_03_broken_files_are_malformed_with_exit_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (VECTORS / "holdem7-seat-4.json").read_text()
    path = tmp_path / "broken.json"
    path.write_bytes(MALFORMED[name](text).encode("utf-8", "surrogateescape"))
    code, out = run_ahiko(path, capsys=capsys)
    assert (code, run_tool(path).returncode) == (2, 2), out
    assert "malformed" in out


def test_R_FD_03_bad_arguments_exit_2_without_verifying(capsys: pytest.CaptureFixture[str]) -> None:
    good = VECTORS / "holdem7-seat-4.json"
    assert ahiko_main(["verify", str(good), "--pubkey", "xyz"]) == 2
    assert ahiko_main(["verify", str(good.with_name("missing.json"))]) == 2
    assert run_tool(good, "--pubkey", "abcd").returncode == 2
    assert "not hex" in capsys.readouterr().err


def test_R_FD_03_standalone_tool_says_when_the_signature_was_not_checked(tmp_path: Path) -> None:
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['cryptography'] = None\n")
    result = subprocess.run(
        [sys.executable, str(TOOL), str(VECTORS / "holdem7-seat-4.json"), "--pubkey", PUBKEY],
        capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin"},
    )  # fmt: skip
    assert result.returncode == 0
    assert (
        "signature NOT checked" in result.stdout and "install the 'cryptography'" in result.stdout
    )


def test_R_FD_03_standalone_tool_imports_only_the_standard_library() -> None:
    import ast

    tree = ast.parse(TOOL.read_text())
    top_level = {
        alias.name.split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert top_level <= {"__future__", "argparse", "hashlib", "json", "sys"}


def test_R_FD_05_verdict_and_check_list_of_the_package_verifier() -> None:
    deal = fixed_deal(7)
    text = dumps(document_for(deal, showdown_state(deal), 6))
    result = verify_text(text, public_key=TEST_PUBLIC_KEY, expect_digest=deal.commitment.digest)
    assert result.ok and result.exit_code == 0
    assert [(c.number, c.name, c.status) for c in result.checks] == [
        (1, "format", "pass"), (2, "digest", "pass"), (2, "expected_digest", "pass"),
        (2, "signature", "pass"), (3, "openings", "pass"), (4, "distinct", "pass"),
    ]  # fmt: skip
    assert "fair" not in result.summary.replace("pokerfair", "")


def test_R_FD_03_a_card_opened_at_two_positions_fails_check_4() -> None:
    deal = fixed_deal(7)
    doc = document_for(deal, showdown_state(deal), 4)
    doc["cards"].append(dict(doc["cards"][0]))
    doc["cards"][-1]["card"] = "Kd" if doc["cards"][0]["card"] != "Kd" else "Qd"
    result = verify_text(dumps(doc))
    statuses = {c.name: c.status for c in result.checks}
    assert statuses["distinct"] == "fail" and result.exit_code == 1
