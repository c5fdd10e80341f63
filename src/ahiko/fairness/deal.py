"""One hand's committed deal: salts, tree and commitment, and the openings for each card."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.fairness.commitment import GENESIS_PREV, Commitment
from ahiko.fairness.merkle import auth_path, build_levels, deck_leaves, hand_context
from ahiko.fairness.opening import Opening
from ahiko.fairness.positions import (
    ROLE_BOARD,
    ROLE_DRAW,
    ROLE_HOLE,
    check_deal_shape,
    expected_position,
    layout_game,
)
from ahiko.fairness.shuffle import TokenBytes, fresh_salts
from ahiko.poker.cards import Card, validate_deck


class DealCommitter:
    """Commits to a shuffled deck for one hand and opens its positions on request.

    ``salts`` may be given (test vectors); otherwise 52 fresh ones are drawn. The draw order
    is recorded as it happens with :meth:`record_draw`, which fixes the replacement
    positions (from ``5n`` on, in the public order of the draw)."""

    def __init__(
        self,
        *,
        table_id: str,
        hand_no: int,
        layout: str,
        button_seat: int,
        dealt_seats: Sequence[int],
        deck: Sequence[Card],
        committed_at_ms: int,
        prev: bytes = GENESIS_PREV,
        signing_key: Ed25519PrivateKey | None = None,
        salts: Sequence[bytes] | None = None,
        token_bytes: TokenBytes = secrets.token_bytes,
    ) -> None:
        check_deal_shape(layout, dealt_seats)
        self.deck = validate_deck(deck)
        self.salts = tuple(salts) if salts is not None else fresh_salts(len(self.deck), token_bytes)
        self.ctx = hand_context(table_id, hand_no)
        self.levels = build_levels(deck_leaves(self.ctx, self.deck, self.salts))
        self.commitment = Commitment.create(
            table_id=table_id,
            hand_no=hand_no,
            layout=layout,
            button_seat=button_seat,
            dealt_seats=dealt_seats,
            root=self.levels[-1][0],
            committed_at_ms=committed_at_ms,
            prev=prev,
            signing_key=signing_key,
        )
        self._draws: list[tuple[int, int]] = []

    @property
    def layout(self) -> str:
        return self.commitment.layout

    @property
    def dealt_seats(self) -> tuple[int, ...]:
        return self.commitment.dealt_seats

    @property
    def draws(self) -> tuple[tuple[int, int], ...]:
        """The public order of the draw so far, ``(seat, count)`` pairs (``public.draws``)."""
        return tuple(self._draws)

    @property
    def hole_card_count(self) -> int:
        return layout_game(self.layout)[0].hole_cards

    def record_draw(self, seat: int, count: int) -> tuple[int, ...]:
        """Append ``seat``'s draw of ``count`` cards to the public order; its positions."""
        draws = [*self._draws, (seat, count)]
        check_deal_shape(self.layout, self.dealt_seats, draws)
        self._draws = draws
        return tuple(self.position(ROLE_DRAW, seat, k) for k in range(count))

    def position(self, role: str, seat: int | None, k: int) -> int:
        return expected_position(self.layout, self.dealt_seats, role, seat, k, self._draws)

    def card_at(self, position: int) -> Card:
        return self.deck[position]

    def opening(self, role: str, seat: int | None, k: int) -> Opening:
        position = self.position(role, seat, k)
        return Opening(
            role=role,
            seat=seat,
            k=k,
            position=position,
            card=self.deck[position],
            salt=self.salts[position],
            path=tuple(auth_path(self.levels, position)),
        )

    def hole_opening(self, seat: int, k: int) -> Opening:
        return self.opening(ROLE_HOLE, seat, k)

    def board_opening(self, b: int) -> Opening:
        return self.opening(ROLE_BOARD, None, b)

    def hole_positions(self, seat: int) -> tuple[int, ...]:
        return tuple(self.position(ROLE_HOLE, seat, k) for k in range(self.hole_card_count))

    def draw_count(self, seat: int) -> int:
        return next((count for s, count in self._draws if s == seat), 0)
