"""Writes the pokerfair/1 test vectors in this folder. Run once by hand after a deliberate
change of the scheme (never to make a failing test pass):

    .venv/bin/python tests/fairness/vectors/generate_vectors.py

Outputs: ``vectors.json`` (inputs and every intermediate hash), good proof files, tampered
proof files, and ``expected.json`` (the verdict each file must get with the test key)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fair_helpers import (  # noqa: E402
    TEST_KEY_SEED,
    TEST_PUBLIC_KEY,
    document_for,
    dumps,
    fixed_deal,
    showdown_state,
    tampered,
    tamperings,
)

from ahiko.fairness.deal import DealCommitter  # noqa: E402
from ahiko.fairness.merkle import deck_leaves  # noqa: E402
from ahiko.poker.cards import format_card  # noqa: E402
from ahiko.poker.layout import DRAW_LAYOUT, OMAHA_LAYOUT  # noqa: E402


def hand_vector(name: str, deal: DealCommitter) -> dict[str, object]:
    c = deal.commitment
    return {
        "name": name,
        "inputs": {
            "table_id": c.table_id,
            "hand_no": c.hand_no,
            "layout": c.layout,
            "button_seat": c.button_seat,
            "dealt_seats": list(c.dealt_seats),
            "committed_at_ms": c.committed_at_ms,
            "prev": c.prev.hex(),
            "deck": [format_card(card) for card in deal.deck],
            "salts": [s.hex() for s in deal.salts],
        },
        "ctx": deal.ctx.hex(),
        "leaves": [h.hex() for h in deck_leaves(deal.ctx, deal.deck, deal.salts)],
        "levels": [[h.hex() for h in level] for level in deal.levels],
        "root": c.root.hex(),
        "digest": c.digest.hex(),
        "sig": c.sig.hex() if c.sig else None,
    }


def main() -> None:
    hand7 = fixed_deal(7)
    hand8 = fixed_deal(8, prev=hand7.commitment.digest)
    draw9 = fixed_deal(9, DRAW_LAYOUT, prev=hand8.commitment.digest)
    omaha10 = fixed_deal(10, OMAHA_LAYOUT, prev=draw9.commitment.digest)
    states = {deal: showdown_state(deal) for deal in (hand7, hand8, draw9, omaha10)}
    vectors = {
        "scheme": "pokerfair/1",
        "key_seed": TEST_KEY_SEED.hex(),
        "public_key": TEST_PUBLIC_KEY.hex(),
        "hands": [
            hand_vector("holdem-hand-7", hand7),
            hand_vector("holdem-hand-8", hand8),
            hand_vector("draw-hand-9", draw9),
            hand_vector("omaha-hand-10", omaha10),
        ],
    }
    (HERE / "vectors.json").write_text(json.dumps(vectors, indent=1) + "\n")
    expected: dict[str, str] = {}
    files = {
        "holdem7-seat-4": document_for(hand7, states[hand7], 4),
        "holdem7-spectator": document_for(hand7, states[hand7], None),
        "holdem8-seat-6": document_for(hand8, states[hand8], 6),
        "draw9-seat-1": document_for(draw9, states[draw9], 1),
        "draw9-spectator": document_for(draw9, states[draw9], None),
        "omaha10-seat-2": document_for(omaha10, states[omaha10], 2),
        "omaha10-spectator": document_for(omaha10, states[omaha10], None),
    }
    for stem, doc in files.items():
        (HERE / f"{stem}.json").write_text(dumps(doc) + "\n")
        expected[f"{stem}.json"] = "consistent"
    base = files["holdem7-seat-4"]
    for name, change in tamperings(files["holdem8-seat-6"]).items():
        (HERE / f"tampered-{name}.json").write_text(dumps(tampered(base, change)) + "\n")
        expected[f"tampered-{name}.json"] = "inconsistent"
    draw_base = files["draw9-seat-1"]
    for name in ("card", "seat", "position"):
        change = tamperings(files["holdem8-seat-6"])[name]
        (HERE / f"tampered-draw-{name}.json").write_text(dumps(tampered(draw_base, change)) + "\n")
        expected[f"tampered-draw-{name}.json"] = "inconsistent"
    omaha_base = files["omaha10-seat-2"]
    for name in ("card", "position", "seat"):
        change = tamperings(files["holdem8-seat-6"])[name]
        (HERE / f"tampered-omaha-{name}.json").write_text(
            dumps(tampered(omaha_base, change)) + "\n"
        )
        expected[f"tampered-omaha-{name}.json"] = "inconsistent"
    # Omaha's third and fourth hole cards are outside hold'em's layout: claimed as hold'em,
    # the file no longer verifies (the digest and the positions both say so)
    as_holdem = tampered(omaha_base, lambda d: d["commitment"].update(layout="holdem-noburn-v1"))
    (HERE / "tampered-omaha-layout.json").write_text(dumps(as_holdem) + "\n")
    expected["tampered-omaha-layout.json"] = "inconsistent"
    (HERE / "malformed-truncated.json").write_text(dumps(base)[:200])
    expected["malformed-truncated.json"] = "malformed"
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
