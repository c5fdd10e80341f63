"""The PHH hand-history document: TOML fields and the action-line grammar.

PHH (the ``phh-std`` Poker Hand History format) stores one hand as TOML: the variant, stakes,
``starting_stacks``, an ``actions`` array of lines such as ``"d dh p1 AcAs"``, ``"p2 cbr 300"``,
``"p1 sm AcAs"``, and optional fields (``finishing_stacks``, ``players``, ...). Players are
named by position ``p1..pn``: p1 is the first player after the button (the small blind, or the
big blind heads-up), the button is pn. This module only reads and writes documents; turning
them into hands of a given variant lives in ``phh_holdem`` and ``phh_draw``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import Any

from ahiko.poker.cards import DECK_SIZE, Card, CardError, format_card, parse_card
from ahiko.poker.fast_init import fast_constructor, fast_init
from ahiko.poker.games import DRAW, HOLDEM

from .flat_toml import loads_flat
from .toml_writer import dumps_table

UNKNOWN_CARD = "??"
HOLDEM_VARIANT = HOLDEM.phh_code  # No-Limit Texas Hold'em
DRAW_VARIANT = DRAW.phh_code  # ours for fixed-limit five-card draw (docs/history-formats.md)

# Fields written first, in this order; any other field keeps the order it was given in.
_FIELD_ORDER = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "small_bet",
    "big_bet",
    "raise_cap",
    "starting_stacks",
    "actions",
)


class PhhError(ValueError):
    """A hand history that cannot be read or replayed; the message says where and why."""


@fast_init
@dataclass(frozen=True, slots=True)
class DealHole:
    """``d dh pN CARDS``: cards dealt to a player (``None`` = unknown card ``??``)."""

    player: int  # 0-based position index (p1 -> 0)
    cards: tuple[Card | None, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class DealBoard:
    """``d db CARDS``: community cards."""

    cards: tuple[Card | None, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerMove:
    """``pN VERB [ARG]``: f (fold), cc (check/call), cbr (bet/raise to), sd (discard, or
    stand pat without cards), sm (show, or muck without cards)."""

    player: int
    verb: str
    amount: int | None = None
    cards: tuple[Card | None, ...] = ()


PhhAction = DealHole | DealBoard | PlayerMove

# The parsed lines of the usual spellings, through the fast constructors (the same objects as
# the classes' calls, built for less: ``fast_init``).
_new_player_move = fast_constructor(PlayerMove)
_new_deal_hole = fast_constructor(DealHole)
_new_deal_board = fast_constructor(DealBoard)

PLAYER_VERBS = frozenset({"f", "cc", "cbr", "sd", "sm"})

# Every card as written ("Ah") and the unknown card, for the common case of a clean file.
KNOWN_CARD_CODES: dict[str, Card] = {format_card(c): c for c in range(DECK_SIZE)}
CARD_CODES: dict[str, Card | None] = {**KNOWN_CARD_CODES, UNKNOWN_CARD: None}
# "p1".."p9" as written; anything else (and any error) goes through _parse_player.
PLAYER_INDEX = {f"p{k + 1}": k for k in range(9)}
# "d dh p1 ".."d dh p9 ": the start of the usual hole-card line, with its position index.
HOLE_LINE_PREFIXES = {f"d dh {label} ": k for label, k in PLAYER_INDEX.items()}
# The most frequent lines, whole ("p3 f", "p1 cc", "p2 sm"), already parsed; moves are frozen,
# so one object serves every file. A table smaller than p9 only uses the first entries.
COMMON_LINES: dict[str, PlayerMove] = {
    f"{label} {verb}": PlayerMove(k, verb)
    for label, k in PLAYER_INDEX.items()
    for verb in ("f", "cc", "sm", "sd")
}


@lru_cache(maxsize=16)
def betting_lines(player_count: int) -> dict[str, tuple[PlayerMove, str]]:
    """The common fold and check/call lines of a table of ``player_count`` players, each as
    (parsed move, line): a replay files them as they are, with no parsing and no new tuple."""
    return {
        line: (move, line)
        for line, move in COMMON_LINES.items()
        if move.player < player_count and move.verb in ("f", "cc")
    }


@dataclass(slots=True)
class PhhDocument:
    """A parsed PHH file. ``fields`` keeps every TOML field (including the ones given their
    own attribute) so that nothing is lost on a round trip."""

    variant: str
    starting_stacks: list[float]
    actions: list[str]
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def finishing_stacks(self) -> list[float] | None:
        value = self.fields.get("finishing_stacks")
        if value is None:
            return None
        if type(value) is list and set(map(type, value)) <= _NUMBER_TYPES:  # the usual
            return list(value)
        return [_number(v, "finishing_stacks") for v in value]

    @property
    def players(self) -> list[str] | None:
        value = self.fields.get("players")
        return None if value is None else [str(v) for v in value]

    def parsed_actions(self) -> list[PhhAction]:
        n = self.player_count
        return [parse_action(line, n) for line in self.actions]


def loads(text: str) -> PhhDocument:
    """Read one PHH document from TOML text."""
    raw = loads_flat(text)
    if raw is None:
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise PhhError(f"not valid TOML: {exc}") from exc
        except (RecursionError, ValueError) as exc:  # arrays nested too deep, a huge integer
            raise PhhError(f"not readable: {exc}") from exc
    for name in ("variant", "starting_stacks", "actions"):
        if name not in raw:
            raise PhhError(f"missing required field {name!r}")
    actions = raw["actions"]
    # the usual array: plain strings only (tested by type, one set), else each one's isinstance
    if not (type(actions) is list and set(map(type, actions)) <= _STR_ONLY) and (
        not isinstance(actions, list) or not all(map(isinstance, actions, repeat(str)))
    ):
        raise PhhError("field 'actions' must be an array of strings")
    stacks = raw["starting_stacks"]
    if not isinstance(stacks, list) or not stacks:
        raise PhhError("field 'starting_stacks' must be a non-empty array of numbers")
    if not set(map(type, stacks)) <= _NUMBER_TYPES:
        stacks = [_number(v, "starting_stacks") for v in stacks]  # names the bad value
    return PhhDocument(
        variant=str(raw["variant"]),
        starting_stacks=list(stacks),
        actions=list(actions),
        fields=raw,  # the reader's own new dict: nobody else holds it
    )


def dumps(doc: PhhDocument) -> str:
    """Write a PHH document as TOML (required fields first, ``actions`` one per line)."""
    merged: dict[str, Any] = dict(doc.fields)
    merged["variant"] = doc.variant
    merged["starting_stacks"] = doc.starting_stacks
    merged["actions"] = doc.actions
    ordered = {k: merged[k] for k in _FIELD_ORDER if k in merged}
    ordered.update({k: v for k, v in merged.items() if k not in ordered})
    return dumps_table(ordered, multiline_keys=("actions",))


def parse_action(line: str, player_count: int) -> PhhAction:
    """Parse one action line; the ``# commentary`` part, if any, is dropped."""
    common = COMMON_LINES.get(line)
    if common is not None and common.player < player_count:
        return common
    # Fast paths for the usual spellings; anything else (and every error) takes the full
    # grammar below.
    head = line[:5]
    if head == "d dh " and len(line) == 12:  # "d dh p1 AcKd"
        player = PLAYER_INDEX.get(line[5:7], player_count)
        first, second = CARD_CODES.get(line[8:10], -1), CARD_CODES.get(line[10:12], -1)
        if player < player_count and first != -1 and second != -1 and line[7] == " ":
            return _new_deal_hole(player, (first, second))
    elif head == "d db " and len(line) in (11, 7):  # "d db 7dAcAd", "d db 9h"
        cards = tuple([CARD_CODES.get(line[i : i + 2], -1) for i in range(5, len(line), 2)])
        if -1 not in cards:
            return _new_deal_board(cards)
    elif line[2:7] == " cbr ":  # "p5 cbr 225"
        move = usual_bet(line, player_count)
        if move is not None:
            return move
    words = (line.split("#", 1)[0] if "#" in line else line).split()
    if not words:
        raise PhhError(f"empty action line {line!r}")
    count = len(words)
    try:
        if words[0] == "d":
            return _parse_dealing(words, player_count, line)
        player = PLAYER_INDEX.get(words[0], player_count)
        if player >= player_count:
            player = _parse_player(words[0], player_count, line)
        verb = words[1] if count > 1 else ""
        if verb not in PLAYER_VERBS:
            raise PhhError(f"unknown or unsupported action {verb!r} in {line!r}")
        if verb == "cbr":
            if count != 3:
                raise PhhError(f"'cbr' needs one amount in {line!r}")
            return PlayerMove(player, verb, _parse_amount(words[2], line))
        if verb == "sd" or verb == "sm":
            if count > 3:
                raise PhhError(f"too many words in {line!r}")
            return PlayerMove(player, verb, None, parse_phh_cards(words[2]) if count == 3 else ())
        if count != 2:
            raise PhhError(f"unexpected words after {verb!r} in {line!r}")
        return PlayerMove(player, verb)
    except CardError as exc:
        raise PhhError(f"bad card in {line!r}: {exc}") from exc


