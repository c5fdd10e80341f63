"""Table chat text: what a message may be, and the word filter.

A message is plain text: at most ``CHAT_MAX_CHARS`` characters once trimmed, no control
characters (line breaks included: one line), no markup interpretation anywhere (clients show
it as text; links stay text). Card glyphs are masked, so a chat line never shows a card
(``♠``, ``🂡``, ``A♠``...). The word filter masks words of the operator's lists (pt-BR and
English defaults here; ``AHIKO_CHAT_WORDS`` adds a file of more, one word a line), matched
on whole words, ignoring case, accents and simple letter-for-digit spellings."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

CHAT_MAX_CHARS = 200

# Small default lists; an operator extends them with a file (``WordFilter.with_file``).
DEFAULT_WORDS_PT_BR = (
    "porra",
    "caralho",
    "puta",
    "merda",
    "fdp",
    "viado",
    "otario",
    "babaca",
    "arrombado",
    "cuzao",
    "vagabundo",
    "buceta",
)
DEFAULT_WORDS_EN = (
    "fuck",
    "fucking",
    "shit",
    "bitch",
    "cunt",
    "asshole",
    "bastard",
    "dick",
    "faggot",
    "retard",
    "motherfucker",
    "whore",
)

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_CARD_GLYPHS = re.compile(r"[\u2660-\u2667\U0001F0A0-\U0001F0FF]")
_RANK_BEFORE_GLYPH = re.compile(r"(?i)\b(10|[2-9tjqka])\s*(?=\*)")
_WORD = re.compile(r"[\w@$]+", re.UNICODE)


class ChatTextError(ValueError):
    """Text that cannot be a chat message; ``code`` says why, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _fold(word: str) -> str:
    """Lower case, no accents, digits read as the letters they stand for."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return plain.translate(_LEET)


def clean_text(text: str) -> str:
    """The message as it will be sent, or ``ChatTextError`` (empty, too long, control
    characters). Surrounding spaces are trimmed and runs of spaces become one."""
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text):
        raise ChatTextError("chat_control_chars", "a message is one line of plain text")
    trimmed = " ".join(text.split())
    if not trimmed:
        raise ChatTextError("chat_empty", "a message needs some text")
    if len(trimmed) > CHAT_MAX_CHARS:
        raise ChatTextError(
            "chat_too_long", f"a message is at most {CHAT_MAX_CHARS} characters, not {len(trimmed)}"
        )
    return trimmed


def mask_cards(text: str) -> str:
    """No card in a chat line: suit and playing-card glyphs become ``*``, and so does the rank
    written right before one (``A♠`` -> ``**``)."""
    masked = _CARD_GLYPHS.sub("*", text)
    if masked == text:
        return text
    return _RANK_BEFORE_GLYPH.sub(lambda m: "*" * len(m.group(0)), masked)


@dataclass(frozen=True)
class WordFilter:
    words: frozenset[str] = field(
        default_factory=lambda: frozenset(_fold(w) for w in DEFAULT_WORDS_PT_BR + DEFAULT_WORDS_EN)
    )

    @classmethod
    def of(cls, words: Iterable[str]) -> WordFilter:
        return cls(frozenset(_fold(w) for w in words if w.strip()))

    def with_words(self, words: Iterable[str]) -> WordFilter:
        return WordFilter(self.words | WordFilter.of(words).words)

    def with_file(self, path: Path) -> WordFilter:
        """The operator's list: one word a line; ``#`` starts a comment."""
        lines = path.read_text(encoding="utf-8").splitlines()
        return self.with_words(line.split("#", 1)[0].strip() for line in lines)

    def apply(self, text: str) -> str:
        """``text`` with each listed word replaced by asterisks of the same length."""

        def mask(match: re.Match[str]) -> str:
            word = match.group(0)
            return "*" * len(word) if _fold(word) in self.words else word

        return _WORD.sub(mask, text)
