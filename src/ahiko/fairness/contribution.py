"""The players' part of ``pokerfair/2`` (docs/fairness.md): seat secrets, their commitments,
the public fallback of a withheld secret, the contributor set, reveal receipts, the mix and
the transcript.

A seated person's browser draws a 32-byte secret for the next hand and sends only its
commitment, bound to the table, that hand's number and the seat. The set of commitments is
signed into the previous hand's record, so it is fixed before the server commits to its deck;
the secrets are revealed only after that commitment, so neither side can steer the other."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ahiko.fairness.encoding import lp, u8, u64
from ahiko.fairness.merkle import HASH_SIZE, sha256

SCHEME_V2 = "pokerfair/2"
SECRET_SIZE = 32

_SEAT_TAG = b"pokerfair/v2/seat\0"
_FALLBACK_TAG = b"pokerfair/v2/fallback\0"
_CONTRIBUTORS_TAG = b"pokerfair/v2/contributors\0"
_RECEIPT_TAG = b"pokerfair/v2/receipt\0"
_MIX_TAG = b"pokerfair/v2/mix\0"
_TRANSCRIPT_TAG = b"pokerfair/v2/transcript\0"

KIND_FALLBACK = 0
KIND_REVEALED = 1


def seat_commitment(table_id: str, hand_no: int, seat: int, secret: bytes) -> bytes:
    """``SHA256("pokerfair/v2/seat\\0" || lp(table_id) || u64(hand_no) || u8(seat) ||
    secret)``: a secret committed for one hand at one seat opens nowhere else."""
    if len(secret) != SECRET_SIZE:
        raise ValueError(f"a seat secret must be {SECRET_SIZE} bytes, got {len(secret)}")
    return sha256(_SEAT_TAG + lp(table_id) + u64(hand_no) + u8(seat) + secret)


def fallback_value(commitment: bytes) -> bytes:
    """What stands in for a secret not revealed in time: public, fixed by the commitment
    alone, so withholding can neither cancel the hand nor pick a new value."""
    _check_hash(commitment, "a seat commitment")
    return sha256(_FALLBACK_TAG + commitment)


def contributors_digest(
    table_id: str,
    hand_no: int,
    recorded_in_hand: int,
    entries: Sequence[tuple[int, bytes]],
) -> bytes:
    """``SHA256("pokerfair/v2/contributors\\0" || lp(table_id) || u64(hand_no) ||
    u64(recorded_in_hand) || u8(m) || m x (u8(seat) || commitment))``, seats ascending."""
    check_seat_order([seat for seat, _ in entries])
    body = b"".join(u8(seat) + _check_hash(c, "a seat commitment") for seat, c in entries)
    return sha256(
        _CONTRIBUTORS_TAG
        + lp(table_id)
        + u64(hand_no)
        + u64(recorded_in_hand)
        + u8(len(entries))
        + body
    )


def receipt_digest(
    commitment_digest: bytes, contributors: bytes, seat: int, seat_commitment_: bytes
) -> bytes:
    """What the server signs when a seat's reveal arrives in time: this hand's deck
    commitment, this contributor set, the seat and its commitment."""
    return sha256(
        _RECEIPT_TAG
        + _check_hash(commitment_digest, "the commitment digest")
        + _check_hash(contributors, "the contributors digest")
        + u8(seat)
        + _check_hash(seat_commitment_, "a seat commitment")
    )


@dataclass(frozen=True)
class MixEntry:
    """One contributor's value in the mix: its revealed secret, or the public fallback."""

    seat: int
    revealed: bool
    value: bytes

    @property
    def kind(self) -> int:
        return KIND_REVEALED if self.revealed else KIND_FALLBACK


def mix_digest(commitment_digest: bytes, contributors: bytes, entries: Sequence[MixEntry]) -> bytes:
    """``SHA256("pokerfair/v2/mix\\0" || D || C || u8(m) || m x (u8(seat) || u8(kind) ||
    value))`` in seat order: the one public number the permutation comes from."""
    check_seat_order([entry.seat for entry in entries])
    body = b"".join(u8(e.seat) + u8(e.kind) + _check_hash(e.value, "a mix value") for e in entries)
    return sha256(
        _MIX_TAG
        + _check_hash(commitment_digest, "the commitment digest")
        + _check_hash(contributors, "the contributors digest")
        + u8(len(entries))
        + body
    )


def transcript_digest(commitment_digest: bytes, contributors: bytes, mix: bytes) -> bytes:
    """What the server signs when the reveals close: one per hand; two signed transcripts
    for the same hand are the server's own proof that it showed seats different sets."""
    return sha256(
        _TRANSCRIPT_TAG
        + _check_hash(commitment_digest, "the commitment digest")
        + _check_hash(contributors, "the contributors digest")
        + _check_hash(mix, "the mix")
    )


def check_seat_order(seats: Sequence[int]) -> None:
    """Seats strictly ascending (each at most once): the only order the mix accepts."""
    for before, after in itertools.pairwise(seats):
        if after <= before:
            raise ValueError(f"seats must be strictly ascending, got {list(seats)}")


def _check_hash(value: bytes, what: str) -> bytes:
    if len(value) != HASH_SIZE:
        raise ValueError(f"{what} must be {HASH_SIZE} bytes, got {len(value)}")
    return value