def usual_bet(line: str, player_count: int) -> PlayerMove | None:
    """``pN cbr AMOUNT`` as usually written (callers check ``line[2:7] == " cbr "`` first),
    or None: the full grammar reads anything else and names what is wrong."""
    player = PLAYER_INDEX.get(line[:2], player_count)
    amount = line[7:]
    if player < player_count and amount.isascii() and amount.isdigit():
        return _new_player_move(player, "cbr", int(amount))
    return None


def parse_phh_cards(text: str) -> tuple[Card | None, ...]:
    """ "AcAs" -> (48, 51); "????" -> (None, None); "Ac??" -> (48, None)."""
    if len(text) % 2:
        raise CardError(f"odd number of characters in {text!r}")
    codes = CARD_CODES
    try:
        return tuple([codes[text[i : i + 2]] for i in range(0, len(text), 2)])
    except KeyError:  # another spelling ("ah") or junk: the full parser decides
        pairs = [text[i : i + 2] for i in range(0, len(text), 2)]
        return tuple(None if p == UNKNOWN_CARD else parse_card(p) for p in pairs)


def format_phh_cards(cards: tuple[Card | None, ...] | list[Card | None]) -> str:
    return "".join(UNKNOWN_CARD if c is None else format_card(c) for c in cards)


def player_label(index: int) -> str:
    """0 -> "p1"."""
    return f"p{index + 1}"


