"""The pokerfair/1 Merkle tree: 64 leaves (one per deal position, 52..63 padding), depth 6.

Distinct domain prefixes (0x00 leaf, 0x01 node, 0x02 pad), fixed lengths and a fixed depth
rule out leaf/node confusion and duplicated-node tricks."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ahiko.fairness.encoding import lp, u8, u64

TREE_DEPTH = 6
TREE_LEAVES = 1 << TREE_DEPTH
HASH_SIZE = 32
SALT_SIZE = 32

_CTX_TAG = b"pokerfair/v1/ctx\0"
_LEAF = b"\x00"
_NODE = b"\x01"
_PAD = b"\x02"


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def hand_context(table_id: str, hand_no: int) -> bytes:
    """``ctx = SHA256("pokerfair/v1/ctx\\0" || lp(table_id) || u64(hand_no))``."""
    return sha256(_CTX_TAG + lp(table_id) + u64(hand_no))


def leaf_hash(ctx: bytes, position: int, card: int, salt: bytes) -> bytes:
    if len(salt) != SALT_SIZE:
        raise ValueError(f"a salt must be {SALT_SIZE} bytes, got {len(salt)}")
    return sha256(_LEAF + ctx + u8(position) + u8(card) + salt)


def pad_hash(ctx: bytes, position: int) -> bytes:
    return sha256(_PAD + ctx + u8(position))


def node_hash(left: bytes, right: bytes) -> bytes:
    return sha256(_NODE + left + right)


def build_levels(leaves: Sequence[bytes]) -> list[list[bytes]]:
    """All levels of the tree, leaves first, the one-element root level last."""
    if len(leaves) != TREE_LEAVES:
        raise ValueError(f"the tree needs {TREE_LEAVES} leaves, got {len(leaves)}")
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        levels.append([node_hash(below[i], below[i + 1]) for i in range(0, len(below), 2)])
    return levels


def deck_leaves(ctx: bytes, deck: Sequence[int], salts: Sequence[bytes]) -> list[bytes]:
    """The 64 leaves: the card at each deal position with its salt, then the padding."""
    if len(deck) != len(salts):
        raise ValueError("one salt per card is needed")
    leaves = [
        leaf_hash(ctx, p, card, salt)
        for p, (card, salt) in enumerate(zip(deck, salts, strict=True))
    ]
    leaves.extend(pad_hash(ctx, p) for p in range(len(deck), TREE_LEAVES))
    return leaves


def auth_path(levels: Sequence[Sequence[bytes]], position: int) -> list[bytes]:
    """The 6 sibling hashes from the leaf at ``position`` up to (not including) the root."""
    if not 0 <= position < TREE_LEAVES:
        raise ValueError(f"position {position} is outside the tree")
    path = []
    index = position
    for level in levels[:TREE_DEPTH]:
        path.append(level[index ^ 1])
        index >>= 1
    return path


def fold_path(leaf: bytes, position: int, path: Sequence[bytes]) -> bytes:
    """The root a leaf and its sibling path lead to; bit i of ``position`` set means the
    running hash is the right child at level i."""
    if len(path) != TREE_DEPTH:
        raise ValueError(f"a path has {TREE_DEPTH} siblings, got {len(path)}")
    running = leaf
    for level, sibling in enumerate(path):
        if (position >> level) & 1:
            running = node_hash(sibling, running)
        else:
            running = node_hash(running, sibling)
    return running
