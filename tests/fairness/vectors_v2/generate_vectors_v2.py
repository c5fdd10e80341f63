"""Writes the pokerfair/2 test vectors in this folder. Run once by hand after a deliberate
change of the scheme (never to make a failing test pass):

    .venv/bin/python tests/fairness/vectors_v2/generate_vectors_v2.py

Outputs: ``vectors.json`` (inputs and every intermediate value: seat commitments, fallbacks,
the contributor digest, receipts, the mix, the first stream block, the permutation, the dealt
order and every opening), good proof files, the files of a server trying to choose and of
plain tamperings, and ``expected.json`` (each file's verdict with the test key)."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any, cast

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "vectors"))

from fair_helpers import TEST_KEY_SEED, TEST_PUBLIC_KEY, dumps  # noqa: E402
from fair_helpers_v2 import (  # noqa: E402
    CONTRIBUTING_SEATS,
    HONEST_SEAT,
    dropped_reveal,
    fixed_mixed_deal,
    fixed_secret,
    plain_tamperings,
    reordered_set,
    reshuffled_after_reveals,
    seat_document,
    second_transcript,
    tampered_receipt,
)
from generate_vectors import hand_vector  # noqa: E402

from ahiko.fairness.contribution import fallback_value  # noqa: E402
from ahiko.fairness.merkle import sha256  # noqa: E402
from ahiko.poker.cards import format_card  # noqa: E402

SERVER_CHOOSES = {
    "reshuffled_after_reveals": reshuffled_after_reveals,
    "dropped_reveal": dropped_reveal,
    "reordered_set": reordered_set,
    "tampered_receipt": tampered_receipt,
}


def mixed_hand_vector() -> dict[str, object]:
    """The pokerfair/1 vector of the committed deck, and every pokerfair/2 value on top."""
    mixed, receipts = fixed_mixed_deal()
    who, transcript = mixed.contributors, mixed.close()
    v1 = hand_vector("holdem-hand-8", mixed.deal)
    inputs = dict(cast(dict[str, Any], v1["inputs"]))
    inputs["committed_deck"] = inputs.pop("deck")
    inputs.update(
        recorded_in_hand=who.recorded_in_hand,
        secrets={str(s): fixed_secret(s).hex() for s in CONTRIBUTING_SEATS},
        revealed_seats=sorted(receipts),
    )
    return {
        "inputs": inputs,
        "root": v1["root"],
        "commitment_digest": v1["digest"],
        "commitment_sig": v1["sig"],
        "seat_commitments": {str(seat): com.hex() for seat, com in who.entries},
        "fallbacks": {str(seat): fallback_value(com).hex() for seat, com in who.entries},
        "contributors_digest": who.digest.hex(),
        "contributors_sig": who.sig.hex() if who.sig else None,
        "receipts": {str(seat): sig.hex() for seat, sig in sorted(receipts.items())},
        "mix_entries": [[e.seat, e.kind, e.value.hex()] for e in transcript.entries],
        "mix": transcript.mix.hex(),
        "transcript_digest": transcript.digest.hex(),
        "transcript_sig": transcript.sig.hex() if transcript.sig else None,
        "stream_block_0": sha256(b"pokerfair/v2/stream\0" + transcript.mix + bytes(4)).hex(),
        "permutation": list(mixed.permutation),
        "dealt_cards": [format_card(card) for card in mixed.dealt_deck()],
    }


def main() -> None:
    vectors = {
        "scheme": "pokerfair/2",
        "key_seed": TEST_KEY_SEED.hex(),
        "public_key": TEST_PUBLIC_KEY.hex(),
        "hand": mixed_hand_vector(),
    }
    (HERE / "vectors.json").write_text(json.dumps(vectors, indent=1) + "\n")
    mixed, receipts = fixed_mixed_deal()
    honest = seat_document(mixed, receipts, HONEST_SEAT)
    files = {
        "seat-1": honest,
        "seat-4": seat_document(mixed, receipts, 4),
        "seat-6-withheld": seat_document(mixed, receipts, 6),
        "seat-2-bot": seat_document(mixed, receipts, 2),
        "spectator": seat_document(mixed, receipts, None),
        "second-transcript-seat-4": second_transcript(honest),
    }
    expected = {f"{name}.json": "consistent" for name in files}
    for name, forge in SERVER_CHOOSES.items():
        files[f"server-{name}"] = forge(honest)
        expected[f"server-{name}.json"] = "inconsistent"
    for name, change in plain_tamperings().items():
        doc = copy.deepcopy(honest)
        change(doc)
        files[f"tampered-{name}"] = doc
        expected[f"tampered-{name}.json"] = "inconsistent"
    for name, doc in files.items():
        (HERE / f"{name}.json").write_text(dumps(doc) + "\n")
    (HERE / "malformed-reveal-kind.json").write_text(
        dumps(dict(copy.deepcopy(honest), reveals=[[1, "maybe", "00" * 32]])) + "\n"
    )
    expected["malformed-reveal-kind.json"] = "malformed"
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