def _parse_dealing(words: list[str], player_count: int, line: str) -> PhhAction:
    if len(words) == 4 and words[1] == "dh":
        player = PLAYER_INDEX.get(words[2], player_count)
        if player >= player_count:
            player = _parse_player(words[2], player_count, line)
        return DealHole(player, parse_phh_cards(words[3]))
    if len(words) == 3 and words[1] == "db":
        return DealBoard(parse_phh_cards(words[2]))
    raise PhhError(f"unknown or unsupported dealing {line!r}")


def _parse_player(word: str, player_count: int, line: str) -> int:
    if not (word.startswith("p") and word[1:].isdigit()):
        raise PhhError(f"expected a player like 'p1' in {line!r}, got {word!r}")
    index = int(word[1:]) - 1
    if not 0 <= index < player_count:
        raise PhhError(f"player {word} out of range 1..{player_count} in {line!r}")
    return index


def _parse_amount(word: str, line: str) -> int:
    if not word.isdigit():
        raise PhhError(f"amount must be a whole number of chips in {line!r}, got {word!r}")
    return int(word)


_NUMBER_TYPES = {int, float}  # what a numeric field may hold (bool is not a number here)
_STR_ONLY = {str}


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PhhError(f"field {name!r} must hold numbers, got {value!r}")
    return value
