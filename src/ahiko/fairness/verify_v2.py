"""The checks of a ``pokerfair-proof/2`` file (docs/fairness.md): the ``pokerfair/1``
checks 1–4 with each opening at the leaf the mix maps its position to, and checks 6–10 on the
players' part: the contributor set, the reveals, the mix and transcript, the receipts, and
whether this browser's own secret shaped the deal.

The verdict reads "consistent with the commitment and shaped by the players' secrets" only
when at least one secret was revealed; never "fair" or "provably fair"."""

from __future__ import annotations

from ahiko.fairness.commitment import signature_is_valid
from ahiko.fairness.contribution import (
    MixEntry,
    check_seat_order,
    contributors_digest,
    fallback_value,
    mix_digest,
    receipt_digest,
    seat_commitment,
    transcript_digest,
)
from ahiko.fairness.merkle import hand_context
from ahiko.fairness.permutation import deal_permutation
from ahiko.fairness.proof_reader import MalformedProof
from ahiko.fairness.proof_reader_v2 import ProofFileV2, is_v2, read_proof_v2
from ahiko.fairness.verify import (
    FAIL,
    INCONSISTENT,
    NOT_CHECKED,
    PASS,
    SKIPPED,
    CheckOutcome,
    VerificationResult,
    check_commitment,
    check_distinct,
    check_shape,
    describe_card,
    describe_observation,
    malformed_result,
    opening_problem,
    verify_text,
)
from ahiko.poker.cards import DECK_SIZE

CONSISTENT = "consistent"
SHAPED_EN = "consistent with the commitment and shaped by the players' secrets"
SHAPED_PT = "consistente com o compromisso e moldado pelos segredos dos jogadores"
UNSHAPED_EN = "consistent with the commitment — no player's secret was revealed, not an audit"
UNSHAPED_PT = "consistente com o compromisso — nenhum segredo de jogador foi revelado"
CONTRIBUTED_PT = "seu navegador contribuiu para este embaralhamento"
CONTRIBUTED_EN = "your browser contributed to this shuffle"


def verify_any_text(
    raw: str | bytes, *, expect_digest: bytes | None = None, public_key: bytes | None = None
) -> VerificationResult:
    """Either version, by the file's own ``format``."""
    if is_v2(raw):
        return verify_v2_text(raw, expect_digest=expect_digest, public_key=public_key)
    return verify_text(raw, expect_digest=expect_digest, public_key=public_key)


def verify_v2_text(
    raw: str | bytes, *, expect_digest: bytes | None = None, public_key: bytes | None = None
) -> VerificationResult:
    try:
        proof = read_proof_v2(raw)
    except MalformedProof as exc:
        return malformed_result(str(exc))
    return verify_proof_v2(proof, expect_digest=expect_digest, public_key=public_key)


def verify_proof_v2(
    proof: ProofFileV2, *, expect_digest: bytes | None = None, public_key: bytes | None = None
) -> VerificationResult:
    c = proof.base.commitment
    shape_ok, shape = check_shape(proof.base)
    if shape_ok and proof.contributors.hand_no != c.hand_no:
        shape_ok, shape = (
            False,
            CheckOutcome(
                "format",
                1,
                FAIL,
                f"the contributors are for hand {proof.contributors.hand_no}, not {c.hand_no}",
            ),
        )
    digest, digest_checks = check_commitment(proof.base, expect_digest, public_key)
    checks = [shape, *digest_checks]
    contributors_ok, contributors, who = _check_contributors(proof, public_key)
    checks.append(contributors)
    mix = b""
    if contributors_ok:
        entries, reveals = _check_reveals(proof)
        mix = mix_digest(digest, who, entries)
        checks += [
            reveals,
            _check_transcript(proof, digest, who, mix, public_key),
            _check_receipts(proof, digest, who, public_key),
            _check_own(proof),
        ]
    else:
        checks += [
            CheckOutcome(name, number, SKIPPED, "the contributor set failed check 6")
            for name, number in (("reveals", 7), ("mix", 8), ("receipts", 9), ("own", 10))
        ]
    if shape_ok and mix:
        checks += [_check_openings(proof, mix), check_distinct(proof.base.cards)]
    else:
        why = "the deal's shape or the contributor set failed"
        checks += [
            CheckOutcome("openings", 3, SKIPPED, why),
            CheckOutcome("distinct", 4, SKIPPED, why),
        ]
    verdict = INCONSISTENT if any(ch.status == FAIL for ch in checks) else CONSISTENT
    shaped = any(r.revealed for r in proof.reveals)
    return VerificationResult(
        verdict=verdict,
        checks=tuple(checks),
        observation=describe_observation(proof.base),
        cards=tuple(
            f"{describe_card(card)} (leaf {leaf})"
            for card, leaf in zip(proof.base.cards, proof.leaves, strict=True)
        ),
        caveat=f"{SHAPED_EN} ({SHAPED_PT})" if shaped else f"{UNSHAPED_EN} ({UNSHAPED_PT})",
    )


