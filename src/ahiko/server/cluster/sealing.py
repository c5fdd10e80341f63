"""Relayed frames sealed on their way through Redis.

A player whose socket is on another node than the room's owner gets the room's frames through
``PUBLISH ahiko:conn:<socket>`` (and the frames for anyone on ``ahiko:fan:<node>``): hole
cards, board cards and the proofs' salts. Anyone who can ``PSUBSCRIBE ahiko:*`` (or run
``MONITOR``) on the cluster's Redis would read them. So every relayed frame is sealed with
AES-256-GCM under a key all the nodes share, derived (HKDF-SHA256) from the archive key of the
data folder the nodes already share: Redis carries only ciphertext. The channel is the
associated data, so a frame replayed onto another connection's channel does not open.
Redis must still be private and authenticated (docs/deploy.md): sealing hides the cards, not
who plays where or when.
"""

from __future__ import annotations

import os

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

NONCE_BYTES = 12
RELAY_KEY_INFO = b"ahiko relay frames v1"


def relay_key(archive_key: bytes) -> bytes:
    """The nodes' shared relay key, from the data folder's archive key."""
    return HKDF(hashes.SHA256(), 32, salt=None, info=RELAY_KEY_INFO).derive(archive_key)


class RelaySeal:
    """Seals and opens relayed frame payloads; ``channel`` binds each to its channel."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, channel: bytes, payload: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, payload, channel)

    def open(self, channel: bytes, sealed: bytes | memoryview) -> bytes:
        data = bytes(sealed)
        return self._aead.decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], channel)
