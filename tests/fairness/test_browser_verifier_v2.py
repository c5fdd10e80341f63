"""pokerfair/2 in the browser (web/js/verify2.js through verify.js, WebCrypto in headless
Chromium): the permutation and seat commitments of the test vectors, and the same verdict and
check statuses as the Python verifiers on every vector file, the server's attempts to choose
the cards included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fair_helpers import TEST_PUBLIC_KEY
from test_browser_verifier import page as verify_page  # the page serving web/js

from ahiko.fairness.verify_v2 import verify_any_text

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("fairness-browser")]

VECTORS = Path(__file__).parent / "vectors_v2"
EXPECTED = json.loads((VECTORS / "expected.json").read_text())
PUBKEY = TEST_PUBLIC_KEY.hex()

VERIFY_IN_PAGE = """async ([text, options]) => {
  const m = await import('/verify.js');
  return await m.verifyProof(text, options);
}"""

VECTORS_IN_PAGE = """async (hand) => {
  const m = await import('/verify2.js');
  const fromHex = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
  const {toHex} = await import('/verify.js');
  const commitments = {};
  for (const [seat, secret] of Object.entries(hand.inputs.secrets)) {
    const c = await m.seatCommitment(hand.inputs.table_id, hand.inputs.hand_no, Number(seat),
                                     fromHex(secret));
    commitments[seat] = toHex(c);
  }
  return {commitments, permutation: await m.permutation(fromHex(hand.mix))};
}"""

page = verify_page


@pytest.fixture(scope="module")
def vector() -> Iterator[dict[str, Any]]:
    yield json.loads((VECTORS / "vectors.json").read_text())["hand"]


def in_browser(page: Any, text: str, **options: str) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(VERIFY_IN_PAGE, [text, options])
    assert result["ok"] == (result["verdict"] == "consistent")
    return result


def statuses(result: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    return result["verdict"], [(c["name"], c["status"]) for c in result["checks"]]


def test_R_FD_01_browser_recomputes_the_v2_vectors(page: Any, vector: dict[str, Any]) -> None:
    got = page.evaluate(VECTORS_IN_PAGE, vector)
    assert got["commitments"] == vector["seat_commitments"]
    assert got["permutation"] == vector["permutation"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_R_FD_03_browser_and_python_agree_on_the_v2_vector_files(page: Any, name: str) -> None:
    text = (VECTORS / name).read_text()
    browser = in_browser(page, text, publicKeyHex=PUBKEY)
    python = verify_any_text(text, public_key=TEST_PUBLIC_KEY)
    assert browser["verdict"] == EXPECTED[name]
    assert statuses(browser) == (python.verdict, [(c.name, c.status) for c in python.checks])
    if browser["ok"]:
        assert browser["summary"] == python.summary and "provably" not in browser["summary"]


def test_R_FD_02_the_browser_catches_a_server_that_reshuffles_after_the_reveals(page: Any) -> None:
    honest = json.loads((VECTORS / "seat-1.json").read_text())
    forged = (VECTORS / "server-reshuffled_after_reveals.json").read_text()
    recorded = honest["commitment"]["digest"]  # what this browser saw before revealing
    result = in_browser(page, forged, publicKeyHex=PUBKEY, expectDigest=recorded)
    failed = {c["name"] for c in result["checks"] if c["status"] == "fail"}
    assert result["verdict"] == "inconsistent" and failed == {"expected_digest", "receipts"}


def test_R_FD_03_the_browser_says_whether_it_contributed(page: Any) -> None:
    mine = in_browser(page, (VECTORS / "seat-1.json").read_text(), publicKeyHex=PUBKEY)
    assert mine["contributed"] is True
    assert "seu navegador contribuiu para este embaralhamento" in mine["ownDetail"]
    late = in_browser(page, (VECTORS / "seat-6-withheld.json").read_text(), publicKeyHex=PUBKEY)
    assert late["ok"] and late["contributed"] is False
    assert "not revealed in time" in late["ownDetail"]
    bot = in_browser(page, (VECTORS / "seat-2-bot.json").read_text(), publicKeyHex=PUBKEY)
    assert bot["contributed"] is False and "no secret of its own" in bot["ownDetail"]
