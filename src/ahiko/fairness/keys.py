"""The server's Ed25519 signing key: generated on first start, kept in the data folder."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

KEY_FILE_NAME = "fairness_ed25519.key"
ARCHIVE_KEY_FILE_NAME = "archive_aes256gcm.key"  # seals the hand archive's secrets at rest
_RAW_KEY_SIZE = 32


def key_path(data_dir: str | os.PathLike[str]) -> Path:
    return Path(data_dir) / KEY_FILE_NAME


def load_or_create_signing_key(data_dir: str | os.PathLike[str]) -> Ed25519PrivateKey:
    """The key in ``data_dir``; created (mode 0600, raw 32-byte seed) when absent."""
    path = key_path(data_dir)
    if not path.exists():
        _create_once(path, Ed25519PrivateKey.generate().private_bytes_raw())
    return _read_key(path)


def _create_once(path: Path, secret: bytes) -> None:
    """Write ``secret`` to ``path`` unless it exists, so that nobody ever reads it half
    written: into a file of our own first, then linked to ``path`` whole (``link`` fails when
    another process published its key first: theirs is used). Nodes of a cluster starting
    together on a fresh data folder each read one whole key, the same."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secret)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another's published first: theirs
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)


def public_key_bytes(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def public_key_hex(data_dir: str | os.PathLike[str]) -> str:
    """The raw public key as 64 lowercase hex digits (served at /api/fairness/public-key)."""
    return public_key_bytes(load_or_create_signing_key(data_dir)).hex()


def _read_key(path: Path) -> Ed25519PrivateKey:
    seed = path.read_bytes()
    if len(seed) != _RAW_KEY_SIZE:
        raise ValueError(f"{path} does not hold a {_RAW_KEY_SIZE}-byte Ed25519 seed")
    return Ed25519PrivateKey.from_private_bytes(seed)


def load_or_create_archive_key(data_dir: str | os.PathLike[str]) -> bytes:
    """The hand archive's 32-byte AEAD key, beside the signing key (mode 0600), created when
    absent. Losing it makes the archived hands' downloads unreadable: back it up with the
    signing key, never with the database."""
    path = Path(data_dir) / ARCHIVE_KEY_FILE_NAME
    if not path.exists():
        _create_once(path, os.urandom(_RAW_KEY_SIZE))
    key = path.read_bytes()
    if len(key) != _RAW_KEY_SIZE:
        raise ValueError(f"{path} does not hold a {_RAW_KEY_SIZE}-byte archive key")
    return key
