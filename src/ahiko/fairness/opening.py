"""An opening (per-card proof): a card, its salt and the 6 sibling hashes to the root."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ahiko.fairness.merkle import fold_path, leaf_hash
from ahiko.poker.cards import Card, format_card


@dataclass(frozen=True)
class Opening:
    role: str
    seat: int | None
    k: int
    position: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]

    def root(self, ctx: bytes) -> bytes:
        """The root this opening folds to under the hand context ``ctx``."""
        return fold_path(
            leaf_hash(ctx, self.position, self.card, self.salt), self.position, self.path
        )

    def to_json(self) -> dict[str, Any]:
        """``{role, seat, k, position, card, salt, path}``; no ``seat`` for a board card."""
        data: dict[str, Any] = {"role": self.role}
        if self.seat is not None:
            data["seat"] = self.seat
        data.update(
            k=self.k,
            position=self.position,
            card=format_card(self.card),
            salt=self.salt.hex(),
            path=[h.hex() for h in self.path],
        )
        return data
