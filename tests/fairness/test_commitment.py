"""R-FD-02/03: encodings, the 64-leaf tree, the chained and signed commitment, openings."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest
from fair_helpers import TEST_PUBLIC_KEY, fixed_deal, fixed_deck, fixed_salts

from ahiko.fairness.commitment import commitment_digest, signature_is_valid
from ahiko.fairness.keys import key_path, load_or_create_signing_key, public_key_hex
from ahiko.fairness.merkle import (
    build_levels,
    deck_leaves,
    fold_path,
    hand_context,
    leaf_hash,
    node_hash,
    pad_hash,
)
from ahiko.fairness.positions import LayoutError
from ahiko.poker.cards import format_card
from ahiko.poker.layout import DRAW_LAYOUT

VECTORS = json.loads((Path(__file__).parent / "vectors" / "vectors.json").read_text())


def test_R_FD_02_ctx_is_the_documented_preimage() -> None:
    preimage = b"pokerfair/v1/ctx\x00" + b"\x00\x04t-42" + b"\x00" * 7 + b"\x07"
    assert hand_context("t-42", 7) == hashlib.sha256(preimage).digest()


def test_R_FD_02_leaf_pad_and_node_use_distinct_prefixes() -> None:
    ctx, salt = bytes(32), bytes(range(32))
    assert (
        leaf_hash(ctx, 3, 50, salt) == hashlib.sha256(b"\x00" + ctx + b"\x03\x32" + salt).digest()
    )
    assert pad_hash(ctx, 60) == hashlib.sha256(b"\x02" + ctx + b"\x3c").digest()
    assert node_hash(ctx, salt) == hashlib.sha256(b"\x01" + ctx + salt).digest()


def test_R_FD_02_digest_is_the_documented_preimage() -> None:
    root, prev = bytes([1]) * 32, bytes(32)
    preimage = (
        b"pokerfair/v1/commit\x00" + b"\x00\x04t-42" + (7).to_bytes(8, "big") + b"\x34"
        + b"\x00\x10holdem-noburn-v1" + b"\x02" + b"\x04" + bytes([4, 6, 1, 2]) + root
        + (1_700_000_000_000).to_bytes(8, "big") + prev
    )  # fmt: skip
    digest = commitment_digest(
        table_id="t-42", hand_no=7, deck_size=52, layout="holdem-noburn-v1", button_seat=2,
        dealt_seats=[4, 6, 1, 2], root=root, committed_at_ms=1_700_000_000_000, prev=prev,
    )  # fmt: skip
    assert digest == hashlib.sha256(preimage).digest()


@pytest.mark.parametrize("vector", VECTORS["hands"], ids=lambda v: v["name"])
def test_R_FD_02_test_vectors_every_intermediate_hash(vector: dict) -> None:
    inputs = vector["inputs"]
    deck = [c for c in fixed_deck(inputs["hand_no"])]
    assert [format_card(c) for c in deck] == inputs["deck"]
    salts = [bytes.fromhex(s) for s in inputs["salts"]]
    assert salts == fixed_salts(inputs["hand_no"])
    ctx = hand_context(inputs["table_id"], inputs["hand_no"])
    assert ctx.hex() == vector["ctx"]
    leaves = deck_leaves(ctx, deck, salts)
    assert [h.hex() for h in leaves] == vector["leaves"]
    levels = build_levels(leaves)
    assert [[h.hex() for h in level] for level in levels] == vector["levels"]
    assert [len(level) for level in levels] == [64, 32, 16, 8, 4, 2, 1]
    assert levels[-1][0].hex() == vector["root"]
    digest = commitment_digest(
        table_id=inputs["table_id"], hand_no=inputs["hand_no"], deck_size=52,
        layout=inputs["layout"], button_seat=inputs["button_seat"],
        dealt_seats=inputs["dealt_seats"], root=levels[-1][0],
        committed_at_ms=inputs["committed_at_ms"], prev=bytes.fromhex(inputs["prev"]),
    )  # fmt: skip
    assert digest.hex() == vector["digest"]
    assert signature_is_valid(TEST_PUBLIC_KEY, digest, bytes.fromhex(vector["sig"]))
    assert VECTORS["public_key"] == TEST_PUBLIC_KEY.hex()


def test_R_FD_02_commitments_chain_by_prev() -> None:
    hands = VECTORS["hands"]
    assert hands[0]["inputs"]["prev"] == "00" * 32
    assert hands[1]["inputs"]["prev"] == hands[0]["digest"]
    assert hands[2]["inputs"]["prev"] == hands[1]["digest"]


def test_R_FD_03_every_position_opens_to_its_card_and_to_no_other() -> None:
    deal = fixed_deal(7)
    for seat in deal.dealt_seats:
        for k in range(2):
            opening = deal.hole_opening(seat, k)
            assert len(opening.path) == 6
            assert opening.root(deal.ctx) == deal.commitment.root
            assert (
                replace(opening, card=(opening.card + 1) % 52).root(deal.ctx)
                != deal.commitment.root
            )
            assert (
                replace(opening, position=opening.position ^ 1).root(deal.ctx)
                != deal.commitment.root
            )


def test_R_FD_06_hand_n_openings_fail_against_hand_n_plus_one() -> None:
    hand7 = fixed_deal(7)
    hand8 = fixed_deal(8, prev=hand7.commitment.digest)
    for b in range(5):
        opening = hand7.board_opening(b)
        assert opening.root(hand7.ctx) == hand7.commitment.root
        assert opening.root(hand8.ctx) != hand8.commitment.root


def test_R_FD_03_same_deck_and_salts_at_another_hand_number_commit_differently() -> None:
    deck, salts = fixed_deck(7), fixed_salts(7)
    roots = {build_levels(deck_leaves(hand_context("t-42", n), deck, salts))[-1][0] for n in (7, 8)}
    assert len(roots) == 2


def test_R_FD_03_truncated_and_extended_paths_are_refused() -> None:
    deal = fixed_deal(7)
    opening = deal.hole_opening(4, 0)
    leaf = leaf_hash(deal.ctx, opening.position, opening.card, opening.salt)
    for bad in (opening.path[:-1], (*opening.path, opening.path[0])):
        with pytest.raises(ValueError, match="6 siblings"):
            fold_path(leaf, opening.position, bad)


def test_R_FD_03_a_node_hash_passed_as_a_salt_does_not_fold() -> None:
    deal = fixed_deal(7)
    opening = deal.hole_opening(6, 1)
    for node in opening.path:
        assert replace(opening, salt=node).root(deal.ctx) != deal.commitment.root
    # nor does an internal node presented as the leaf itself, with the shorter path above it
    level1 = deal.levels[1][opening.position >> 1]
    assert (
        fold_path(level1, opening.position, (*opening.path[1:], opening.path[0]))
        != deal.commitment.root
    )


def test_R_FD_03_deal_refuses_bad_shapes_and_changes_nothing() -> None:
    with pytest.raises(LayoutError, match="unknown layout"):
        fixed_deal(7, layout="holdem-runtwice-v1")
    deal = fixed_deal(9, DRAW_LAYOUT)
    deal.record_draw(6, 2)
    with pytest.raises(LayoutError, match="deal order"):
        deal.record_draw(4, 1)  # 4 draws before 6
    assert deal.draws == ((6, 2),)


def test_R_FD_02_signing_key_is_created_once_private_and_reloaded(tmp_path: Path) -> None:
    first = public_key_hex(tmp_path)
    assert len(first) == 64
    assert stat.S_IMODE(os.stat(key_path(tmp_path)).st_mode) == 0o600
    assert public_key_hex(tmp_path) == first
    key = load_or_create_signing_key(tmp_path)
    digest = hashlib.sha256(b"x").digest()
    assert signature_is_valid(bytes.fromhex(first), digest, key.sign(digest))
    assert not signature_is_valid(bytes.fromhex(first), digest, key.sign(b"y" * 32))


def test_R_FD_02_a_corrupt_key_file_is_refused(tmp_path: Path) -> None:
    key_path(tmp_path).write_bytes(b"short")
    with pytest.raises(ValueError, match="32-byte"):
        load_or_create_signing_key(tmp_path)
    assert key_path(tmp_path).read_bytes() == b"short"
