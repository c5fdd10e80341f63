"""Replay PHH files through our engine and compare with the recorded finishing stacks."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ahiko.poker.actions import IllegalAction
from ahiko.poker.cards import CardError
from ahiko.poker.fast_init import fast_constructor, fast_init
from ahiko.poker.games import BY_PHH_CODE

from .phh import PhhDocument, PhhError, loads
from .phh_draw import draw_finishing_stacks, draw_from_phh
from .phh_holdem import holdem_finishing_stacks, holdem_from_phh

# PHH code -> whether the game has a draw: read once here, as ``Game.has_draw`` walks the
# streets on every call and a replay asks for every file.
_PLAYS_DRAW = {code: played.has_draw for code, played in BY_PHH_CODE.items()}

# Recorded histories write a split's odd chip as a half chip (10112.5); our integer rule
# (R-PT-05) is within half a chip of it.
HALF_CHIP_TOLERANCE = 0.5

# PHH variant codes of games Ahiko does not play, for a readable "skipped" reason.
FOREIGN_VARIANTS = {
    "FT": "fixed-limit Texas hold'em",
    "NS": "no-limit short-deck hold'em",
    "FO/8": "fixed-limit Omaha hi-lo",
    "F7S": "fixed-limit seven-card stud",
    "F7S/8": "fixed-limit seven-card stud hi-lo",
    "FR": "fixed-limit razz",
    "PD": "pot-limit deuce-to-seven single draw",
    "NS2L1D": "no-limit deuce-to-seven single draw",
    "F2L3D": "fixed-limit deuce-to-seven triple draw",
    "FB": "fixed-limit badugi",
}


@fast_init
@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """One file's replay. ``match`` is None when nothing was recorded to compare with (or the
    file was not replayed); ``error`` says why a replay failed, ``skipped`` why it was not
    attempted."""

    file: str
    finishing_stacks: list[int] | None
    expected: list[float] | None
    match: bool | None
    error: str | None = None
    skipped: str | None = None

    def passed(self, *, strict: bool = False) -> bool:
        if self.error is not None or self.match is False:
            return False
        return not (strict and self.skipped is not None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": self.file,
            "finishing_stacks": self.finishing_stacks,
            "expected": self.expected,
            "match": self.match,
        }
        if self.error is not None:
            out["error"] = self.error
        if self.skipped is not None:
            out["skipped"] = self.skipped
        return out


_new_outcome = fast_constructor(ReplayOutcome)  # ReplayOutcome(...), built for less


def find_phh_files(paths: Iterable[str | Path]) -> list[Path]:
    """Each path is a file, or a folder searched recursively for ``*.phh`` (sorted)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(path.rglob("*.phh")))
        elif path.is_file():
            found.append(path)
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")
    return found


def stacks_match(ours: Sequence[int], expected: Sequence[float]) -> bool:
    if list(ours) == list(expected):  # the usual case: whole chips, equal
        return True
    return len(ours) == len(expected) and all(
        abs(a - b) <= HALF_CHIP_TOLERANCE for a, b in zip(ours, expected, strict=True)
    )


def replay_document(doc: PhhDocument) -> list[int]:
    """Finishing stacks (position order p1..pn) of the document replayed by our engine."""
    plays_draw = _PLAYS_DRAW.get(doc.variant)
    if plays_draw is None:
        raise PhhError(f"variant {doc.variant!r} is not supported")
    if plays_draw:
        return draw_finishing_stacks(draw_from_phh(doc))
    return holdem_finishing_stacks(holdem_from_phh(doc))


def replay_text(text: str, file: str) -> ReplayOutcome:
    try:
        doc = loads(text)
        expected = doc.finishing_stacks
    except PhhError as exc:
        return ReplayOutcome(file, None, None, None, error=str(exc))
    if doc.variant not in BY_PHH_CODE:
        name = FOREIGN_VARIANTS.get(doc.variant, "an unknown variant")
        reason = f"variant {doc.variant!r} ({name}) is not a game Ahiko plays"
        return ReplayOutcome(file, None, expected, None, skipped=reason)
    starting = doc.starting_stacks
    # one scan in C first: most files hold no float, and a generator costs every file
    if float in map(type, starting) and any(
        type(stack) is float and not stack.is_integer() for stack in starting
    ):
        reason = "the stacks are in fractions of a chip: Ahiko plays whole chips"
        return ReplayOutcome(file, None, expected, None, skipped=reason)
    try:
        stacks = replay_document(doc)
    except (PhhError, IllegalAction, CardError, ValueError) as exc:
        return ReplayOutcome(file, None, expected, None, error=str(exc))
    match = None if expected is None else stacks_match(stacks, expected)
    return _new_outcome(file, stacks, expected, match)


def replay_file(path: Path) -> ReplayOutcome:
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        return ReplayOutcome(str(path), None, None, None, error=f"cannot read: {exc}")
    return replay_text(text, str(path))


def read_text(path: Path) -> str:
    """``path.read_text(encoding="utf-8")``, newlines translated the same way, for less: a
    replay reads hundreds of small files. The text layer's three objects per file cost a tenth
    of the replay, and even an unbuffered ``readall`` asks the kernel seven times (open, fstat,
    lseek, fstat, read, a read that finds the end, close); a regular file is read here in four
    (open, fstat, one read of its size plus one byte, close). Anything else (a folder, a pipe),
    and a file that is not UTF-8, is read again the usual way, so the error is the same to the
    byte."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        data = None
        if stat.S_ISREG(info.st_mode):
            size = info.st_size
            data = os.read(fd, size + 1)
            if len(data) != size:  # it changed since fstat, or a short read: read to the end
                data += b"".join(iter(partial(os.read, fd, 1 << 16), b""))
    finally:
        os.close(fd)
    if data is None:
        return path.read_text(encoding="utf-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return path.read_text(encoding="utf-8")
    if "\r" in text:  # universal newlines, as text mode reads them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
