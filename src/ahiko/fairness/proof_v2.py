"""The ``pokerfair-proof/2`` file (docs/fairness.md): the ``pokerfair/1`` commitment, the
signed contributor set, the reveals, the mix, the signed transcript, the receipts the
downloading browser holds, its own secret, and the openings it may see."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ahiko.fairness.mixed_deal import MixedDeal, MixedOpening
from ahiko.fairness.proof import ClientObservation
from ahiko.fairness.release import DealState, Viewer, released_role, visible_slots
from ahiko.poker.layout import DRAW_LAYOUT

PROOF_FORMAT_V2 = "pokerfair-proof/2"


def release_mixed_openings(
    mixed: MixedDeal, viewer: Viewer, state: DealState
) -> list[MixedOpening]:
    """Every opening ``viewer`` may hold now, in deal order (the same release policy as
    ``pokerfair/1``: the permutation only relabels which leaf a position opens)."""
    return [
        mixed.opening(released_role(viewer, slot), slot.seat, slot.k)
        for slot in sorted(visible_slots(viewer, state), key=lambda s: s.position)
    ]


def proof_document_v2(
    mixed: MixedDeal,
    openings: Iterable[MixedOpening],
    *,
    own: tuple[int, bytes] | None = None,
    receipts: Iterable[tuple[int, bytes]] = (),
    observation: ClientObservation | None = None,
    table_label: str | None = None,
) -> dict[str, Any]:
    """The proof as a JSON-able dict. ``own`` is the downloading browser's (seat, secret);
    ``receipts`` the (seat, signature) receipts it received; ``table_label`` names the
    physical table when one commitment drives several (a duplicate deal)."""
    transcript = mixed.close()
    document: dict[str, Any] = {
        "format": PROOF_FORMAT_V2,
        "commitment": mixed.deal.commitment.to_json(),
        "contributors": mixed.contributors.to_json(),
        "reveals": transcript.reveals_json(),
        "mix": transcript.mix.hex(),
        "transcript": {"digest": transcript.digest.hex()},
        "receipts": [[seat, sig.hex()] for seat, sig in receipts],
    }
    if transcript.sig is not None:
        document["transcript"]["sig"] = transcript.sig.hex()
    if own is not None:
        document["own"] = {"seat": own[0], "secret": own[1].hex()}
    if observation is not None:
        document["client_observation"] = observation.to_json()
    public: dict[str, Any] = {}
    if mixed.deal.layout == DRAW_LAYOUT:
        public["draws"] = [[seat, count] for seat, count in mixed.deal.draws]
    if table_label is not None:
        public["table"] = table_label
    if public:
        document["public"] = public
    document["cards"] = [opening.to_json() for opening in openings]
    return document
