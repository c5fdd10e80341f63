"""Fixed ``pokerfair/2`` hands and the ways a server could try to choose the cards, shared by
the tests and the vector generator (tests/fairness/vectors_v2/generate_vectors_v2.py).

Table t-42, hand 8: dealt seats 4, 6, 1, 2 (seat 2 is a server-run bot and contributes
nothing); seats 1, 4 and 6 committed secrets during hand 7; seats 1 and 4 reveal in time,
seat 6 withholds and gets the public fallback."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from fair_helpers import OBSERVATION, TABLE_ID, TEST_KEY, fixed_deal, fixed_deck, showdown_state

from ahiko.fairness.contribution import MixEntry, seat_commitment
from ahiko.fairness.encoding import u8
from ahiko.fairness.merkle import sha256
from ahiko.fairness.mixed_deal import ContributorSet, MixedDeal
from ahiko.fairness.proof_v2 import proof_document_v2, release_mixed_openings
from ahiko.fairness.release import Viewer
from ahiko.poker.layout import HOLDEM_LAYOUT

Doc = dict[str, Any]

HAND_NO = 8
CONTRIBUTING_SEATS = (1, 4, 6)
REVEALING_SEATS = (1, 4)
HONEST_SEAT = 1


def fixed_secret(seat: int, hand_no: int = HAND_NO) -> bytes:
    return hashlib.sha256(b"ahiko test seat secret %d %d" % (hand_no, seat)).digest()


def fixed_contributors(hand_no: int = HAND_NO, table_id: str = TABLE_ID) -> ContributorSet:
    return ContributorSet.create(
        table_id=table_id,
        hand_no=hand_no,
        recorded_in_hand=hand_no - 1,
        commitments={
            seat: seat_commitment(table_id, hand_no, seat, fixed_secret(seat, hand_no))
            for seat in CONTRIBUTING_SEATS
        },
        signing_key=TEST_KEY,
    )


def fixed_mixed_deal(
    revealing: tuple[int, ...] = REVEALING_SEATS,
    deck: list[int] | None = None,
    layout: str = HOLDEM_LAYOUT,
) -> tuple[MixedDeal, dict[int, bytes]]:
    """The hand with its reveals closed, and the receipt each revealing seat got."""
    mixed = MixedDeal(fixed_deal(HAND_NO, layout, deck=deck), fixed_contributors(), TEST_KEY)
    receipts = {}
    for seat in revealing:
        receipt = mixed.receive_reveal(seat, fixed_secret(seat))
        assert receipt is not None
        receipts[seat] = receipt
    mixed.close()
    return mixed, receipts


def seat_document(
    mixed: MixedDeal, receipts: dict[int, bytes], seat: int | None, table_label: str | None = None
) -> Doc:
    """What the browser at ``seat`` (a spectator for None) downloads after showdown: its own
    secret and receipt when it has them."""
    state = showdown_state(mixed.deal)
    own = None
    if seat is not None and mixed.contributors.commitment_of(seat) is not None:
        own = (seat, fixed_secret(seat))
    return proof_document_v2(
        mixed,
        release_mixed_openings(mixed, Viewer(seat), state),
        own=own,
        receipts=[(seat, receipts[seat])] if seat in receipts else [],
        observation=OBSERVATION,
        table_label=table_label,
    )


# ------------------------------------------------------------- a server trying to choose
def reshuffled_after_reveals(honest: Doc) -> Doc:
    """The server saw the reveals, dealt a new deck and signed everything again: commitment,
    transcript with the honest secret in it, openings all valid for the new root. Only the
    honest browser's receipt (signed for the first commitment) still points at the old deck."""
    other_deck = list(reversed(fixed_deck(HAND_NO)))
    again, _ = fixed_mixed_deal(deck=other_deck)
    forged = seat_document(again, {}, HONEST_SEAT)
    forged["receipts"] = copy.deepcopy(honest["receipts"])
    return forged


def dropped_reveal(honest: Doc) -> Doc:
    """The server received seat 1's reveal (and signed its receipt) but closed the hand as if
    it had been withheld, the fallback in its place, everything re-signed."""
    without, _ = fixed_mixed_deal(revealing=tuple(s for s in REVEALING_SEATS if s != HONEST_SEAT))
    forged = seat_document(without, {}, HONEST_SEAT)
    forged["receipts"] = copy.deepcopy(honest["receipts"])
    return forged


def reordered_set(honest: Doc) -> Doc:
    """The reveals listed out of seat order (another mix, re-signed by the server)."""
    mixed, _ = fixed_mixed_deal()
    transcript = mixed.close()
    entries = list(reversed(transcript.entries))
    forged = copy.deepcopy(honest)
    forged["reveals"] = [
        [e.seat, "secret" if e.revealed else "fallback", e.value.hex()] for e in entries
    ]
    forged["mix"] = _unordered_mix(mixed, entries).hex()
    return forged


def _unordered_mix(mixed: MixedDeal, entries: list[MixEntry]) -> bytes:
    """The mix a server would compute over ``entries`` as listed, skipping the seat-order
    rule the honest code enforces."""
    body = b"".join(u8(e.seat) + u8(e.kind) + e.value for e in entries)
    return sha256(
        b"pokerfair/v2/mix\0"
        + mixed.commitment_digest
        + mixed.contributors.digest
        + u8(len(entries))
        + body
    )


def tampered_receipt(honest: Doc) -> Doc:
    forged = copy.deepcopy(honest)
    seat, sig = forged["receipts"][0]
    forged["receipts"][0] = [seat, _flip_hex(sig)]
    return forged


def second_transcript(honest: Doc) -> Doc:
    """What another seat (4) is shown: a transcript where seat 1 withheld. Alone it checks
    out (seat 4 holds no receipt of seat 1); next to seat 1's file it is caught."""
    without, receipts = fixed_mixed_deal(revealing=(4,))
    return seat_document(without, receipts, 4)


def _flip_hex(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


def plain_tamperings() -> dict[str, Any]:
    """Each turns seat 1's consistent file into an inconsistent one (test key given)."""

    def reveal(doc: Doc, seat: int) -> list[Any]:
        return next(r for r in doc["reveals"] if r[0] == seat)

    return {
        "secret": lambda d: reveal(d, 4).__setitem__(2, _flip_hex(reveal(d, 4)[2])),
        "fallback": lambda d: reveal(d, 6).__setitem__(2, _flip_hex(reveal(d, 6)[2])),
        "fallback_for_secret": lambda d: reveal(d, 4).__setitem__(1, "fallback"),
        "contributor": lambda d: d["contributors"]["seats"][1].__setitem__(
            1, _flip_hex(d["contributors"]["seats"][1][1])
        ),
        "contributors_sig": lambda d: d["contributors"].update(
            sig=_flip_hex(d["contributors"]["sig"])
        ),
        "mix": lambda d: d.update(mix=_flip_hex(d["mix"])),
        "transcript_sig": lambda d: d["transcript"].update(sig=_flip_hex(d["transcript"]["sig"])),
        "leaf": lambda d: d["cards"][0].update(leaf=(d["cards"][0]["leaf"] + 1) % 52),
        "position": lambda d: d["cards"][0].update(position=d["cards"][0]["position"] + 1),
        "own_secret": lambda d: d["own"].update(secret=_flip_hex(d["own"]["secret"])),
    }
