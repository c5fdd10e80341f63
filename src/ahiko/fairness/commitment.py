"""The pokerfair/1 commitment: what is broadcast before any card is dealt.

``digest`` binds the table, the hand number, the layout, the dealt seats, the Merkle root,
the time and the previous commitment's digest (a chain per table); ``sig`` is the server's
Ed25519 signature of the 32 digest bytes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ahiko.fairness.encoding import lp, u8, u64
from ahiko.fairness.merkle import HASH_SIZE, sha256
from ahiko.poker.cards import DECK_SIZE

SCHEME_VERSION = "pokerfair/1"
GENESIS_PREV = bytes(HASH_SIZE)
SIGNATURE_SIZE = 64

_COMMIT_TAG = b"pokerfair/v1/commit\0"


def commitment_digest(
    *,
    table_id: str,
    hand_no: int,
    deck_size: int,
    layout: str,
    button_seat: int,
    dealt_seats: Sequence[int],
    root: bytes,
    committed_at_ms: int,
    prev: bytes,
) -> bytes:
    """``SHA256("pokerfair/v1/commit\\0" || lp(table_id) || u64(hand_no) || u8(deck_size)
    || lp(layout) || u8(button_seat) || u8(n) || seats || root || u64(committed_at_ms) || prev)``."""
    if len(root) != HASH_SIZE or len(prev) != HASH_SIZE:
        raise ValueError("root and prev must be 32 bytes each")
    seats = b"".join(u8(s) for s in dealt_seats)
    return sha256(
        _COMMIT_TAG
        + lp(table_id)
        + u64(hand_no)
        + u8(deck_size)
        + lp(layout)
        + u8(button_seat)
        + u8(len(dealt_seats))
        + seats
        + root
        + u64(committed_at_ms)
        + prev
    )


@dataclass(frozen=True)
class Commitment:
    table_id: str
    hand_no: int
    layout: str
    button_seat: int
    dealt_seats: tuple[int, ...]
    root: bytes
    committed_at_ms: int
    prev: bytes
    digest: bytes
    sig: bytes | None = None
    deck_size: int = DECK_SIZE

    @classmethod
    def create(
        cls,
        *,
        table_id: str,
        hand_no: int,
        layout: str,
        button_seat: int,
        dealt_seats: Sequence[int],
        root: bytes,
        committed_at_ms: int,
        prev: bytes = GENESIS_PREV,
        signing_key: Ed25519PrivateKey | None = None,
    ) -> Commitment:
        seats = tuple(dealt_seats)
        digest = commitment_digest(
            table_id=table_id,
            hand_no=hand_no,
            deck_size=DECK_SIZE,
            layout=layout,
            button_seat=button_seat,
            dealt_seats=seats,
            root=root,
            committed_at_ms=committed_at_ms,
            prev=prev,
        )
        sig = signing_key.sign(digest) if signing_key is not None else None
        return cls(
            table_id, hand_no, layout, button_seat, seats, root, committed_at_ms, prev, digest, sig
        )

    def to_json(self) -> dict[str, Any]:
        """The commitment object of FAIRNESS.md, keys in the documented order."""
        data: dict[str, Any] = {
            "v": SCHEME_VERSION,
            "table_id": self.table_id,
            "hand_no": self.hand_no,
            "deck_size": self.deck_size,
            "layout": self.layout,
            "button_seat": self.button_seat,
            "dealt_seats": list(self.dealt_seats),
            "root": self.root.hex(),
            "committed_at_ms": self.committed_at_ms,
            "prev": self.prev.hex(),
            "digest": self.digest.hex(),
        }
        if self.sig is not None:
            data["sig"] = self.sig.hex()
        return data


def signature_is_valid(public_key: bytes, digest: bytes, sig: bytes) -> bool:
    """Ed25519 check of ``sig`` over the 32 digest bytes with a raw 32-byte public key."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(sig, digest)
    except (InvalidSignature, ValueError):
        return False
    return True
