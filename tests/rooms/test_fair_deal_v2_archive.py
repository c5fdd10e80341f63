"""A pokerfair/2 hand in the archive: the record keeps the contributor set, the reveals and
the signed transcript, the engine replays the cards in the order they were dealt, and the
downloaded proof is a pokerfair/2 file that verifies; a record whose reveals do not give its
permutation is refused as corrupt."""

from __future__ import annotations

import copy
import json
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.fairness.contribution import seat_commitment
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.keys import public_key_bytes
from ahiko.fairness.mixed_deal import ContributorSet, MixedDeal
from ahiko.fairness.release import Viewer
from ahiko.fairness.shuffle import shuffled_deck
from ahiko.fairness.verify_v2 import verify_any_text
from ahiko.poker.actions import Action, ActionKind
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.config import Variant
from ahiko.rooms.finished.archive import ArchiveCorrupt, deal_from_record, deal_record
from ahiko.rooms.finished.mixed_record import MIXED_KEY, dealt_order
from ahiko.rooms.table_hand import TableHand, deal_order

KEY = Ed25519PrivateKey.generate()
SEATS = [0, 1, 2, 3]
SECRETS = {0: bytes(range(32)), 2: bytes(range(32, 64))}  # seats 1 and 3 are bots


def played_hand() -> TableHand:
    rng = random.Random(7)
    committer = DealCommitter(
        table_id="t-archive", hand_no=5, layout="holdem-noburn-v1", button_seat=3,
        dealt_seats=deal_order(SEATS, 3), deck=shuffled_deck(rng.randrange),
        committed_at_ms=1_700_000_000_000, signing_key=KEY,
    )  # fmt: skip
    contributors = ContributorSet.create(
        table_id="t-archive", hand_no=5, recorded_in_hand=4, signing_key=KEY,
        commitments={s: seat_commitment("t-archive", 5, s, x) for s, x in SECRETS.items()},
    )  # fmt: skip
    mixed = MixedDeal(committer, contributors, KEY)
    mixed.receive_reveal(0, SECRETS[0])  # seat 2 withholds
    table = TableHand(
        hand_no=5, variant=Variant.HOLDEM, stakes=Stakes(5, 10), button=3,
        players={s: f"p{s}" for s in SEATS}, stacks={s: 1000 for s in SEATS},
        committer=committer, mixed=mixed,
    )  # fmt: skip
    mixed.close()
    table.deal()
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        legal = table.legal()
        table.act(seat, Action(ActionKind.CHECK if legal.can_check else ActionKind.CALL))
    return table


def test_R_FD_03_an_archived_v2_hand_replays_its_cards_and_downloads_a_v2_proof() -> None:
    table = played_hand()
    record = json.loads(json.dumps(deal_record(table)))  # as stored: JSON
    assert dealt_order(record) == list(table.dealt_deck) != list(table.committer.deck)
    archived = deal_from_record(table.commitment(), record)
    assert archived.mixed is not None
    for seat in SEATS:
        proof = archived.proof(archived.release(Viewer(seat)))
        assert proof["format"] == "pokerfair-proof/2" and len(proof["cards"]) >= 2 + 5
        result = verify_any_text(json.dumps(proof), public_key=public_key_bytes(KEY))
        assert result.ok, [c for c in result.checks if c.status == "fail"]


def test_R_FD_03_an_archived_v2_hand_whose_reveals_do_not_match_is_corrupt() -> None:
    table = played_hand()
    record = json.loads(json.dumps(deal_record(table)))
    broken = copy.deepcopy(record)
    broken[MIXED_KEY]["permutation"] = list(reversed(broken[MIXED_KEY]["permutation"]))
    with pytest.raises(ArchiveCorrupt, match="permutation"):
        deal_from_record(table.commitment(), broken)
    dropped = copy.deepcopy(record)
    dropped[MIXED_KEY]["reveals"][0][1] = "fallback"
    with pytest.raises(ArchiveCorrupt):
        deal_from_record(table.commitment(), dropped)
