"""pokerfair/2 from the browser's side, in Chromium: the table's SeatSeed draws a secret with
crypto.getRandomValues and sends only its commitment; when the next hand's commitment frame
lists it, it reveals the secret; TableState keeps the receipt and the mix and builds a
pokerfair-proof/2 file that the browser verifier and the Python verifier both accept, saying
"seu navegador contribuiu para este embaralhamento"."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fair_helpers import TEST_KEY, TEST_PUBLIC_KEY, showdown_state
from test_browser_verifier import page as verify_page  # the page serving web/js

from ahiko.fairness.contribution import seat_commitment
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.mixed_deal import ContributorSet, MixedDeal
from ahiko.fairness.proof_v2 import release_mixed_openings
from ahiko.fairness.release import Viewer
from ahiko.fairness.verify_v2 import verify_any_text

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("fairness-browser")]

page = verify_page
TABLE, HAND, SEAT, OTHER = "t-live", 8, 1, 4
OTHER_SECRET = bytes(range(32))

SETUP = """async ([table, hand, seat]) => {
  const {SeatSeed} = await import('/fairseed.js');
  const {TableState} = await import('/tablestate.js');
  window.sent = [];
  window.seed = new SeatSeed((name, args) => window.sent.push({t: name, ...args}));
  window.state = new TableState();
  await window.seed.onCommitment(table, hand - 1, null, seat);  // during hand 7: commit for 8
  return window.sent;
}"""

COMMITMENT = """async ([frame]) => {
  const {decodeFrame} = await import('/wire.js');
  const msg = decodeFrame(JSON.stringify(frame));
  window.state.apply(msg);
  const revealed = await window.seed.onCommitment(msg.commitment.table_id, msg.handNo,
                                                  msg.contributors, 1);
  if (revealed) window.state.noteOwnSecret(msg.handNo, revealed.seat, revealed.secret);
  return window.sent;
}"""

FINISH = """async ([ack, mix, openings, pubkey]) => {
  const {decodeFrame} = await import('/wire.js');
  const {verifyProof} = await import('/verify.js');
  const a = decodeFrame(JSON.stringify(ack));
  window.state.noteReceipt(a.data.hand_no, a.data.seat, a.data.receipt);
  window.state.apply(decodeFrame(JSON.stringify(mix)));
  window.state.addOpenings(openings);
  const file = window.state.proofFile();
  const result = await verifyProof(file, {publicKeyHex: pubkey,
                                          expectDigest: file.commitment.digest});
  return {file, result};
}"""


def test_R_FD_03_the_browser_commits_reveals_and_checks_its_own_contribution(page: Any) -> None:
    sent = page.evaluate(SETUP, [TABLE, HAND, SEAT])
    assert [s["t"] for s in sent] == ["fair_commit"] and sent[0]["hand_no"] == HAND
    assert "secret" not in sent[0]  # only the commitment leaves before the deck is committed
    mine = bytes.fromhex(sent[0]["commitment"])
    contributors = ContributorSet.create(
        table_id=TABLE, hand_no=HAND, recorded_in_hand=HAND - 1, signing_key=TEST_KEY,
        commitments={SEAT: mine, OTHER: seat_commitment(TABLE, HAND, OTHER, OTHER_SECRET)},
    )  # fmt: skip
    deal = DealCommitter(
        table_id=TABLE, hand_no=HAND, layout="holdem-noburn-v1", button_seat=2,
        dealt_seats=(4, 6, 1, 2), deck=list(range(52)), committed_at_ms=1, signing_key=TEST_KEY,
    )  # fmt: skip
    mixed = MixedDeal(deal, contributors, TEST_KEY)
    frame = {"t": "commitment", "seq": 3, "hand_no": HAND, "cards_in_s": 2.0, "stakes": {},
             "commitment": deal.commitment.to_json(), "contributors": contributors.to_json()}  # fmt: skip
    sent = page.evaluate(COMMITMENT, [frame])
    reveal = next(s for s in sent if s["t"] == "fair_reveal")
    assert reveal["hand_no"] == HAND
    assert sent[-1]["t"] == "fair_commit" and sent[-1]["hand_no"] == HAND + 1  # the next one
    secret = bytes.fromhex(reveal["secret"])
    assert seat_commitment(TABLE, HAND, SEAT, secret) == mine
    receipt = mixed.receive_reveal(SEAT, secret)  # seat 4 withholds: its fallback stands in
    assert receipt is not None
    transcript = mixed.close()
    ack = {"t": "ack", "seq": 3, "id": "x", "data": {"hand_no": HAND, "seat": SEAT,
                                                      "receipt": receipt.hex()}}  # fmt: skip
    mix = {"t": "fair_mix", "seq": 4, "hand_no": HAND, "reveals": transcript.reveals_json(),
           "mix": transcript.mix.hex(), "transcript": {"digest": transcript.digest.hex(),
                                                       "sig": (transcript.sig or b"").hex()}}  # fmt: skip
    openings = [
        o.to_json() for o in release_mixed_openings(mixed, Viewer(SEAT), showdown_state(deal))
    ]
    got = page.evaluate(FINISH, [ack, mix, openings, TEST_PUBLIC_KEY.hex()])
    file, result = got["file"], got["result"]
    assert file["format"] == "pokerfair-proof/2" and file["own"]["seat"] == SEAT
    assert result["ok"] and result["contributed"] is True
    assert "seu navegador contribuiu para este embaralhamento" in result["ownDetail"]
    assert result["summary"].startswith("consistent with the commitment and shaped by")
    python = verify_any_text(
        json.dumps(file), public_key=TEST_PUBLIC_KEY, expect_digest=deal.commitment.digest
    )
    assert python.ok and [c.status for c in python.checks] == [
        c["status"] for c in result["checks"]
    ]
