"""Chat text as people see it: what the word filter and the card check read.

Two steps, both linear in the text:

- ``visible``: default-ignorable code points (Unicode's ``Default_Ignorable_Code_Point``:
  joiners, variation selectors, the combining grapheme joiner, bidi controls, fillers...) and
  the blank look-alikes (the braille blank U+2800, the Hangul fillers) are removed before
  anything else reads the text. They draw nothing, so a word with one inside looks whole, and
  a message of nothing else looks blank.
- ``skeleton``: one character as the letters it looks like: compatibility forms unfolded
  (full-width, mathematical letters), case and accents dropped, Cyrillic and Greek letters
  that look Latin mapped to that letter (the Latin prototypes of Unicode's confusables for
  a-z), and digits or signs written for letters (``sh1t``, ``$hit``) read as those letters.
  Anything that is not a letter then is nothing.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Default_Ignorable_Code_Point (Unicode 15 DerivedCoreProperties), and blanks drawn as nothing.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),  # braille pattern blank: not ignorable, but it draws nothing
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_SMALL_IGNORABLES = frozenset(
    chr(code) for low, high in _IGNORABLE_RANGES if high < 0xE0000 for code in range(low, high + 1)
)

# Letters of other scripts that look like Latin ones (lower case: ``skeleton`` folds case
# first; ``latin_lookalike`` keeps it), and digits or signs written for letters.
_LOOKALIKES_LOWER = {
    "а": "a", "б": "b", "в": "b", "г": "r", "е": "e", "ё": "e", "з": "3", "и": "u", "к": "k",
    "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
    "ь": "b", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h",
    "ӏ": "l", "ո": "n", "ս": "u", "օ": "o", "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e",
    "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
    "ω": "w", "ϲ": "c", "ℓ": "l", "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g", "ꞵ": "b",
}  # fmt: skip
_LOOKALIKES_UPPER = {
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z",
    "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y",
    "Χ": "X",
}  # fmt: skip
_FOR_LETTERS = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}


def is_invisible(ch: str) -> bool:
    """A character that draws nothing (``visible`` removes it)."""
    code = ord(ch)
    return ch in _SMALL_IGNORABLES or 0xE0000 <= code <= 0xE0FFF


def visible(text: str) -> str:
    """``text`` without the characters that draw nothing."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if not is_invisible(ch))


def latin_lookalike(text: str) -> str:
    """``text`` with Cyrillic and Greek letters that look Latin written as those letters, case
    kept, and compatibility forms unfolded (``Ａｓ`` -> ``As``)."""
    if text.isascii():
        return text
    unfolded = unicodedata.normalize("NFKC", text)
    return "".join(_LOOKALIKES_UPPER.get(ch) or _LOOKALIKES_LOWER.get(ch, ch) for ch in unfolded)


@lru_cache(maxsize=4096)
def skeleton(ch: str) -> str:
    """The letters one character looks like ("" when none): ``Ś`` -> ``s``, Cyrillic ``с`` ->
    ``c``, ``1`` -> ``i``, ``ß`` -> ``ss``, ``.`` -> ``""``."""
    found = []
    for part in unicodedata.normalize("NFKD", ch.casefold()):
        if unicodedata.combining(part):
            continue
        part = _LOOKALIKES_LOWER.get(part, part)
        part = _FOR_LETTERS.get(part, part)
        if part.isalpha():
            found.append(part)
    return "".join(found)


def letters(text: str) -> str:
    """Every character of ``text`` as its skeleton, run together."""
    return "".join(skeleton(ch) for ch in text)


def without_repeats(letters_only: str) -> str:
    """Runs of one letter written once (``merdaaa`` -> ``merda``, ``porra`` -> ``pora``)."""
    out: list[str] = []
    for ch in letters_only:
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out)
