"""The server's side of a ``pokerfair/2`` hand: the signed contributor set, reveals with
signed receipts, the closing transcript, and openings of the leaf each deal position maps to.

The deck is committed exactly as in ``pokerfair/1`` (a :class:`DealCommitter`); the mix of
the commitment and the players' secrets then decides which committed leaf each deal position
opens, so the cards dealt are ``deck[pi[p]]`` and not ``deck[p]``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.fairness.contribution import (
    SCHEME_V2,
    MixEntry,
    contributors_digest,
    fallback_value,
    mix_digest,
    receipt_digest,
    seat_commitment,
    transcript_digest,
)
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.merkle import auth_path
from ahiko.fairness.opening import Opening
from ahiko.fairness.permutation import deal_permutation
from ahiko.poker.cards import Card


class RevealRejected(ValueError):
    """A reveal that changes nothing: wrong seat, wrong secret, or too late."""


@dataclass(frozen=True)
class ContributorSet:
    """The seat commitments for hand ``hand_no``, signed into hand ``recorded_in_hand``'s
    record (0 when recorded at sit-down, before any hand)."""

    table_id: str
    hand_no: int
    recorded_in_hand: int
    entries: tuple[tuple[int, bytes], ...]
    digest: bytes
    sig: bytes | None

    @classmethod
    def create(
        cls,
        *,
        table_id: str,
        hand_no: int,
        recorded_in_hand: int,
        commitments: dict[int, bytes],
        signing_key: Ed25519PrivateKey | None = None,
    ) -> ContributorSet:
        entries = tuple(sorted(commitments.items()))
        digest = contributors_digest(table_id, hand_no, recorded_in_hand, entries)
        sig = signing_key.sign(digest) if signing_key is not None else None
        return cls(table_id, hand_no, recorded_in_hand, entries, digest, sig)

    def commitment_of(self, seat: int) -> bytes | None:
        return dict(self.entries).get(seat)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "v": SCHEME_V2,
            "hand_no": self.hand_no,
            "recorded_in_hand": self.recorded_in_hand,
            "seats": [[seat, c.hex()] for seat, c in self.entries],
            "digest": self.digest.hex(),
        }
        if self.sig is not None:
            data["sig"] = self.sig.hex()
        return data


@dataclass(frozen=True)
class Transcript:
    """The closed reveals: every contributor's value in seat order, the mix, and the
    server's signature of ``transcript_digest``."""

    entries: tuple[MixEntry, ...]
    mix: bytes
    digest: bytes
    sig: bytes | None

    def reveals_json(self) -> list[list[Any]]:
        return [
            [e.seat, "secret" if e.revealed else "fallback", e.value.hex()] for e in self.entries
        ]


@dataclass(frozen=True)
class MixedOpening:
    """An opening of ``pokerfair/2``: deal ``position`` opens committed ``leaf``."""

    role: str
    seat: int | None
    k: int
    position: int
    leaf: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``pokerfair/1`` opening's fields with ``leaf`` after ``position``."""
        plain = Opening(
            self.role, self.seat, self.k, self.position, self.card, self.salt, self.path
        )
        data: dict[str, Any] = {}
        for key, value in plain.to_json().items():
            data[key] = value
            if key == "position":
                data["leaf"] = self.leaf
        return data


AnyOpening = Opening | MixedOpening
"""An opening of either version: ``pokerfair/1`` or ``pokerfair/2``."""


class MixedDeal:
    """One hand of ``pokerfair/2``: reveals are taken until :meth:`close`, after which the
    permutation is fixed and openings can be made."""

    def __init__(
        self,
        deal: DealCommitter,
        contributors: ContributorSet,
        signing_key: Ed25519PrivateKey | None = None,
    ) -> None:
        c = deal.commitment
        if (contributors.table_id, contributors.hand_no) != (c.table_id, c.hand_no):
            raise ValueError(
                f"the contributor set is for {contributors.table_id} hand "
                f"{contributors.hand_no}, not {c.table_id} hand {c.hand_no}"
            )
        self.deal = deal
        self.contributors = contributors
        self._key = signing_key
        self._revealed: dict[int, bytes] = {}
        self.transcript: Transcript | None = None
        self._pi: tuple[int, ...] = ()

    @property
    def commitment_digest(self) -> bytes:
        return self.deal.commitment.digest

    def receive_reveal(self, seat: int, secret: bytes) -> bytes | None:
        """Record ``seat``'s secret; the signed receipt (None without a signing key)."""
        if self.transcript is not None:
            raise RevealRejected(f"the reveals of hand {self.contributors.hand_no} are closed")
        expected = self.contributors.commitment_of(seat)
        if expected is None:
            raise RevealRejected(f"seat {seat} committed no secret for this hand")
        try:
            opened = seat_commitment(
                self.contributors.table_id, self.contributors.hand_no, seat, secret
            )
        except ValueError as exc:
            raise RevealRejected(str(exc)) from None
        if opened != expected:
            raise RevealRejected(f"the secret does not open seat {seat}'s commitment")
        self._revealed[seat] = secret
        return self.receipt_for(seat)

    def receipt_for(self, seat: int) -> bytes | None:
        commitment = self.contributors.commitment_of(seat)
        if self._key is None or commitment is None:
            return None
        return self._key.sign(
            receipt_digest(self.commitment_digest, self.contributors.digest, seat, commitment)
        )

    @property
    def revealed_seats(self) -> tuple[int, ...]:
        return tuple(sorted(self._revealed))

    def close(self) -> Transcript:
        """Replace every missing secret by its fallback, fix the mix and the permutation."""
        if self.transcript is not None:
            return self.transcript
        entries = tuple(
            MixEntry(seat, True, self._revealed[seat])
            if seat in self._revealed
            else MixEntry(seat, False, fallback_value(commitment))
            for seat, commitment in self.contributors.entries
        )
        self.transcript = transcript_of(
            self.commitment_digest, self.contributors.digest, entries, self._key
        )
        self._pi = deal_permutation(self.transcript.mix, len(self.deal.deck))
        return self.transcript

    @property
    def permutation(self) -> tuple[int, ...]:
        if not self._pi:
            raise RuntimeError("the reveals are not closed yet")
        return self._pi

    def dealt_deck(self) -> tuple[Card, ...]:
        """The cards in deal-position order: ``deck[pi[p]]``."""
        return tuple(self.deal.deck[leaf] for leaf in self.permutation)

    def opening(self, role: str, seat: int | None, k: int) -> MixedOpening:
        position = self.deal.position(role, seat, k)
        leaf = self.permutation[position]
        return MixedOpening(
            role=role,
            seat=seat,
            k=k,
            position=position,
            leaf=leaf,
            card=self.deal.deck[leaf],
            salt=self.deal.salts[leaf],
            path=tuple(auth_path(self.deal.levels, leaf)),
        )


def transcript_of(
    commitment_digest: bytes,
    contributors: bytes,
    entries: Sequence[MixEntry],
    signing_key: Ed25519PrivateKey | None,
) -> Transcript:
    mix = mix_digest(commitment_digest, contributors, entries)
    digest = transcript_digest(commitment_digest, contributors, mix)
    sig = signing_key.sign(digest) if signing_key is not None else None
    return Transcript(tuple(entries), mix, digest, sig)
