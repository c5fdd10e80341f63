"""The players' part of the fair deal at one table (``pokerfair/2``, docs/fairness.md).

A seated person's browser sends, during a hand (or after sitting down), the commitment to a
secret for the next hand; when that hand begins, the commitments of the people dealt in
become its signed contributor set, published with the deck's commitment. During the two
seconds before the cards (R-FD-02) the browsers reveal their secrets and get signed
receipts; at the deal the missing ones are replaced by their public fallbacks, the mix is
fixed and broadcast (``fair_mix``), and the cards go out in the order it gives.

Server-run bots contribute nothing. Withholds are counted per account, for operators."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ahiko.fairness.contribution import SECRET_SIZE
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.merkle import HASH_SIZE
from ahiko.fairness.mixed_deal import ContributorSet, MixedDeal, RevealRejected
from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refusal
from ahiko.rooms.frame_types import FairMix
from ahiko.rooms.hand_phase import REVEALS_CLOSED, require_phase

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ahiko.rooms.seats import Seats
    from ahiko.rooms.table_hand import TableHand


class NextHand(Protocol):
    """The dealer, as the players' secrets name the hand they are for."""

    @property
    def hand(self) -> TableHand | None: ...
    @property
    def next_hand_no(self) -> int: ...


class SecretsTable(Protocol):
    @property
    def room_id(self) -> str: ...
    @property
    def signing_key(self) -> Ed25519PrivateKey | None: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def dealer(self) -> NextHand: ...


RULE = "R-FD-02"


class SeatSecrets:
    def __init__(self, room: SecretsTable) -> None:
        self._room = room
        # hand number -> seat -> (player id, commitment) received for that hand
        self._pending: dict[int, dict[int, tuple[str, bytes]]] = {}
        self.withholds: Counter[str] = Counter()  # player id -> secrets not revealed in time

    def commit(self, player_id: str, hand_no: int, commitment: bytes) -> int:
        """Keep a seated person's commitment for hand ``hand_no`` (the next one to begin);
        the seat it is bound to."""
        room = self._room
        seat = room.seats.seat_of(player_id)
        occupant = None if seat is None else room.seats.get(seat)
        if seat is None or occupant is None or occupant.is_bot:
            raise Refusal("fair_not_seated", "only a seated player can commit a secret", RULE)
        expected = room.dealer.next_hand_no
        if hand_no != expected:
            raise Refusal(
                "fair_wrong_hand",
                f"a secret can be committed for hand {expected} only, not hand {hand_no}",
                RULE,
            )
        if len(commitment) != HASH_SIZE:
            raise Refusal("fair_bad_commitment", f"a commitment is {HASH_SIZE} bytes", RULE)
        self._pending.setdefault(hand_no, {})[seat] = (player_id, commitment)
        return seat

    def mixed_deal(self, committer: DealCommitter, dealt: Sequence[int]) -> MixedDeal | None:
        """The hand's contributor set (the people dealt in who committed, still in their
        seat) and its mixed deal; None when nobody contributes (a ``pokerfair/1`` hand)."""
        room = self._room
        hand_no = committer.commitment.hand_no
        received = self._pending.pop(hand_no, {})
        for older in [n for n in self._pending if n < hand_no]:
            del self._pending[older]  # for a hand cancelled before its number came
        commitments = {}
        for seat, (player_id, commitment) in received.items():
            occupant = room.seats.get(seat)
            if seat in dealt and occupant is not None and occupant.player_id == player_id:
                commitments[seat] = commitment
        if not commitments:
            return None
        contributors = ContributorSet.create(
            table_id=room.room_id,
            hand_no=hand_no,
            recorded_in_hand=hand_no - 1,
            commitments=commitments,
            signing_key=room.signing_key,
        )
        return MixedDeal(committer, contributors, room.signing_key)

    def reveal(self, player_id: str, hand_no: int, secret: bytes) -> dict[str, Any]:
        """Take a contributor's secret while the commitment is shown; the signed receipt."""
        hand = require_phase(self._room.dealer.hand, c.FairReveal, hand_no=hand_no)
        if hand.hand_no != hand_no:
            raise REVEALS_CLOSED.refusal(hand_no=hand_no)
        mixed = hand.mixed
        seat = hand.seat_of(player_id)
        if mixed is None or seat is None:
            raise Refusal("fair_not_contributor", "you committed no secret for this hand", RULE)
        if len(secret) != SECRET_SIZE:
            raise Refusal("fair_bad_secret", f"a secret is {SECRET_SIZE} bytes", RULE)
        try:
            receipt = mixed.receive_reveal(seat, secret)
        except RevealRejected as exc:
            raise Refusal("fair_reveal_refused", str(exc), RULE) from None
        return {"seat": seat, "receipt": None if receipt is None else receipt.hex()}

    def close(self, hand_no: int, mixed: MixedDeal, players: dict[int, str]) -> FairMix:
        """Close the reveals of hand ``hand_no`` at the deal: the ``fair_mix`` frame's body.
        A contributor who did not reveal in time is counted against its account."""
        transcript = mixed.close()
        for entry in transcript.entries:
            if not entry.revealed and entry.seat in players:
                self.withholds[players[entry.seat]] += 1
        signed = {"digest": transcript.digest.hex()}
        if transcript.sig is not None:
            signed["sig"] = transcript.sig.hex()
        return {
            "hand_no": hand_no,
            "reveals": transcript.reveals_json(),
            "mix": transcript.mix.hex(),
            "transcript": signed,
        }
