"""The ``pokerfair/2`` part of an archived hand: the signed contributor set, the reveals and
the signed transcript, so a download or a shared link opens each dealt card at the leaf the
players' secrets gave it (docs/fairness.md), and the engine replays the cards in the order
they were dealt."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.mixed_deal import ContributorSet, MixedDeal, RevealRejected
from ahiko.store.fair_counts import add_withholds
from ahiko.store.hand_archive import ArchivedHand

if TYPE_CHECKING:
    from ahiko.rooms.table_hand import TableHand

MIXED_KEY = "fair2"


def mixed_record(hand: TableHand) -> dict[str, Any] | None:
    """``{contributors, reveals, transcript_sig, permutation}`` of a hand whose reveals
    closed; None for a ``pokerfair/1`` hand."""
    mixed = hand.mixed
    if mixed is None or mixed.transcript is None:
        return None
    sig = mixed.transcript.sig
    return {
        "contributors": mixed.contributors.to_json(),
        "reveals": mixed.transcript.reveals_json(),
        "transcript_sig": None if sig is None else sig.hex(),
        "permutation": list(mixed.permutation),
    }


def count_withholds(conn: Connection, hand: ArchivedHand) -> None:
    """An archive hook (``install_archive_hook``): each person whose secret the hand's mix
    replaced by its public fallback is counted once more, in the transaction that archives
    the hand, so a hand is counted once whatever node played it."""
    mixed = hand.deal.get(MIXED_KEY)
    if mixed is None:
        return
    withheld = {int(seat) for seat, kind, _ in mixed["reveals"] if kind == "fallback"}
    users = [p.user_id for p in hand.players if p.seat in withheld and p.user_id is not None]
    if users:
        add_withholds(conn, users, hand.ended_at)


def dealt_order(record: Mapping[str, Any]) -> list[int]:
    """The archived deck in the order it was dealt (what the engine replays)."""
    deck = [int(c) for c in record["deck"]]
    mixed = record.get(MIXED_KEY)
    if mixed is None:
        return deck
    return [deck[int(leaf)] for leaf in mixed["permutation"]]


def mixed_from_record(committer: DealCommitter, stored: Mapping[str, Any]) -> MixedDeal:
    """Replay the reveals on the rebuilt deal; ValueError unless it gives the stored
    permutation (the archive then does not hold what was dealt)."""
    c = committer.commitment
    who = stored["contributors"]
    commitments = {int(seat): bytes.fromhex(str(com)) for seat, com in who["seats"]}
    contributors = ContributorSet.create(
        table_id=c.table_id,
        hand_no=int(who["hand_no"]),
        recorded_in_hand=int(who["recorded_in_hand"]),
        commitments=commitments,
    )
    if contributors.digest.hex() != who["digest"]:
        raise ValueError("the archived contributor set does not reproduce its digest")
    sig = who.get("sig")
    contributors = replace(contributors, sig=None if sig is None else bytes.fromhex(str(sig)))
    mixed = MixedDeal(committer, contributors)
    try:
        for seat, kind, value in stored["reveals"]:
            if kind == "secret":
                mixed.receive_reveal(int(seat), bytes.fromhex(str(value)))
    except RevealRejected as exc:
        raise ValueError(f"an archived reveal does not open its commitment: {exc}") from None
    transcript = mixed.close()
    if list(mixed.permutation) != [int(leaf) for leaf in stored["permutation"]]:
        raise ValueError("the archived reveals do not give the archived permutation")
    signed = stored.get("transcript_sig")
    mixed.transcript = replace(
        transcript, sig=None if signed is None else bytes.fromhex(str(signed))
    )
    return mixed
