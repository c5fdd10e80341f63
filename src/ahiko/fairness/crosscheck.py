"""Checking several ``pokerfair-proof/2`` files together (check 11, docs/fairness.md).

Files of the same table and hand must carry one commitment, one contributor set and one
transcript: a server that shows one seat a transcript and another seat a second one is
caught as soon as the two files meet (shared-hand badges, a player comparing with a friend).
A receipt in any file binds every file: a seat whose reveal was receipted cannot appear as a
fallback anywhere. The same check shows a duplicate deal: several tables (``public.table``)
driven by one commitment and one mix got the same card at every deal position."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ahiko.fairness.commitment import signature_is_valid
from ahiko.fairness.contribution import receipt_digest
from ahiko.fairness.proof_reader_v2 import ProofFileV2
from ahiko.fairness.verify import FAIL, NOT_CHECKED, PASS, CheckOutcome
from ahiko.poker.cards import format_card


@dataclass(frozen=True)
class NamedProof:
    name: str
    proof: ProofFileV2


def cross_check(proofs: Sequence[NamedProof], public_key: bytes | None = None) -> CheckOutcome:
    if len(proofs) < 2:
        return CheckOutcome("together", 11, NOT_CHECKED, "one file: nothing to compare it with")
    hands: dict[tuple[str, int], list[NamedProof]] = defaultdict(list)
    for named in proofs:
        c = named.proof.base.commitment
        hands[(c.table_id, c.hand_no)].append(named)
    problems: list[str] = []
    notes: list[str] = []
    for (table_id, hand_no), group in sorted(hands.items()):
        where = f"{table_id} hand {hand_no}"
        problems += [f"{where}: {p}" for p in _transcript_problems(group)]
        problems += [f"{where}: {p}" for p in _receipt_problems(group, public_key)]
        problems += [f"{where}: {p}" for p in _card_problems(group)]
        notes.append(_describe_group(where, group))
    if problems:
        return CheckOutcome("together", 11, FAIL, "; ".join(problems))
    return CheckOutcome("together", 11, PASS, "; ".join(notes))


def _transcript_problems(group: Sequence[NamedProof]) -> list[str]:
    first = group[0]
    problems = []
    for other in group[1:]:
        a, b = first.proof, other.proof
        if a.base.commitment.digest != b.base.commitment.digest:
            problems.append(f"{first.name} and {other.name} hold different commitments")
        elif a.contributors.digest != b.contributors.digest:
            problems.append(f"{first.name} and {other.name} hold different contributor sets")
        elif (a.mix, a.transcript_digest) != (b.mix, b.transcript_digest):
            problems.append(
                f"{first.name} and {other.name} hold two different transcripts of one hand"
            )
    return problems


def _receipt_problems(group: Sequence[NamedProof], public_key: bytes | None) -> list[str]:
    problems = []
    for holder in group:
        for seat, sig in holder.proof.receipts:
            for named in group:
                proof = named.proof
                committed = dict(proof.contributors.entries).get(seat)
                fallback = any(r.seat == seat and not r.revealed for r in proof.reveals)
                if committed is None or not fallback:
                    continue
                signed = public_key is None or signature_is_valid(
                    public_key,
                    receipt_digest(
                        proof.base.commitment.digest, proof.contributors.digest, seat, committed
                    ),
                    sig,
                )
                if signed:
                    problems.append(
                        f"{named.name} replaces seat {seat}'s reveal by the fallback, "
                        f"but {holder.name} holds its receipt"
                    )
    return problems


def _card_problems(group: Sequence[NamedProof]) -> list[str]:
    seen: dict[int, tuple[int, str]] = {}
    problems = []
    for named in group:
        for card in named.proof.base.cards:
            earlier = seen.setdefault(card.position, (card.card, named.name))
            if earlier[0] != card.card:
                problems.append(
                    f"position {card.position} is {format_card(earlier[0])} in {earlier[1]} "
                    f"but {format_card(card.card)} in {named.name}"
                )
    return problems


def _describe_group(where: str, group: Sequence[NamedProof]) -> str:
    tables = sorted({n.proof.table_label for n in group if n.proof.table_label is not None})
    positions = sorted({card.position for n in group for card in n.proof.base.cards})
    text = f"{where}: {len(group)} file(s) share one commitment and one transcript"
    if len(tables) > 1:
        text += (
            f"; one commitment and one mix drove tables {tables}: each got the same card at "
            f"every deal position (the {len(positions)} positions opened here agree)"
        )
    return text
