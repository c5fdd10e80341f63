"""A small TOML writer for hand-history files.

The standard library reads TOML (``tomllib``) but does not write it. Hand histories need only
flat tables of strings, integers, floats, booleans and arrays of those, which this covers;
anything else is refused rather than written wrongly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

TomlScalar = str | int | float | bool
TomlValue = TomlScalar | Sequence[TomlScalar]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


class TomlWriteError(ValueError):
    """A value that this writer cannot express in TOML."""


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TomlWriteError(f"non-finite float {value!r}")
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    raise TomlWriteError(f"cannot write {type(value).__name__} {value!r} as a TOML scalar")


def toml_value(value: object, *, multiline: bool = False) -> str:
    if isinstance(value, list | tuple):
        items = [toml_scalar(v) for v in value]
        if multiline and items:
            return "[\n" + "".join(f"  {item},\n" for item in items) + "]"
        return "[" + ", ".join(items) + "]"
    return toml_scalar(value)


def toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else toml_string(key)


def dumps_table(fields: Mapping[str, object], multiline_keys: Sequence[str] = ()) -> str:
    """Top-level ``key = value`` lines, in the mapping's order. ``multiline_keys`` are arrays
    written one item per line (the PHH ``actions`` convention)."""
    lines = [
        f"{toml_key(key)} = {toml_value(value, multiline=key in multiline_keys)}"
        for key, value in fields.items()
    ]
    return "\n".join(lines) + "\n"
