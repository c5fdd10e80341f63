"""``ahiko verify FILE...``: each file on its own (either version), then the
``pokerfair/2`` files together (check 11, :mod:`ahiko.fairness.crosscheck`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ahiko.fairness.crosscheck import NamedProof, cross_check
from ahiko.fairness.proof_reader import MalformedProof
from ahiko.fairness.proof_reader_v2 import is_v2, read_proof_v2
from ahiko.fairness.verify import (
    EXIT_INCONSISTENT,
    FAIL,
    CheckOutcome,
    VerificationResult,
)
from ahiko.fairness.verify_v2 import verify_any_text


@dataclass(frozen=True)
class FilesReport:
    results: tuple[tuple[str, VerificationResult], ...]
    together: CheckOutcome

    @property
    def exit_code(self) -> int:
        worst = max(result.exit_code for _, result in self.results)
        if self.together.status == FAIL:
            return max(worst, EXIT_INCONSISTENT)
        return worst


def verify_files(
    raws: Sequence[tuple[str, bytes]],
    *,
    expect_digest: bytes | None = None,
    public_key: bytes | None = None,
) -> FilesReport:
    results = tuple(
        (name, verify_any_text(raw, expect_digest=expect_digest, public_key=public_key))
        for name, raw in raws
    )
    readable = []
    for name, raw in raws:
        if not is_v2(raw):
            continue
        try:
            readable.append(NamedProof(name, read_proof_v2(raw)))
        except MalformedProof:
            continue  # already reported malformed on its own
    return FilesReport(results, cross_check(readable, public_key))
