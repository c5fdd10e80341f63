"""Whether a chat line names a card: a rank and a suit, in any written form.

While a hand runs, a player dealt into it could tell the table their cards; the room holds such
a line back (``TableChat``). Read on the visible text (``chat_skeleton.visible``: what draws
nothing is gone, so ``A͏♠`` is ``A♠``), with look-alike letters of other scripts as Latin ones:

- a playing-card glyph (🂡), or a rank next to a suit glyph, signs or spaces between them
  allowed (``A♠``, ``A-♠``, ``10 ♥``, ``♠A``);
- letters: a rank (``A K Q J T``, ``2``-``10``) written right before a suit letter (``s h d c``),
  a sign between them allowed (``Kd``, ``K-d``, ``AsKd``). ``As``, ``Ah``, ``Ad``, ``Ac`` are
  also words (pt-BR "as", "ah") and ``2s`` or ``5h`` are times: such a card counts when the
  line names another card too (``As Kd``);
- words, pt-BR and English: a rank word then a suit word, one "of"/"de" between them allowed
  (``ace of spades``, ``ás de espadas``, ``K de copas``, ``7 of hearts``).
"""

from __future__ import annotations

import re
import unicodedata

from ahiko.rooms.chat_skeleton import is_invisible, latin_lookalike, visible

_PLAYING_CARD = re.compile(r"[\U0001F0A0-\U0001F0FF]")
_SUIT_GLYPHS = "\u2660-\u2667"
_RANK = r"(?:10|[2-9AKQJTakqjt])"
_GLYPH_CARD = re.compile(
    rf"(?<![^\W\d_]){_RANK}[^\w{_SUIT_GLYPHS}]{{0,3}}[{_SUIT_GLYPHS}]"
    rf"|[{_SUIT_GLYPHS}][^\w{_SUIT_GLYPHS}]{{0,3}}{_RANK}(?![^\W\d_])"
)
# Ranks in upper case or digits, suits in either case: "asks" is a word, "AsKs" two cards.
_LETTER_CARDS = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:10|[2-9AKQJT])[-._/|:]?[shdcSHDC]){1,7}(?![A-Za-z0-9])"
)
_ONE_LETTER_CARD = re.compile(r"(10|[2-9AKQJT])[-._/|:]?([shdcSHDC])")
# A single letter card that is also a word or a time counts only beside another card.
_AMBIGUOUS_RANKS = frozenset("A23456789") | {"10"}

RANK_WORDS = frozenset(
    {
        "ace", "aces", "king", "kings", "queen", "queens", "jack", "jacks", "ten", "tens",
        "nine", "nines", "eight", "eights", "seven", "sevens", "six", "sixes", "five", "fives",
        "four", "fours", "three", "threes", "two", "twos", "deuce", "deuces", "trey",
        "as", "ases", "rei", "reis", "dama", "damas", "rainha", "valete", "valetes", "dez",
        "nove", "oito", "sete", "seis", "cinco", "quatro", "tres", "dois", "duque",
        "a", "k", "q", "j", "t", "10", "2", "3", "4", "5", "6", "7", "8", "9",
    }
)  # fmt: skip
SUIT_WORDS = frozenset(
    {
        "spade", "spades", "heart", "hearts", "diamond", "diamonds", "club", "clubs",
        "espada", "espadas", "copas", "ouros", "paus",
    }
)  # fmt: skip
CONNECTORS = frozenset({"of", "de", "do", "da"})
_TOKEN = re.compile(r"[^\W_]+")


def names_a_card(text: str) -> bool:
    """Whether ``text`` names a card (a rank and a suit) in any form people read as one."""
    seen = latin_lookalike(visible(text))
    if _PLAYING_CARD.search(seen) or _GLYPH_CARD.search(seen):
        return True
    cards, ambiguous = _letter_cards(seen)
    if cards > ambiguous or cards >= 2:
        return True
    # A blank look-alike used as a space still parts two words for the reader.
    spaced = latin_lookalike("".join(" " if is_invisible(ch) else ch for ch in text))
    return _card_in_words(seen) or _card_in_words(spaced)


def _letter_cards(text: str) -> tuple[int, int]:
    """How many letter-form cards ``text`` writes, and how many of those, written alone in
    their word, are also words or times (``As``, ``2s``)."""
    cards = ambiguous = 0
    for word in _LETTER_CARDS.finditer(text):
        found = _ONE_LETTER_CARD.findall(word.group(0))
        cards += len(found)
        if len(found) == 1 and found[0][0] in _AMBIGUOUS_RANKS:
            ambiguous += 1
    return cards, ambiguous


def _card_in_words(text: str) -> bool:
    """A rank word then a suit word, one connector between them allowed."""
    tokens = [_fold(t) for t in _TOKEN.findall(text)]
    for i, token in enumerate(tokens):
        if token not in RANK_WORDS:
            continue
        after = tokens[i + 1 : i + 3]
        if after[:1] and after[0] in SUIT_WORDS:
            return True
        if len(after) == 2 and after[0] in CONNECTORS and after[1] in SUIT_WORDS:
            return True
    return False


def _fold(token: str) -> str:
    decomposed = unicodedata.normalize("NFKD", token.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
