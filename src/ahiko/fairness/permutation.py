"""The ``pokerfair/2`` permutation: which committed leaf each deal position opens.

Durstenfeld's Fisher–Yates driven by a public byte stream expanded from the mix. Each index
is drawn by rejection sampling on masked bytes: a byte masked to the smallest power of two
covering the bound is kept only when below the bound. No remainder is ever taken and no
float is ever used, so every one of the 52! orders has exactly the same chance."""

from __future__ import annotations

from collections.abc import Iterator

from ahiko.fairness.encoding import u32
from ahiko.fairness.merkle import HASH_SIZE, sha256
from ahiko.poker.cards import DECK_SIZE

_STREAM_TAG = b"pokerfair/v2/stream\0"


def mix_stream(mix: bytes) -> Iterator[int]:
    """Bytes of ``SHA256("pokerfair/v2/stream\\0" || mix || u32(b))`` for b = 0, 1, …"""
    if len(mix) != HASH_SIZE:
        raise ValueError(f"the mix must be {HASH_SIZE} bytes, got {len(mix)}")
    block = 0
    while True:
        yield from sha256(_STREAM_TAG + mix + u32(block))
        block += 1


def draw_below(bound: int, stream: Iterator[int]) -> int:
    """A uniform integer in ``0 .. bound-1`` (bound 1..256) from the stream's bytes."""
    if not 1 <= bound <= 256:
        raise ValueError(f"bound {bound} is outside 1..256")
    mask = (1 << (bound - 1).bit_length()) - 1
    while True:
        candidate = next(stream) & mask
        if candidate < bound:
            return candidate


def deal_permutation(mix: bytes, size: int = DECK_SIZE) -> tuple[int, ...]:
    """``pi`` with ``pi[p]`` the committed leaf that deal position ``p`` opens: start from
    the identity, for i = size-1 .. 1 swap ``pi[i]`` with ``pi[draw_below(i + 1)]``."""
    stream = mix_stream(mix)
    pi = list(range(size))
    for i in range(size - 1, 0, -1):
        j = draw_below(i + 1, stream)
        pi[i], pi[j] = pi[j], pi[i]
    return tuple(pi)
