"""Room names: text other people are shown, so refused when it could mislead or hide.

A room's name is checked where every room is made, ``RoomConfig`` (the HTTP API, the house
rooms, the command line alike), not by URL path in the security middleware: the door refuses
it by name (``RoomNameError``, answered ``422 invalid_text``)."""

from __future__ import annotations

import unicodedata

ROOM_NAME_MAX = 60
# Unicode categories refused in display text: controls, format characters (bidi overrides,
# zero-width joiners), private use, surrogates, unassigned, line/paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def display_text_problem(text: object, max_length: int = ROOM_NAME_MAX) -> str | None:
    """Why ``text`` may not be shown to other people, or None when it may."""
    if not isinstance(text, str):
        return "must be text"
    if not text.strip():
        return "must not be blank"
    if text != text.strip():
        return "must not start or end with spaces"
    if len(text) > max_length:
        return f"must be at most {max_length} characters"
    if "  " in text:
        return "must not contain repeated spaces"
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return f"must not contain the character U+{ord(char):04X}"
    if unicodedata.normalize("NFC", text) != text:
        return "must be in Unicode normal form C"
    return None
