"""Cryptographic shuffle and salts (R-FD-01). Never the ``random`` module here."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import TypeVar

from ahiko.fairness.merkle import SALT_SIZE
from ahiko.poker.cards import FULL_DECK, Card

T = TypeVar("T")

RandBelow = Callable[[int], int]
TokenBytes = Callable[[int], bytes]


def fisher_yates(items: Sequence[T], randbelow: RandBelow = secrets.randbelow) -> list[T]:
    """Durstenfeld's Fisher–Yates: for i = n-1 .. 1, swap i with j = randbelow(i + 1)."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = randbelow(i + 1)
        if not 0 <= j <= i:
            raise ValueError(f"randbelow({i + 1}) returned {j}")
        result[i], result[j] = result[j], result[i]
    return result


def shuffled_deck(randbelow: RandBelow = secrets.randbelow) -> tuple[Card, ...]:
    """The 52 cards in deal-position order."""
    return tuple(fisher_yates(FULL_DECK, randbelow))


def fresh_salts(count: int, token_bytes: TokenBytes = secrets.token_bytes) -> tuple[bytes, ...]:
    """One new 32-byte salt per card; never reused, never derived from anything revealed."""
    salts = tuple(token_bytes(SALT_SIZE) for _ in range(count))
    if any(len(s) != SALT_SIZE for s in salts):
        raise ValueError(f"salts must be {SALT_SIZE} bytes")
    return salts
