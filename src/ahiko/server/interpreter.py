"""The oldest Python releases without the quadratic ``http.cookies`` parser (CVE-2024-7592):
a crafted 48 KB ``Cookie`` header stalled the event loop for seconds on 3.11.7, and 8,000
backslashes under the header cap still cost a fifth of a second each. The server refuses
oversized headers (``security.py``) and hands the app only its session cookie, read by a
linear parser of its own (``cookie_guard.py``), so an older interpreter stays usable; but
``ahiko serve`` says at start-up that it should be upgraded."""

from __future__ import annotations

import sys
from collections.abc import Sequence

# Per minor version, the first patch release with the fix; 3.13.0 and later have it.
MINIMUM_SAFE = {(3, 11): (3, 11, 10), (3, 12): (3, 12, 6)}
FIXED_FROM_MINOR = (3, 13)


def minimum_safe(version: Sequence[int]) -> tuple[int, int, int] | None:
    """The oldest safe release of ``version``'s minor line, or None when the whole line is."""
    minor = (int(version[0]), int(version[1]))
    if minor >= FIXED_FROM_MINOR:
        return None
    return MINIMUM_SAFE.get(minor, (3, 11, 10))


def interpreter_problem(version: Sequence[int] | None = None) -> str | None:
    """Why this interpreter is unsafe to serve on, or None when it is safe."""
    found = tuple(int(part) for part in (version or sys.version_info)[:3])
    needed = minimum_safe(found)
    if needed is None or found >= needed:
        return None
    text = ".".join(map(str, found))
    wanted = ".".join(map(str, needed))
    return (
        f"Python {text} has a quadratic cookie parser (CVE-2024-7592); upgrade to {wanted} "
        "or later. Until then the server reads only its session cookie, with a parser of its "
        "own, and refuses request headers over AHIKO_MAX_HEADER_BYTES (8 KiB)."
    )
