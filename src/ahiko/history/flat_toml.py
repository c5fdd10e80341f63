"""A fast reader for the flat TOML that PHH files use, with ``tomllib`` as the fallback.

Hand histories are top-level ``key = value`` lines whose values are strings, numbers,
booleans or arrays of those (``actions`` often spread over lines with ``#`` comments).
``tomllib`` parses them correctly but spends most of a replay's time doing so; this reader
handles exactly that subset and gives up (``None``) on anything else — escapes, tables,
dates, inline tables, odd spacing — so the caller falls back to ``tomllib``. It returns
the same dict ``tomllib.loads`` would (tests compare both on every sample file and on
generated documents).

Three readers are tried in turn, fastest first: the whole document through the C JSON decoder
when it is safe to (``_parse_as_json``), one regex scan when every line is ``key = value``,
and a line-by-line reader for comments, blank lines and arrays over several lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BARE_KEYS = re.compile(r"[A-Za-z0-9_-]+(?:\n[A-Za-z0-9_-]+)*")  # keys, one a line
# The fields of the PHH standard and ours (all bare keys): a document of these alone needs no
# test of its keys' characters.
_USUAL_KEYS = frozenset(
    {
        "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
        "small_bet", "big_bet", "min_bet", "raise_cap", "starting_stacks", "actions", "author",
        "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
        "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand", "level", "seats",
        "seat_count", "table", "players", "finishing_stacks", "winnings", "currency",
        "currency_symbol", "time_limit", "time_banks",
    }
)  # fmt: skip
# A document that is only ``key = value`` lines, no blank or comment line: the usual file.
_KEY_VALUE_LINE = re.compile(r"^([A-Za-z0-9_-]+) = (.*)$", re.MULTILINE)
_INT = re.compile(r"[+-]?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[+-]?(0|[1-9][0-9]*)\.[0-9]+")
# A whole number as TOML writes it (no sign, no leading zero).
_WHOLE = re.compile(r"0|[1-9][0-9]*")
_ITEM = re.compile(r"""\s*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^,\s\]#"']+))\s*(,?)\s*""")
# Whole one-line arrays of literal strings or of numbers (most PHH fields): read in one go.
_LITERAL = r"'[^'\n]*'"
_NUMBER = r"[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
_WS = r"[ \t]*"  # TOML's whitespace within one line
_LITERAL_ARRAY = re.compile(rf"\[{_WS}(?:{_LITERAL}{_WS},{_WS})*(?:{_LITERAL}{_WS})?\]")
_NUMBER_ARRAY = re.compile(rf"\[{_WS}(?:{_NUMBER}{_WS},{_WS})*(?:{_NUMBER}{_WS})?\]")
_LITERAL_ITEM = re.compile(r"'([^'\n]*)'")
# JSON's number grammar is a subset of TOML's with the same values, so an array the C JSON
# scanner reads as numbers only reads the same in TOML, except NaN and Infinity (not TOML;
# text with "N" or "I" never takes this path) and "\r" (kept away from this reader).
_Scanner = Callable[[str, int], tuple[Any, int]]  # (value, index after it)
_scan_json: _Scanner = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_NUMBER_TYPES = {int, float}
_NUMBER_ITEM = re.compile(_NUMBER)
_NESTED_ARRAY = re.compile(r"\[\s*\[")
_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f]")  # tab and newline are allowed


class _Unsupported(Exception):
    pass


def loads_flat(text: str) -> dict[str, Any] | None:
    """The document as ``tomllib.loads`` would give it, or None if it is not flat PHH."""
    if "\r" in text:  # CRLF or a stray carriage return: tomllib knows where each is allowed
        return None
    if _NESTED_ARRAY.search(text):  # PHH never nests; tomllib knows how deep it may go
        return None
    as_json = _parse_as_json(text)
    if as_json is not None:
        return as_json
    if _CONTROL_CHARACTER.search(text):  # TOML refuses them, even inside literal strings
        return None
    pairs = _KEY_VALUE_LINE.findall(text)
    try:
        if len(pairs) == text.count("\n") + (not text.endswith("\n")):  # one per line
            try:
                return _parse_one_value_per_line(pairs)
            except _Unsupported:
                pass
        return _parse(text)
    except (_Unsupported, ValueError):  # ValueError: an integer of over 4,300 digits
        return None