def _check_contributors(
    proof: ProofFileV2, public_key: bytes | None
) -> tuple[bool, CheckOutcome, bytes]:
    c, who = proof.base.commitment, proof.contributors
    try:
        recomputed = contributors_digest(c.table_id, who.hand_no, who.recorded_in_hand, who.entries)
    except ValueError as exc:
        return False, CheckOutcome("contributors", 6, FAIL, str(exc)), b""
    problems = []
    if recomputed != who.digest:
        problems.append(
            f"recomputed contributors digest {recomputed.hex()} differs from the file's"
        )
    signature = "signature not checked"
    if public_key is not None:
        if who.sig is None or not signature_is_valid(public_key, recomputed, who.sig):
            problems.append("the contributor set's signature is missing or does not match")
        else:
            signature = "signature valid"
    seats = [seat for seat, _ in who.entries]
    detail = f"{len(seats)} contributor(s) at seats {seats}, fixed in hand {who.recorded_in_hand}"
    if problems:
        return True, CheckOutcome("contributors", 6, FAIL, "; ".join(problems)), recomputed
    return True, CheckOutcome("contributors", 6, PASS, f"{detail}; {signature}"), recomputed


def _check_reveals(proof: ProofFileV2) -> tuple[list[MixEntry], CheckOutcome]:
    c, who = proof.base.commitment, proof.contributors
    entries = [MixEntry(r.seat, r.revealed, r.value) for r in proof.reveals]
    seats = [r.seat for r in proof.reveals]
    expected = [seat for seat, _ in who.entries]
    problems = []
    if seats != expected:
        problems.append(f"the reveals are for seats {seats}, the contributors are {expected}")
        try:
            check_seat_order(seats)
        except ValueError as exc:
            problems.append(f"the reveals are not in seat order: {exc}")
            entries = []  # a reordered set has no mix of its own
    commitments = dict(who.entries)
    for r in proof.reveals:
        committed = commitments.get(r.seat)
        if committed is None:
            continue
        if r.revealed and seat_commitment(c.table_id, c.hand_no, r.seat, r.value) != committed:
            problems.append(f"seat {r.seat}'s secret does not open its commitment")
        if not r.revealed and r.value != fallback_value(committed):
            problems.append(f"seat {r.seat}'s fallback is not the one its commitment fixes")
    if problems:
        return entries, CheckOutcome("reveals", 7, FAIL, "; ".join(problems))
    revealed = [r.seat for r in proof.reveals if r.revealed]
    fallback = [r.seat for r in proof.reveals if not r.revealed]
    detail = f"secrets revealed by seats {revealed}, public fallback for seats {fallback}"
    return entries, CheckOutcome("reveals", 7, PASS, detail)


