"""Checks 1–5 of FAIRNESS.md on a proof file.

The verdict says "consistent with the commitment", never "fair" (check 5): the checks prove
that the cards shown match what was committed before the deal, not how the deck was chosen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ahiko.fairness.commitment import commitment_digest, signature_is_valid
from ahiko.fairness.merkle import (
    HASH_SIZE,
    SALT_SIZE,
    TREE_DEPTH,
    fold_path,
    hand_context,
    leaf_hash,
)
from ahiko.fairness.positions import ROLES, LayoutError, check_deal_shape, expected_position
from ahiko.fairness.proof_reader import MalformedProof, ProofCard, ProofFile, read_proof
from ahiko.poker.cards import DECK_SIZE, format_card

PASS = "pass"
FAIL = "fail"
NOT_CHECKED = "not_checked"
SKIPPED = "skipped"
MALFORMED = "malformed"

CONSISTENT = "consistent"
INCONSISTENT = "inconsistent"

CHECK_NAMES = ("format", "digest", "expected_digest", "signature", "openings", "distinct")

CAVEAT_EN = "consistent with the commitment — not an audit of the shuffle"
CAVEAT_PT = "consistente com o compromisso — não é uma auditoria do embaralhamento"

EXIT_CONSISTENT = 0
EXIT_INCONSISTENT = 1
EXIT_MALFORMED = 2


@dataclass(frozen=True)
class CheckOutcome:
    name: str
    number: int
    status: str
    detail: str


@dataclass(frozen=True)
class VerificationResult:
    verdict: str
    checks: tuple[CheckOutcome, ...]
    observation: str = ""
    cards: tuple[str, ...] = field(default=())
    caveat: str = f"{CAVEAT_EN} ({CAVEAT_PT})"  # what a consistent verdict does and does not say

    @property
    def ok(self) -> bool:
        return self.verdict == CONSISTENT

    @property
    def malformed(self) -> bool:
        return self.verdict == MALFORMED

    @property
    def exit_code(self) -> int:
        return {CONSISTENT: EXIT_CONSISTENT, MALFORMED: EXIT_MALFORMED}.get(
            self.verdict, EXIT_INCONSISTENT
        )

    @property
    def summary(self) -> str:
        if self.ok:
            return self.caveat
        if self.malformed:
            return "malformed proof file — nothing was verified"
        return "INCONSISTENT with the commitment"


def verify_text(
    raw: str | bytes, *, expect_digest: bytes | None = None, public_key: bytes | None = None
) -> VerificationResult:
    try:
        proof = read_proof(raw)
    except MalformedProof as exc:
        return malformed_result(str(exc))
    return verify_proof(proof, expect_digest=expect_digest, public_key=public_key)


def verify_proof(
    proof: ProofFile, *, expect_digest: bytes | None = None, public_key: bytes | None = None
) -> VerificationResult:
    shape_ok, shape = check_shape(proof)
    _, digest_checks = check_commitment(proof, expect_digest, public_key)
    checks = [shape, *digest_checks]
    if shape_ok:
        checks += [_check_openings(proof), check_distinct(proof.cards)]
    else:
        reason = "the deal's shape failed check 1"
        checks += [
            CheckOutcome("openings", 3, SKIPPED, reason),
            CheckOutcome("distinct", 4, SKIPPED, reason),
        ]
    verdict = INCONSISTENT if any(ch.status == FAIL for ch in checks) else CONSISTENT
    return VerificationResult(
        verdict=verdict,
        checks=tuple(checks),
        observation=describe_observation(proof),
        cards=tuple(describe_card(card) for card in proof.cards),
    )


def check_commitment(
    proof: ProofFile, expect_digest: bytes | None, public_key: bytes | None
) -> tuple[bytes, list[CheckOutcome]]:
    """Check 2: the recomputed digest, against the file's, the one recorded at receipt and
    the server's signature."""
    c = proof.commitment
    recomputed = commitment_digest(
        table_id=c.table_id,
        hand_no=c.hand_no,
        deck_size=c.deck_size,
        layout=c.layout,
        button_seat=c.button_seat,
        dealt_seats=c.dealt_seats,
        root=c.root,
        committed_at_ms=c.committed_at_ms,
        prev=c.prev,
    )
    return recomputed, [
        outcome(
            "digest",
            2,
            recomputed == c.digest,
            "recomputed digest equals the file's digest",
            f"recomputed digest {recomputed.hex()} differs from the file's {c.digest.hex()}",
        ),
        check_expected_digest(recomputed, expect_digest),
        check_signature(recomputed, c.sig, public_key),
    ]


def malformed_result(detail: str) -> VerificationResult:
    checks = [CheckOutcome("format", 1, MALFORMED, detail)]
    checks += [
        CheckOutcome(name, n, SKIPPED, "the file could not be read")
        for name, n in zip(CHECK_NAMES[1:], (2, 2, 2, 3, 4), strict=True)
    ]
    return VerificationResult(verdict=MALFORMED, checks=tuple(checks))


