"""Reading a proof file into typed values; anything unreadable is a :class:`MalformedProof`.

Readable-but-wrong values (a salt of the wrong length, a path of 5 siblings, an unknown
layout) are left for the verifier's checks, which report them as inconsistent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ahiko.fairness.commitment import SCHEME_VERSION, SIGNATURE_SIZE
from ahiko.fairness.merkle import HASH_SIZE
from ahiko.fairness.proof import PROOF_FORMAT
from ahiko.poker.cards import RANKS, SUITS, Card

MAX_SAFE_INTEGER = (1 << 53) - 1  # the largest integer every JSON reader (JavaScript) keeps


class MalformedProof(ValueError):
    """The file is not a readable pokerfair-proof/1 document."""


@dataclass(frozen=True)
class ProofCommitment:
    table_id: str
    hand_no: int
    deck_size: int
    layout: str
    button_seat: int
    dealt_seats: tuple[int, ...]
    root: bytes
    committed_at_ms: int
    prev: bytes
    digest: bytes
    sig: bytes | None


@dataclass(frozen=True)
class ProofCard:
    role: str
    seat: int | None
    k: int
    position: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]


@dataclass(frozen=True)
class Observation:
    commitment_before_cards: bool
    commitment_received_at: int | None
    first_card_at: int | None


@dataclass(frozen=True)
class ProofFile:
    commitment: ProofCommitment
    draws: tuple[tuple[int, int], ...]
    cards: tuple[ProofCard, ...]
    observation: Observation | None


def read_proof(raw: str | bytes) -> ProofFile:
    return proof_from_json(parse_json(raw))


def parse_json(raw: str | bytes) -> Any:
    """Strict JSON: NaN and Infinity, which other readers refuse, are malformed here too."""
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MalformedProof(f"not JSON: {exc}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def proof_from_json(data: Any) -> ProofFile:
    top = need_object(data, "the file")
    if top.get("format") != PROOF_FORMAT:
        raise MalformedProof(f"format is not {PROOF_FORMAT!r}")
    c = need_object(top.get("commitment"), "commitment")
    if c.get("v") != SCHEME_VERSION:
        raise MalformedProof(f"commitment.v is not {SCHEME_VERSION!r}")
    seats = need_list(c.get("dealt_seats"), "commitment.dealt_seats")
    commitment = ProofCommitment(
        table_id=need_string(c.get("table_id"), "commitment.table_id"),
        hand_no=need_int(c.get("hand_no"), "commitment.hand_no"),
        deck_size=need_int(c.get("deck_size"), "commitment.deck_size", 255),
        layout=need_string(c.get("layout"), "commitment.layout"),
        button_seat=need_int(c.get("button_seat"), "commitment.button_seat", 255),
        dealt_seats=tuple(need_int(s, "commitment.dealt_seats[]", 255) for s in seats),
        root=need_hex(c.get("root"), "commitment.root", HASH_SIZE),
        committed_at_ms=need_int(c.get("committed_at_ms"), "commitment.committed_at_ms"),
        prev=need_hex(c.get("prev"), "commitment.prev", HASH_SIZE),
        digest=need_hex(c.get("digest"), "commitment.digest", HASH_SIZE),
        sig=None if c.get("sig") is None else need_hex(c["sig"], "commitment.sig", SIGNATURE_SIZE),
    )
    if len(seats) > 255:
        raise MalformedProof("commitment.dealt_seats has more than 255 seats")
    for name, text in (("table_id", commitment.table_id), ("layout", commitment.layout)):
        try:
            too_long = len(text.encode("utf-8")) > 0xFFFF
        except UnicodeEncodeError:
            raise MalformedProof(f"commitment.{name} is not valid Unicode") from None
        if too_long:
            raise MalformedProof(f"commitment.{name} is too long to encode")
    return ProofFile(
        commitment=commitment,
        draws=_draws(top.get("public")),
        cards=tuple(_card_entry(e) for e in need_list(top.get("cards"), "cards")),
        observation=_observation(top.get("client_observation")),
    )


def _draws(public: Any) -> tuple[tuple[int, int], ...]:
    if public is None:
        return ()
    draws = need_object(public, "public").get("draws")
    if draws is None:
        return ()
    result = []
    for pair in need_list(draws, "public.draws"):
        items = need_list(pair, "public.draws[]")
        if len(items) != 2:
            raise MalformedProof("public.draws[] must be [seat, count] pairs")
        result.append(
            (need_int(items[0], "public.draws seat", 255), need_int(items[1], "public.draws count"))
        )
    return tuple(result)


def _card_entry(entry: Any) -> ProofCard:
    e = need_object(entry, "cards[]")
    seat = e.get("seat")
    return ProofCard(
        role=need_string(e.get("role"), "cards[].role"),
        seat=None if seat is None else need_int(seat, "cards[].seat", 255),
        k=need_int(e.get("k"), "cards[].k"),
        position=need_int(e.get("position"), "cards[].position"),
        card=_card_text(e.get("card")),
        salt=need_hex(e.get("salt"), "cards[].salt"),
        path=tuple(need_hex(h, "cards[].path[]") for h in need_list(e.get("path"), "cards[].path")),
    )


def _observation(value: Any) -> Observation | None:
    if value is None:
        return None
    o = need_object(value, "client_observation")
    before = o.get("commitment_before_cards")
    if not isinstance(before, bool):
        raise MalformedProof("client_observation.commitment_before_cards must be true or false")
    received, first = o.get("commitment_received_at"), o.get("first_card_at")
    return Observation(
        commitment_before_cards=before,
        commitment_received_at=None
        if received is None
        else need_int(received, "commitment_received_at"),
        first_card_at=None if first is None else need_int(first, "first_card_at"),
    )


def need_object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise MalformedProof(f"{what} must be a JSON object")
    return value


def need_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise MalformedProof(f"{what} must be a JSON array")
    return value


def need_string(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise MalformedProof(f"{what} must be a string")
    return value


def need_int(value: Any, what: str, maximum: int = MAX_SAFE_INTEGER) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise MalformedProof(f"{what} must be an integer from 0 to {maximum}")
    return value


def need_hex(value: Any, what: str, size: int | None = None) -> bytes:
    text = need_string(value, what)
    if len(text) % 2 or any(ch not in "0123456789abcdefABCDEF" for ch in text):
        raise MalformedProof(f"{what} is not hex")
    raw = bytes.fromhex(text)
    if size is not None and len(raw) != size:
        raise MalformedProof(f"{what} must be {size} bytes")
    return raw


def _card_text(value: Any) -> Card:
    text = need_string(value, "cards[].card")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise MalformedProof(f"cards[].card {text!r} is not a card like 'Ah'")
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])