def _check_transcript(
    proof: ProofFileV2, digest: bytes, who: bytes, mix: bytes, public_key: bytes | None
) -> CheckOutcome:
    problems = []
    if mix != proof.mix:
        problems.append(f"recomputed mix {mix.hex()} differs from the file's {proof.mix.hex()}")
    transcript = transcript_digest(digest, who, mix)
    if transcript != proof.transcript_digest:
        problems.append("the transcript digest does not bind this commitment, set and mix")
    signature = "signature not checked"
    if public_key is not None:
        sig = proof.transcript_sig
        if sig is None or not signature_is_valid(public_key, transcript, sig):
            problems.append("the transcript's signature is missing or does not match")
        else:
            signature = "signature valid"
    if problems:
        return CheckOutcome("mix", 8, FAIL, "; ".join(problems))
    return CheckOutcome("mix", 8, PASS, f"mix and transcript recomputed; {signature}")


def _check_receipts(
    proof: ProofFileV2, digest: bytes, who: bytes, public_key: bytes | None
) -> CheckOutcome:
    if not proof.receipts:
        return CheckOutcome("receipts", 9, NOT_CHECKED, "the file holds no receipt")
    commitments = dict(proof.contributors.entries)
    revealed = {r.seat for r in proof.reveals if r.revealed}
    problems = []
    for seat, sig in proof.receipts:
        committed = commitments.get(seat)
        if committed is None:
            problems.append(f"a receipt for seat {seat}, which is not a contributor")
            continue
        if public_key is not None and not signature_is_valid(
            public_key, receipt_digest(digest, who, seat, committed), sig
        ):
            problems.append(
                f"seat {seat}'s receipt does not match this commitment and set (tampered, or "
                "the deck was committed again after the reveal)"
            )
        if seat not in revealed:
            problems.append(f"seat {seat}'s reveal was received but replaced by the fallback")
    if problems:
        return CheckOutcome("receipts", 9, FAIL, "; ".join(problems))
    if public_key is None:
        return CheckOutcome(
            "receipts", 9, NOT_CHECKED, "receipt signatures not checked: no public key given"
        )
    seats = [seat for seat, _ in proof.receipts]
    return CheckOutcome("receipts", 9, PASS, f"receipts valid and honoured for seats {seats}")


def _check_own(proof: ProofFileV2) -> CheckOutcome:
    if proof.own is None:
        return CheckOutcome("own", 10, NOT_CHECKED, "this file holds no secret of its own")
    c = proof.base.commitment
    seat, secret = proof.own
    committed = dict(proof.contributors.entries).get(seat)
    if committed is None:
        return CheckOutcome(
            "own", 10, NOT_CHECKED, f"seat {seat}'s browser is not among the contributors"
        )
    if seat_commitment(c.table_id, c.hand_no, seat, secret) != committed:
        return CheckOutcome(
            "own", 10, FAIL, f"the set holds another commitment for seat {seat} than this browser's"
        )
    reveal = next((r for r in proof.reveals if r.seat == seat), None)
    if reveal is None or not reveal.revealed:
        return CheckOutcome(
            "own", 10, NOT_CHECKED, "this browser's secret was not revealed in time: fallback used"
        )
    if reveal.value != secret:
        return CheckOutcome("own", 10, FAIL, "the set holds another secret for this browser")
    return CheckOutcome("own", 10, PASS, f"{CONTRIBUTED_EN} ({CONTRIBUTED_PT})")


def _check_openings(proof: ProofFileV2, mix: bytes) -> CheckOutcome:
    c = proof.base.commitment
    ctx = hand_context(c.table_id, c.hand_no)
    pi = deal_permutation(mix, DECK_SIZE)
    problems = []
    for index, (card, leaf) in enumerate(zip(proof.base.cards, proof.leaves, strict=True)):
        problem = opening_problem(proof.base, ctx, card, pi, leaf)
        if problem:
            problems.append(f"card {index} ({describe_card(card)}): {problem}")
    if problems:
        return CheckOutcome("openings", 3, FAIL, "; ".join(problems))
    count = len(proof.base.cards)
    return CheckOutcome(
        "openings", 3, PASS, f"{count} card(s) open to the root at the leaves the mix gives"
    )
