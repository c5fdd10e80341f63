"""Reading a ``pokerfair-proof/2`` file into typed values.

The ``pokerfair/1`` parts (commitment, public draws, cards, observation) are read by the
``pokerfair/1`` reader itself, so both versions reject the same malformed values; this module
adds the contributor set, the reveals, the mix, the transcript, the receipts, the browser's
own secret and each card's leaf."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ahiko.fairness.commitment import SIGNATURE_SIZE
from ahiko.fairness.contribution import SCHEME_V2
from ahiko.fairness.merkle import HASH_SIZE
from ahiko.fairness.proof import PROOF_FORMAT
from ahiko.fairness.proof_reader import (
    MalformedProof,
    ProofFile,
    need_hex,
    need_int,
    need_list,
    need_object,
    need_string,
    parse_json,
    proof_from_json,
)
from ahiko.fairness.proof_v2 import PROOF_FORMAT_V2

REVEAL_KINDS = ("secret", "fallback")


@dataclass(frozen=True)
class ProofContributors:
    hand_no: int
    recorded_in_hand: int
    entries: tuple[tuple[int, bytes], ...]
    digest: bytes
    sig: bytes | None


@dataclass(frozen=True)
class ProofReveal:
    seat: int
    revealed: bool
    value: bytes


@dataclass(frozen=True)
class ProofFileV2:
    base: ProofFile  # the pokerfair/1 parts
    contributors: ProofContributors
    reveals: tuple[ProofReveal, ...]
    mix: bytes
    transcript_digest: bytes
    transcript_sig: bytes | None
    receipts: tuple[tuple[int, bytes], ...]
    own: tuple[int, bytes] | None
    leaves: tuple[int, ...]  # cards[i].leaf
    table_label: str | None


def is_v2(raw: str | bytes) -> bool:
    """Whether the text claims the ``pokerfair-proof/2`` format (cheaply, before reading)."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and data.get("format") == PROOF_FORMAT_V2


def read_proof_v2(raw: str | bytes) -> ProofFileV2:
    return proof_v2_from_json(parse_json(raw))


def proof_v2_from_json(data: Any) -> ProofFileV2:
    top = need_object(data, "the file")
    if top.get("format") != PROOF_FORMAT_V2:
        raise MalformedProof(f"format is not {PROOF_FORMAT_V2!r}")
    cards = need_list(top.get("cards"), "cards")
    entries = [need_object(card, "cards[]") for card in cards]
    leaves = tuple(need_int(e.get("leaf"), "cards[].leaf", 255) for e in entries)
    public = top.get("public")
    label = None
    if public is not None and need_object(public, "public").get("table") is not None:
        label = need_string(public["table"], "public.table")
    base = proof_from_json(
        {
            "format": PROOF_FORMAT,
            "commitment": top.get("commitment"),
            "client_observation": top.get("client_observation"),
            "public": public,
            "cards": [{k: v for k, v in e.items() if k != "leaf"} for e in entries],
        }
    )
    transcript = need_object(top.get("transcript"), "transcript")
    return ProofFileV2(
        base=base,
        contributors=_contributors(top.get("contributors")),
        reveals=tuple(_reveal(r) for r in need_list(top.get("reveals"), "reveals")),
        mix=need_hex(top.get("mix"), "mix", HASH_SIZE),
        transcript_digest=need_hex(transcript.get("digest"), "transcript.digest", HASH_SIZE),
        transcript_sig=_optional_sig(transcript.get("sig"), "transcript.sig"),
        receipts=tuple(_receipt(r) for r in need_list(top.get("receipts", []), "receipts")),
        own=_own(top.get("own")),
        leaves=leaves,
        table_label=label,
    )


def _contributors(value: Any) -> ProofContributors:
    c = need_object(value, "contributors")
    if c.get("v") != SCHEME_V2:
        raise MalformedProof(f"contributors.v is not {SCHEME_V2!r}")
    entries = []
    for pair in need_list(c.get("seats"), "contributors.seats"):
        items = need_list(pair, "contributors.seats[]")
        if len(items) != 2:
            raise MalformedProof("contributors.seats[] must be [seat, commitment] pairs")
        entries.append(
            (
                need_int(items[0], "contributors.seats[] seat", 255),
                need_hex(items[1], "contributors.seats[] commitment", HASH_SIZE),
            )
        )
    if len(entries) > 255:
        raise MalformedProof("contributors.seats has more than 255 seats")
    return ProofContributors(
        hand_no=need_int(c.get("hand_no"), "contributors.hand_no"),
        recorded_in_hand=need_int(c.get("recorded_in_hand"), "contributors.recorded_in_hand"),
        entries=tuple(entries),
        digest=need_hex(c.get("digest"), "contributors.digest", HASH_SIZE),
        sig=_optional_sig(c.get("sig"), "contributors.sig"),
    )


def _reveal(value: Any) -> ProofReveal:
    items = need_list(value, "reveals[]")
    if len(items) != 3:
        raise MalformedProof("reveals[] must be [seat, kind, value] triples")
    kind = need_string(items[1], "reveals[] kind")
    if kind not in REVEAL_KINDS:
        raise MalformedProof(f"reveals[] kind {kind!r} is not 'secret' or 'fallback'")
    return ProofReveal(
        seat=need_int(items[0], "reveals[] seat", 255),
        revealed=kind == "secret",
        value=need_hex(items[2], "reveals[] value", HASH_SIZE),
    )


def _receipt(value: Any) -> tuple[int, bytes]:
    items = need_list(value, "receipts[]")
    if len(items) != 2:
        raise MalformedProof("receipts[] must be [seat, signature] pairs")
    return (
        need_int(items[0], "receipts[] seat", 255),
        need_hex(items[1], "receipts[] signature", SIGNATURE_SIZE),
    )


def _own(value: Any) -> tuple[int, bytes] | None:
    if value is None:
        return None
    o = need_object(value, "own")
    return need_int(o.get("seat"), "own.seat", 255), need_hex(o.get("secret"), "own.secret", 32)


def _optional_sig(value: Any, what: str) -> bytes | None:
    return None if value is None else need_hex(value, what, SIGNATURE_SIZE)
