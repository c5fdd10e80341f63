"""The downloadable proof file (``pokerfair-proof/1``), exactly in the shape of FAIRNESS.md."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ahiko.fairness.commitment import Commitment
from ahiko.fairness.opening import Opening
from ahiko.fairness.positions import layout_game

PROOF_FORMAT = "pokerfair-proof/1"


@dataclass(frozen=True)
class ClientObservation:
    """What the browser itself saw (R-FD-04): times in ms since the epoch, by its clock."""

    commitment_before_cards: bool
    commitment_received_at: int | None
    first_card_at: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "commitment_before_cards": self.commitment_before_cards,
            "commitment_received_at": self.commitment_received_at,
            "first_card_at": self.first_card_at,
        }


def proof_document(
    commitment: Commitment,
    openings: Iterable[Opening],
    *,
    observation: ClientObservation | None = None,
    draws: Sequence[tuple[int, int]] = (),
) -> dict[str, Any]:
    """The proof as a JSON-able dict: format, commitment, client_observation, public, cards.
    ``public.draws`` is written for draw hands; ``client_observation`` when one is known."""
    document: dict[str, Any] = {"format": PROOF_FORMAT, "commitment": commitment.to_json()}
    if observation is not None:
        document["client_observation"] = observation.to_json()
    if layout_game(commitment.layout)[0].has_draw:
        document["public"] = {"draws": [[seat, count] for seat, count in draws]}
    document["cards"] = [opening.to_json() for opening in openings]
    return document


def dumps_proof(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def write_proof(path: str | os.PathLike[str], document: dict[str, Any]) -> Path:
    target = Path(path)
    target.write_text(dumps_proof(document), encoding="utf-8")
    return target