def _parse_as_json(text: str) -> dict[str, Any] | None:
    """The usual file read by the C JSON decoder, or None.

    One ``key = value`` per line with no double quote, backslash, comment, table, colon or
    DEL is, once each ``'`` becomes ``"``, each `` = `` becomes ``": `` and each line break
    ``, "``, one JSON object member per line, whose value JSON reads exactly as TOML does:
    literal strings hold no escapes, and the numbers, ``true``, ``false`` and arrays both
    grammars accept mean the same. The text holds no colon, so the only ones are those put in
    for the `` = `` (one a line, counted), and JSON accepts a colon only after a member's key:
    a decoded object of one member per line has each line's `` = `` after its key, and its
    keys are checked to be TOML's bare keys. What only JSON accepts (``null``, ``NaN``,
    ``Infinity``) is refused before decoding, and what only TOML accepts (a tab in a string, a
    trailing comma, ``inf``, dates, a blank or comment line, an array over several lines)
    fails to decode and goes to the slower readers."""
    if (  # what JSON would read otherwise than TOML, or TOML otherwise than JSON
        '"' in text
        or "\\" in text
        or "#" in text
        or "{" in text
        or ":" in text
        or "\x7f" in text
        or "null" in text
        or "NaN" in text
        or "Infinity" in text
    ):
        return None
    body = text[:-1] if text[-1:] == "\n" else text
    lines = body.count("\n") + 1
    if body.count(" = ") != lines:
        return None
    document = '{"' + body.replace(" = ", '": ').replace("\n", ', "').replace("'", '"') + "}"
    try:
        out, end = _scan_json(document, 0)
    except (ValueError, StopIteration, RecursionError):
        return None
    if type(out) is not dict:  # cannot happen: the document is one object or nothing
        return None
    # fewer members than lines: a key given twice
    if end != len(document) or len(out) != lines:
        return None
    if not _USUAL_KEYS.issuperset(out) and not _BARE_KEYS.fullmatch("\n".join(out)):
        return None
    return out


def _parse_one_value_per_line(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """The usual file, each line ``key = value`` (``pairs``, from one regex scan); anything
    else (blank lines, comments, arrays over several lines) is left to ``_parse``."""
    out: dict[str, Any] = {}
    for key, rest in pairs:
        first = rest[:1]
        if first == "[":
            value = _one_line_array(rest)
            if value is None:
                raise _Unsupported
            out[key] = value
        elif first == "'" and rest.count("'") == 2 and rest[-1] == "'" and "\n" not in rest:
            out[key] = rest[1:-1]  # the usual string: 'NT'
        elif _WHOLE.fullmatch(rest):
            out[key] = int(rest)
        else:
            out[key] = _scalar(_strip_comment(rest))
    if len(out) != len(pairs):  # a key given twice: TOML refuses it
        raise _Unsupported
    return out


def _parse(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    lines = text.split("\n")
    count = len(lines)
    i = 0
    while i < count:
        line = lines[i].strip()
        i += 1
        if not line or line[0] == "#":
            continue
        key, equals, rest = line.partition(" = ")
        if not equals or not _KEY.fullmatch(key):
            raise _Unsupported
        if key in out:
            raise _Unsupported
        if rest.startswith("["):
            simple = _one_line_array(rest)
            if simple is not None:
                out[key] = simple
                continue
            body = rest[1:]
            while not _closes(body):
                if i >= len(lines):
                    raise _Unsupported
                body += "\n" + lines[i]
                i += 1
            out[key] = _array(body)
        else:
            out[key] = _scalar(_strip_comment(rest))
    return out


def _one_line_array(text: str) -> list[Any] | None:
    """The array if ``text`` is exactly one whole array of literal strings or of numbers."""
    if len(text) >= 4 and text[:2] == "['" and text[-2:] == "']":  # usual: ['a', 'b']
        inner = text[2:-2]
        strings = inner.split("', '")
        # no quote inside an item: the only quotes are the separators' two each
        if "\n" not in inner and inner.count("'") == 2 * (len(strings) - 1):
            return strings
    elif text[-1] == "]" and "N" not in text and "I" not in text:
        try:  # [1, 20, 300]
            value, end = _scan_json(text, 0)
        except (ValueError, StopIteration, RecursionError):
            value, end = None, 0
        if end == len(text) and type(value) is list and set(map(type, value)) <= _NUMBER_TYPES:
            return value
    if _LITERAL_ARRAY.fullmatch(text):
        return _LITERAL_ITEM.findall(text)
    if _NUMBER_ARRAY.fullmatch(text):
        return [float(x) if "." in x else int(x) for x in _NUMBER_ITEM.findall(text)]
    return None


def _closes(body: str) -> bool:
    """True once the array's closing bracket is on the last line read (outside comments)."""
    last = body.rsplit("\n", 1)[-1]
    return "]" in _strip_comment(last) if "#" in last else "]" in last


def _strip_comment(text: str) -> str:
    if "#" not in text:
        return text.strip()
    if '"' in text or "'" in text:
        # a '#' may sit inside a string; only a trailing comment after the value is simple
        value, _, _ = text.partition(" #")
        if "#" in value:
            raise _Unsupported
        return value.strip()
    return text.split("#", 1)[0].strip()


def _array(body: str) -> list[Any]:
    cleaned = "\n".join(_strip_comment(line) for line in body.split("\n")) if "#" in body else body
    inner = cleaned.rstrip()
    if not inner.endswith("]"):
        raise _Unsupported
    inner = inner[:-1]
    items: list[Any] = []
    pos = 0
    for match in _ITEM.finditer(inner):
        if match.start() != pos:
            raise _Unsupported
        double, single, bare, comma = match.groups()
        items.append(
            double if double is not None else single if single is not None else _scalar(bare)
        )
        pos = match.end()
        if not comma:
            break
    if inner[pos:].strip():
        raise _Unsupported
    return items


def _scalar(text: str) -> Any:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        inner = text[1:-1]
        if text[0] in inner or "\\" in inner or "\n" in inner:
            raise _Unsupported
        return inner
    if text == "true":
        return True
    if text == "false":
        return False
    if text.isdigit() and text.isascii() and (text[0] != "0" or text == "0"):
        return int(text)
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    raise _Unsupported
