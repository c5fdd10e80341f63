"""Byte encodings of FAIRNESS.md: big-endian integers and length-prefixed UTF-8 strings."""

from __future__ import annotations


def u8(value: int) -> bytes:
    return _uint(value, 1, "u8")


def u16(value: int) -> bytes:
    return _uint(value, 2, "u16")


def u32(value: int) -> bytes:
    return _uint(value, 4, "u32")


def u64(value: int) -> bytes:
    return _uint(value, 8, "u64")


def lp(text: str) -> bytes:
    """``u16(len(utf8(text))) || utf8(text)``."""
    raw = text.encode("utf-8")
    return u16(len(raw)) + raw


def _uint(value: int, size: int, name: str) -> bytes:
    if not 0 <= value < 1 << (8 * size):
        raise ValueError(f"{value} does not fit in {name}")
    return value.to_bytes(size, "big")
