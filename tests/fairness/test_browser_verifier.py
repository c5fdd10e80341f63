"""R-FD-03: the browser verifier (web/js/verify.js, WebCrypto in headless Chromium) computes
the same hashes as the test vectors and gives the same verdict and check statuses as the
Python verifiers on the same good, tampered and broken files."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
from second_board_helpers import CASES as SECOND_BOARD_CASES
from second_board_helpers import SECOND_BOARD_TAMPERINGS
from second_board_helpers import shown_deal as second_board_deal

from ahiko.fairness.verify import verify_text
from chromium import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("fairness-browser")]

ROOT = Path(__file__).resolve().parents[2]
JS_DIR = ROOT / "src" / "ahiko" / "web" / "js"
VECTORS = Path(__file__).parent / "vectors"
EXPECTED = json.loads((VECTORS / "expected.json").read_text())
PUBKEY = TEST_PUBLIC_KEY.hex()

VERIFY_IN_PAGE = """async ([text, options]) => {
  const m = await import('/verify.js');
  return await m.verifyProof(text, options);
}"""

HASHES_IN_PAGE = """async (inputs) => {
  const m = await import('/verify.js');
  const RANKS = '23456789TJQKA', SUITS = 'cdhs';
  const fromHex = (h) => Uint8Array.from(h.match(/../g), (b) => parseInt(b, 16));
  const ctx = await m.ctxHash(inputs.table_id, inputs.hand_no);
  const leaves = [];
  for (let p = 0; p < 64; p++) {
    if (p < 52) {
      const card = RANKS.indexOf(inputs.deck[p][0]) * 4 + SUITS.indexOf(inputs.deck[p][1]);
      leaves.push(await m.leafHash(ctx, p, card, fromHex(inputs.salts[p])));
    } else leaves.push(await m.padHash(ctx, p));
  }
  const levels = [leaves];
  while (levels[levels.length - 1].length > 1) {
    const below = levels[levels.length - 1], up = [];
    for (let i = 0; i < below.length; i += 2) up.push(await m.nodeHash(below[i], below[i + 1]));
    levels.push(up);
  }
  const root = levels[levels.length - 1][0];
  const digest = await m.commitmentDigest({...inputs, deck_size: 52, root, prev: fromHex(inputs.prev)});
  return {ctx: m.toHex(ctx), levels: levels.map((l) => l.map(m.toHex)), root: m.toHex(root), digest: m.toHex(digest)};
}"""


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(JS_DIR))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            tab = browser.new_page()
            tab.goto(f"http://127.0.0.1:{server.server_address[1]}/verify.js")
            yield tab
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


def in_browser(page: Any, text: str, **options: str) -> tuple[str, list[tuple[str, str]]]:
    result = page.evaluate(VERIFY_IN_PAGE, [text, options])
    assert result["ok"] == (result["verdict"] == "consistent")
    return result["verdict"], [(c["name"], c["status"]) for c in result["checks"]]


def in_python(text: str, pubkey: bytes | None = None) -> tuple[str, list[tuple[str, str]]]:
    result = verify_text(text, public_key=pubkey)
    return result.verdict, [(c.name, c.status) for c in result.checks]


def test_R_FD_03_browser_computes_every_intermediate_hash_of_the_vectors(page: Any) -> None:
    vectors = json.loads((VECTORS / "vectors.json").read_text())
    for hand in vectors["hands"]:
        got = page.evaluate(HASHES_IN_PAGE, hand["inputs"])
        assert got["ctx"] == hand["ctx"]
        assert got["levels"][0] == hand["leaves"]
        assert got["levels"] == hand["levels"]
        assert (got["root"], got["digest"]) == (hand["root"], hand["digest"])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_R_FD_03_browser_and_python_agree_on_the_vector_files(page: Any, name: str) -> None:
    text = (VECTORS / name).read_text()
    browser = in_browser(page, text, publicKeyHex=PUBKEY)
    assert browser[0] == EXPECTED[name]
    assert browser == in_python(text, TEST_PUBLIC_KEY)


def test_R_FD_03_browser_checks_the_ed25519_signature(page: Any) -> None:
    text = (VECTORS / "holdem7-spectator.json").read_text()
    assert ("signature", "pass") in in_browser(page, text, publicKeyHex=PUBKEY)[1]
    assert ("signature", "not_checked") in in_browser(page, text)[1]
    digest = json.loads(text)["commitment"]["digest"]
    assert ("expected_digest", "pass") in in_browser(page, text, expectDigest=digest)[1]
    assert ("expected_digest", "fail") in in_browser(page, text, expectDigest="00" * 32)[1]


def test_R_FD_03_browser_and_python_agree_on_fresh_tamperings(page: Any) -> None:
    hand7, hand8 = fixed_deal(7), fixed_deal(8)
    other = document_for(hand8, showdown_state(hand8), None)
    good = document_for(hand7, showdown_state(hand7), 1)
    cases = {"good": dumps(good)}
    cases |= {name: dumps(tampered(good, change)) for name, change in tamperings(other).items()}
    cases["no_cards"] = dumps({**good, "cards": []})
    cases["unknown_layout"] = dumps(tampered(good, lambda d: d["commitment"].update(layout="x-v1")))
    cases["one_seat"] = dumps(tampered(good, lambda d: d["commitment"].update(dealt_seats=[1])))
    cases["float_seat"] = cases["good"].replace('"button_seat": 2', '"button_seat": 2.5')
    cases["broken"] = cases["good"][:-40]
    for name, text in cases.items():
        expected = "consistent" if name in ("good", "no_cards") else None
        browser = in_browser(page, text, publicKeyHex=PUBKEY)
        assert browser == in_python(text, TEST_PUBLIC_KEY), name
        if expected:
            assert browser[0] == expected
        else:
            assert browser[0] != "consistent", name


@pytest.mark.parametrize("name", list(SECOND_BOARD_CASES))
def test_R_FD_03_browser_checks_the_second_board_and_refuses_it_tampered(
    page: Any, name: str
) -> None:
    """A hand run twice and a double-board bomb pot: the second board's openings (role
    board2) verify; a changed card, a first-board position or the plain layout do not."""
    deal, _, state = second_board_deal(SECOND_BOARD_CASES[name])
    good = document_for(deal, state, None)
    browser = in_browser(page, dumps(good), publicKeyHex=PUBKEY)
    assert browser[0] == "consistent" and browser == in_python(dumps(good), TEST_PUBLIC_KEY)
    for change in SECOND_BOARD_TAMPERINGS:
        text = dumps(tampered(good, change))
        browser = in_browser(page, text, publicKeyHex=PUBKEY)
        assert browser[0] == "inconsistent", change.__name__
        assert browser == in_python(text, TEST_PUBLIC_KEY), change.__name__
