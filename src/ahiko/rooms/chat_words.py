"""Table chat text: what a message may be, and the word filter.

A message is plain text: at most ``CHAT_MAX_CHARS`` characters once trimmed, no control
characters (line breaks included: one line), no markup interpretation anywhere (clients show
it as text; links stay text). Characters that draw nothing are removed first
(``chat_skeleton.visible``): a message of only those is blank, and refused. Card glyphs are
masked, so a chat line never shows a card (``♠``, ``🂡``, ``A♠``...).

The word filter works on what people see. It reads each word as its skeleton
(``chat_skeleton``: no case, accents, look-alike letters of other scripts, digits for letters,
nor anything that is not a letter, so ``f.d.p``, ``f_u_c_k`` and ``sh1t`` are their words),
single letters spaced out (``s h i t``) as one word, and a letter written many times as once
(``merdaaa``). A listed word masks a word that is it, or that begins with it (``putaria``,
``fucking``) or ends with it (``bullshit``) when it has four letters or more, unless the word
begins with an innocent stem (``disputa``, ``computador``, ``Dickens``). The lists: pt-BR and
English defaults here, and the operator's file (``LiveWordFilter``: ``chat_words.txt`` in the
data folder, or ``AHIKO_CHAT_WORDS``), one word a line, ``!stem`` for an innocent stem, read
again whenever it changes: no restart, no deploy."""

from __future__ import annotations

import os
import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ahiko.rooms.chat_skeleton import letters, skeleton, visible, without_repeats

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

# Words that begin with a listed word's letters and are not it (a listed word of four
# letters or more also masks the words it begins or ends).
DEFAULT_INNOCENT_STEMS = (
    "disput",
    "comput",
    "deput",
    "reput",
    "imput",
    "amput",
    "dicken",
    "dickinson",
    "shitak",
    "scunthorp",
    "retardar",
)
CHAT_WORDS_FILE = "chat_words.txt"  # the operator's list, in the data folder
COMPOUND_MIN_LETTERS = 4  # shorter listed words ("fdp") mask only themselves
_CARD_GLYPHS = re.compile(r"[\u2660-\u2667\U0001F0A0-\U0001F0FF]")
_RANK_BEFORE_GLYPH = re.compile(r"(?i)\b(10|[2-9tjqka])\s*(?=\*)")
_CHUNK = re.compile(r"\S+")


class ChatTextError(ValueError):
    """Text that cannot be a chat message; ``code`` says why, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _fold(word: str) -> str:
    """A listed word as the filter compares it: its letters' skeleton, repeats written once."""
    return without_repeats(letters(unicodedata.normalize("NFC", word)))


def clean_text(text: str) -> str:
    """The message as it will be sent, or ``ChatTextError`` (empty, too long, control
    characters). What draws nothing is removed first; surrounding spaces are trimmed and
    runs of spaces become one."""
    text = visible(text)
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
    innocent: tuple[str, ...] = DEFAULT_INNOCENT_STEMS

    @classmethod
    def of(cls, words: Iterable[str]) -> WordFilter:
        return cls(frozenset(f for w in words if (f := _fold(w))))

    def with_words(self, words: Iterable[str]) -> WordFilter:
        listed = [w.strip() for w in words if w.strip()]
        stems = tuple(letters(w[1:]) for w in listed if w.startswith("!") and letters(w[1:]))
        masked = WordFilter.of(w for w in listed if not w.startswith("!")).words
        return WordFilter(self.words | masked, self.innocent + stems)

    def with_file(self, path: Path) -> WordFilter:
        """The operator's list: one word a line, ``!stem`` an innocent stem; ``#`` starts a
        comment."""
        lines = path.read_text(encoding="utf-8").splitlines()
        return self.with_words(line.split("#", 1)[0].strip() for line in lines)

    def listed(self, word_letters: str) -> bool:
        """Whether a word (its skeleton) is a listed word, or a compound of one."""
        found = without_repeats(word_letters)
        if found in self.words:
            return True
        if found.startswith(self.innocent):
            return False
        return any(
            len(word) >= COMPOUND_MIN_LETTERS and (found.startswith(word) or found.endswith(word))
            for word in self.words
        )

    def apply(self, text: str) -> str:
        """``text`` with each listed word masked by asterisks, character for character, from
        its first letter to its last (the signs around it, ``!`` or ``,``, stay)."""
        masked = list(text)
        for start, end, word_letters in _words(text):
            if not word_letters or not self.listed(word_letters):
                continue
            shown = [i for i in range(start, end) if skeleton(text[i])]
            for i in range(shown[0], shown[-1] + 1):
                if not masked[i].isspace():
                    masked[i] = "*"
        return "".join(masked)


def _words(text: str) -> Iterator[tuple[int, int, str]]:
    """Each word of ``text`` as (start, end, its letters' skeleton): a run of spaced-out
    single letters (and signs between them: ``s h i t``, ``f . d . p``) is one word."""
    run: list[tuple[int, int, str]] = []
    for match in _CHUNK.finditer(text):
        found = letters(match.group(0))
        if len(found) <= 1:
            run.append((match.start(), match.end(), found))
            continue
        yield from _joined(run)
        run = []
        yield match.start(), match.end(), found
    yield from _joined(run)


def _joined(run: list[tuple[int, int, str]]) -> Iterator[tuple[int, int, str]]:
    if sum(1 for _s, _e, found in run if found) >= 2:
        yield run[0][0], run[-1][1], "".join(found for _s, _e, found in run)
    else:
        yield from run


class LiveWordFilter:
    """The defaults and the operator's file, read again when the file changes (its size or
    modification time), so a word added to it masks from the next message on. A missing file
    is an empty list; an unreadable one keeps the last list read."""

    def __init__(self, path: Path | None, base: WordFilter | None = None) -> None:
        self.path = path
        self._base = base or WordFilter()
        self._current = self._base
        self._seen: tuple[int, int] | None = None
        self._lock = threading.Lock()

    @property
    def current(self) -> WordFilter:
        if self.path is None:
            return self._base
        try:
            stat = os.stat(self.path)
            seen = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            seen = (0, -1)
        with self._lock:
            if seen != self._seen:
                try:
                    read = self._base if seen[1] < 0 else self._base.with_file(self.path)
                except (OSError, UnicodeDecodeError):
                    read = self._current
                self._current, self._seen = read, seen
            return self._current

    def apply(self, text: str) -> str:
        return self.current.apply(text)
