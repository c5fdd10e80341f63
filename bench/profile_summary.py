"""Summarise a py-spy ``--format raw`` profile (collapsed stacks, ``frame;frame;... count``):
the share of samples under each of a few named areas of the server, then the top functions by
self and by inclusive time.

    python bench/profile_summary.py server.spy [--top 25]
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

# area -> substrings of a frame ("function (file:line)"); the first area matched from the
# stack's leaf upwards wins, so a JSON encode inside a frame builder counts as encoding.
AREAS: list[tuple[str, tuple[str, ...]]] = [
    ("idle (event loop waiting)", ("select (selectors.py", "epoll")),
    ("JSON encode", ("json/encoder.py", "dumps (json/")),
    (
        "WebSocket write / send path",
        ("websockets_sansio_impl", "websockets/", "transports.py", "write (", "_write_ready"),
    ),
    ("database", ("sqlalchemy", "sqlite3")),
    ("seat views / frames", ("view.py", "frames.py", "hand_frame", "fanout")),
    ("rules engine", ("ahiko/poker/",)),
    ("rooms (actor, handlers)", ("ahiko/rooms/",)),
    ("gateway / server", ("ahiko/server/",)),
    ("garbage collector", ("gc_collect", "<gc>")),
    ("asyncio machinery", ("asyncio/",)),
]


def read(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text(errors="replace").splitlines():
        body, _, count = line.rpartition(" ")
        if body and count.isdigit():
            stacks.append((body.split(";"), int(count)))
    return stacks


def area_of(frames: list[str]) -> str:
    for frame in reversed(frames):
        for area, marks in AREAS:
            if any(mark in frame for mark in marks):
                return area
    return "other"


def summarise(path: Path, top: int) -> str:
    stacks = read(path)
    total = sum(n for _, n in stacks) or 1
    areas: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    for frames, n in stacks:
        areas[area_of(frames)] += n
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
    busy = total - areas["idle (event loop waiting)"]
    lines = [
        f"{path.name}: {total} samples, {100 * busy / total:.1f}% busy",
        "",
        "area | share of busy samples",
        "---|---",
    ]
    for area, n in areas.most_common():
        if not area.startswith("idle"):
            lines.append(f"{area} | {100 * n / max(busy, 1):.1f}%")
    lines += ["", f"top {top} functions by self samples (share of busy):"]
    for frame, n in own.most_common(top + 2):
        if "select (selectors" not in frame:
            lines.append(f"  {100 * n / max(busy, 1):5.1f}%  {frame}")
    lines += ["", f"top {top} functions by inclusive samples (share of all):"]
    for frame, n in inclusive.most_common(top):
        lines.append(f"  {100 * n / total:5.1f}%  {frame}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(summarise(args.profile, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
