"""``ahiko fairness demo``, ``pokerfair/2`` part: one random hand whose players' browsers
shaped the shuffle, and a duplicate deal where one commitment and one mix drive several tables.

At each table the last seat in deal order is a server-run bot (it contributes nothing); with
three or more people, the last person withholds its secret and gets the public fallback. A
contributor's number is ``table_index * 8 + seat``, so the people of every table of a
duplicate deal shape the same shuffle (one byte holds 32 tables of 8)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.fairness.contribution import SECRET_SIZE, seat_commitment
from ahiko.fairness.demo import (
    TABLE_SEATS,
    demo_deal,
    demo_observation,
    demo_seats,
    demo_viewers,
    play_to_showdown,
)
from ahiko.fairness.mixed_deal import ContributorSet, MixedDeal
from ahiko.fairness.proof import write_proof
from ahiko.fairness.proof_v2 import proof_document_v2, release_mixed_openings
from ahiko.fairness.shuffle import RandBelow, TokenBytes
from ahiko.poker.games import game

MAX_DUPLICATE_TABLES = 32


@dataclass(frozen=True)
class DemoMixedHand:
    mixed: MixedDeal
    withheld: tuple[int, ...]  # contributor numbers that withheld
    documents: dict[str, dict[str, Any]]  # file stem -> proof


def deal_demo_v2(
    variant: str,
    players: int,
    signing_key: Ed25519PrivateKey,
    *,
    tables: Sequence[str] = ("",),
    table_id: str = "demo-v2",
    hand_no: int = 2,
    randbelow: RandBelow = secrets.randbelow,
    token_bytes: TokenBytes = secrets.token_bytes,
    now_ms: int | None = None,
) -> DemoMixedHand:
    """``tables`` names the physical tables ("" for one ordinary table); more than one make a
    duplicate deal (a game without a draw: a draw's order differs from table to table)."""
    if len(tables) > 1 and game(variant).has_draw:
        raise ValueError(
            "a duplicate deal needs a game without a draw: each table draws its own way"
        )
    if not 1 <= len(tables) <= MAX_DUPLICATE_TABLES:
        raise ValueError(f"a demo deals to 1 to {MAX_DUPLICATE_TABLES} tables, not {len(tables)}")
    button, dealt_seats = demo_seats(variant, players, randbelow)
    people = dealt_seats[:-1]  # the last is a server-run bot
    withholder = people[-1] if len(people) >= 3 else None
    own = {
        index * TABLE_SEATS + seat: token_bytes(SECRET_SIZE)
        for index in range(len(tables))
        for seat in people
    }
    contributors = ContributorSet.create(
        table_id=table_id,
        hand_no=hand_no,
        recorded_in_hand=hand_no - 1,
        commitments={n: seat_commitment(table_id, hand_no, n, s) for n, s in own.items()},
        signing_key=signing_key,
    )
    committed_at = now_ms if now_ms is not None else int(time.time() * 1000)
    deal = demo_deal(
        table_id, hand_no, variant, button, dealt_seats, committed_at, signing_key, randbelow
    )
    mixed = MixedDeal(deal, contributors, signing_key)
    withheld = tuple(n for n in own if withholder is not None and n % TABLE_SEATS == withholder)
    receipts = {n: mixed.receive_reveal(n, s) for n, s in own.items() if n not in withheld}
    mixed.close()
    state = play_to_showdown(deal, variant, randbelow)
    documents = {}
    for index, label in enumerate(tables):
        for stem, viewer in demo_viewers(dealt_seats).items():
            number = None if viewer.seat is None else index * TABLE_SEATS + viewer.seat
            receipt = receipts.get(number) if number is not None else None
            documents[f"table-{label}-{stem}" if label else stem] = proof_document_v2(
                mixed,
                release_mixed_openings(mixed, viewer, state),
                own=(number, own[number]) if number in own else None,
                receipts=[(number, receipt)] if number is not None and receipt else [],
                observation=demo_observation(committed_at),
                table_label=label or None,
            )
    return DemoMixedHand(mixed, withheld, documents)


def write_demo_v2(hand: DemoMixedHand, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    return [write_proof(out_dir / f"{stem}.json", doc) for stem, doc in hand.documents.items()]