def outcome(name: str, number: int, ok: bool, good: str, bad: str) -> CheckOutcome:
    return CheckOutcome(name, number, PASS if ok else FAIL, good if ok else bad)


def check_shape(proof: ProofFile) -> tuple[bool, CheckOutcome]:
    c = proof.commitment
    try:
        if c.deck_size != DECK_SIZE:
            raise LayoutError(f"deck_size is {c.deck_size}, not {DECK_SIZE}")
        check_deal_shape(c.layout, c.dealt_seats, proof.draws)
    except LayoutError as exc:
        return False, CheckOutcome("format", 1, FAIL, str(exc))
    detail = f"pokerfair/1, {c.layout}, {len(c.dealt_seats)} seats {list(c.dealt_seats)}"
    return True, CheckOutcome("format", 1, PASS, detail)


def check_expected_digest(recomputed: bytes, expected: bytes | None) -> CheckOutcome:
    if expected is None:
        return CheckOutcome(
            "expected_digest", 2, NOT_CHECKED, "no digest recorded at receipt was given"
        )
    return outcome(
        "expected_digest",
        2,
        recomputed == expected,
        "digest equals the one recorded when the commitment arrived",
        f"digest differs from the one recorded at receipt ({expected.hex()})",
    )


def check_signature(digest: bytes, sig: bytes | None, public_key: bytes | None) -> CheckOutcome:
    if public_key is None:
        why = "the file carries no signature" if sig is None else "no public key was given"
        return CheckOutcome("signature", 2, NOT_CHECKED, f"signature not checked: {why}")
    if sig is None:
        return CheckOutcome(
            "signature", 2, FAIL, "a public key was given but the file has no signature"
        )
    return outcome(
        "signature",
        2,
        signature_is_valid(public_key, digest, sig),
        "Ed25519 signature of the digest is valid for the given key",
        "Ed25519 signature does not match the digest and key",
    )


def _check_openings(proof: ProofFile) -> CheckOutcome:
    c = proof.commitment
    ctx = hand_context(c.table_id, c.hand_no)
    problems = []
    for index, card in enumerate(proof.cards):
        problem = opening_problem(proof, ctx, card)
        if problem:
            problems.append(f"card {index} ({describe_card(card)}): {problem}")
    if problems:
        return CheckOutcome("openings", 3, FAIL, "; ".join(problems))
    return CheckOutcome(
        "openings",
        3,
        PASS,
        f"{len(proof.cards)} card(s) open to the root at their layout positions",
    )


def opening_problem(
    proof: ProofFile,
    ctx: bytes,
    card: ProofCard,
    permutation: Sequence[int] | None = None,
    claimed_leaf: int | None = None,
) -> str:
    """What is wrong with one opening ("" when nothing). Under ``pokerfair/2`` the
    ``permutation`` maps the deal position to the committed leaf the card must open."""
    c = proof.commitment
    if card.role not in ROLES:
        return f"unknown role {card.role!r}"
    try:
        position = expected_position(
            c.layout, c.dealt_seats, card.role, card.seat, card.k, proof.draws
        )
    except LayoutError as exc:
        return str(exc)
    if card.position != position:
        return f"position {card.position}, but the layout puts it at {position}"
    leaf = position
    if permutation is not None:
        leaf = permutation[position]
        if claimed_leaf != leaf:
            return f"opens leaf {claimed_leaf}, but the mix maps position {position} to leaf {leaf}"
    if len(card.salt) != SALT_SIZE:
        return f"salt is {len(card.salt)} bytes, not {SALT_SIZE}"
    if len(card.path) != TREE_DEPTH:
        return f"path has {len(card.path)} siblings, not {TREE_DEPTH}"
    if any(len(h) != HASH_SIZE for h in card.path):
        return f"a path sibling is not {HASH_SIZE} bytes"
    if fold_path(leaf_hash(ctx, leaf, card.card, card.salt), leaf, card.path) != c.root:
        return "does not fold to the committed root"
    return ""


def check_distinct(cards: tuple[ProofCard, ...]) -> CheckOutcome:
    card_at: dict[int, int] = {}
    position_of: dict[int, int] = {}
    problems = []
    for card in cards:
        if card_at.setdefault(card.position, card.card) != card.card:
            problems.append(f"position {card.position} opens to two cards")
        if position_of.setdefault(card.card, card.position) != card.position:
            problems.append(f"{format_card(card.card)} opens at two positions")
    if problems:
        return CheckOutcome("distinct", 4, FAIL, "; ".join(problems))
    return CheckOutcome("distinct", 4, PASS, "no position or card is opened twice")


def describe_card(card: ProofCard) -> str:
    owner = "" if card.seat is None else f" seat {card.seat}"
    return f"{card.role}{owner} k={card.k} @{card.position} {format_card(card.card)}"


def describe_observation(proof: ProofFile) -> str:
    o = proof.observation
    if o is None:
        return "no client observation recorded"
    if o.commitment_before_cards:
        return "this browser received the commitment before the first card"
    return "this browser joined with the hand already under way (commitment not seen first)"
