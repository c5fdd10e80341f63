"""pokerfair/2: the test vectors byte for byte, the unbiased permutation, the server's reveal
handling, and the verdicts of `ahiko verify` and tools/verify_proof.py on the vector files."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from fair_helpers import TEST_KEY, TEST_PUBLIC_KEY
from fair_helpers_v2 import fixed_contributors, fixed_mixed_deal, fixed_secret

from ahiko.cli import main as ahiko_main
from ahiko.fairness import permutation as permutation_module
from ahiko.fairness.commitment import signature_is_valid
from ahiko.fairness.contribution import (
    contributors_digest,
    fallback_value,
    receipt_digest,
    seat_commitment,
)
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.merkle import sha256
from ahiko.fairness.mixed_deal import MixedDeal, RevealRejected
from ahiko.fairness.permutation import deal_permutation, draw_below
from ahiko.fairness.verify_v2 import SHAPED_EN, UNSHAPED_EN, verify_any_text
from ahiko.poker.cards import parse_card

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_proof.py"
VECTORS = Path(__file__).parent / "vectors_v2"
VECTOR = json.loads((VECTORS / "vectors.json").read_text())
EXPECTED = json.loads((VECTORS / "expected.json").read_text())
EXIT = {"consistent": 0, "inconsistent": 1, "malformed": 2}
PUBKEY = TEST_PUBLIC_KEY.hex()


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_proof_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_R_FD_01_v2_vectors_recompute_byte_for_byte_in_the_package_and_the_tool() -> None:
    hand, inputs = VECTOR["hand"], VECTOR["hand"]["inputs"]
    assert VECTOR["public_key"] == PUBKEY
    table, number = inputs["table_id"], inputs["hand_no"]
    secrets = {int(seat): bytes.fromhex(s) for seat, s in inputs["secrets"].items()}
    tool = load_tool()
    commitments = {}
    for seat, secret in secrets.items():
        commitment = seat_commitment(table, number, seat, secret)
        assert commitment.hex() == hand["seat_commitments"][str(seat)]
        assert tool.seat_commit(table, number, seat, secret) == commitment
        assert fallback_value(commitment).hex() == hand["fallbacks"][str(seat)]
        commitments[seat] = commitment
    entries = sorted(commitments.items())
    who = contributors_digest(table, number, inputs["recorded_in_hand"], entries)
    assert who.hex() == hand["contributors_digest"]
    digest = bytes.fromhex(hand["commitment_digest"])
    for seat, sig in hand["receipts"].items():
        signed = receipt_digest(digest, who, int(seat), commitments[int(seat)])
        assert signature_is_valid(TEST_PUBLIC_KEY, signed, bytes.fromhex(sig))
    mix = bytes.fromhex(hand["mix"])
    block = sha256(b"pokerfair/v2/stream\0" + mix + bytes(4))
    assert block.hex() == hand["stream_block_0"]
    assert list(deal_permutation(mix)) == hand["permutation"] == tool.permutation(mix)
    committed = [parse_card(text) for text in inputs["committed_deck"]]
    dealt = [committed[leaf] for leaf in hand["permutation"]]
    assert [parse_card(text) for text in hand["dealt_cards"]] == dealt
    mixed, _ = fixed_mixed_deal()  # the same inputs through the server's own code
    assert mixed.close().mix == mix and mixed.commitment_digest == digest


def test_R_FD_01_each_draw_is_exactly_uniform_over_every_byte_value() -> None:
    """Over all 256 values a byte can take, every outcome below the bound is accepted the
    same number of times: no bias at all, not merely a small one."""
    for bound in range(1, 53):
        outcomes: Counter[int] = Counter()
        for byte in range(256):
            try:
                outcomes[draw_below(bound, iter([byte]))] += 1
            except StopIteration:
                continue  # rejected: the next byte is drawn
        assert set(outcomes) == set(range(bound))
        assert len(set(outcomes.values())) == 1, (bound, outcomes)


def test_R_FD_01_the_permutation_uses_no_remainder_no_float_and_no_random_module() -> None:
    tree = ast.parse(Path(permutation_module.__file__).read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Mod | ast.Div)
        assert not (isinstance(node, ast.Constant) and isinstance(node.value, float))
        assert not (isinstance(node, ast.Name) and node.id == "random")
    for node in ast.walk(ast.parse(TOOL.read_text())):
        if isinstance(node, ast.FunctionDef) and node.name == "permutation":
            assert not any(
                isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod | ast.Div)
                for n in ast.walk(node)
            )


def test_R_FD_01_permutations_of_four_from_many_mixes_are_uniform() -> None:
    draws = 24 * 250
    counts = Counter(deal_permutation(sha256(b"mix %d" % i), 4) for i in range(draws))
    assert len(counts) == 24
    expected = draws / 24
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi_square < 49.7  # 23 degrees of freedom, p = 0.001


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_R_FD_03_v2_vector_files_get_their_verdict_from_both_python_verifiers(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = VECTORS / name
    code = ahiko_main(["verify", str(path), "--pubkey", PUBKEY, "--json"])
    ours = json.loads(capsys.readouterr().out)
    tool = subprocess.run(
        [sys.executable, str(TOOL), str(path), "--pubkey", PUBKEY, "--json"],
        capture_output=True, text=True,
    )  # fmt: skip
    theirs = json.loads(tool.stdout)
    assert (code, tool.returncode) == (EXIT[EXPECTED[name]],) * 2
    assert ours["verdict"] == theirs["verdict"] == EXPECTED[name]
    assert [(c["name"], c["status"]) for c in ours["checks"]] == [
        (c["name"], c["status"]) for c in theirs["checks"]
    ]


def test_R_FD_05_v2_wording_is_shaped_by_the_players_never_provably_fair() -> None:
    honest = (VECTORS / "seat-1.json").read_text()
    result = verify_any_text(honest, public_key=TEST_PUBLIC_KEY)
    assert result.ok and result.summary.startswith(SHAPED_EN)
    assert "moldado pelos segredos dos jogadores" in result.summary
    own = next(c for c in result.checks if c.name == "own")
    assert own.status == "pass" and "seu navegador contribuiu" in own.detail
    nobody, _ = fixed_mixed_deal(revealing=())
    assert all(not e.revealed for e in nobody.close().entries)
    from fair_helpers_v2 import seat_document

    text = json.dumps(seat_document(nobody, {}, 4))
    quiet = verify_any_text(text, public_key=TEST_PUBLIC_KEY)
    assert quiet.ok and quiet.summary.startswith(UNSHAPED_EN)
    for summary in (result.summary, quiet.summary):
        assert "provably" not in summary and "fair " not in summary.replace("pokerfair", "")


def test_R_FD_06_a_withheld_secret_gets_its_fallback_and_the_hand_goes_on() -> None:
    mixed, receipts = fixed_mixed_deal(revealing=(1, 4))
    entries = {e.seat: e for e in mixed.close().entries}
    assert sorted(receipts) == [1, 4]
    six = fixed_contributors().commitment_of(6)
    assert six is not None and entries[6].value == fallback_value(six) and not entries[6].revealed
    assert sorted(mixed.dealt_deck()) == sorted(mixed.deal.deck)  # every card, once


def test_R_FD_01_a_bad_reveal_is_refused_and_changes_nothing() -> None:
    deal = DealCommitter(
        table_id="t-42", hand_no=8, layout="holdem-noburn-v1", button_seat=2,
        dealt_seats=(4, 6, 1, 2), deck=list(range(52)), committed_at_ms=1, signing_key=TEST_KEY,
    )  # fmt: skip
    mixed = MixedDeal(deal, fixed_contributors(), TEST_KEY)
    refusals = {
        "another seat's secret": (4, fixed_secret(1)),
        "a seat that committed nothing": (2, fixed_secret(2)),
        "a short secret": (1, fixed_secret(1)[:31]),
    }
    for what, (seat, secret) in refusals.items():
        with pytest.raises(RevealRejected):
            mixed.receive_reveal(seat, secret)
        assert mixed.revealed_seats == (), what
    receipt = mixed.receive_reveal(1, fixed_secret(1))
    assert receipt is not None and mixed.revealed_seats == (1,)
    mixed.close()
    with pytest.raises(RevealRejected, match="closed"):
        mixed.receive_reveal(4, fixed_secret(4))
    assert mixed.revealed_seats == (1,)


def test_R_FD_01_contributors_for_another_hand_are_refused() -> None:
    deal = DealCommitter(
        table_id="t-42", hand_no=9, layout="holdem-noburn-v1", button_seat=2,
        dealt_seats=(4, 6), deck=list(range(52)), committed_at_ms=1,
    )  # fmt: skip
    with pytest.raises(ValueError, match="hand 8, not t-42 hand 9"):
        MixedDeal(deal, fixed_contributors(8), TEST_KEY)
