"""``ahiko hh``: hand-history tools (replay PHH files through our engine, export)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    hh = subparsers.add_parser("hh", help="hand histories: replay and export PHH files")
    sub = hh.add_subparsers(dest="hh_command", metavar="HH_COMMAND")
    hh.set_defaults(func=lambda args: (hh.print_help(), 2)[1])

    replay = sub.add_parser(
        "replay", help="replay PHH files through our engine and compare finishing stacks"
    )
    replay.add_argument("paths", nargs="+", metavar="PATH", help="a .phh file or a folder")
    replay.add_argument("--json", action="store_true", help="one JSON line per hand")
    replay.add_argument(
        "--strict", action="store_true", help="count files of variants we do not play as failures"
    )
    replay.set_defaults(func=run_replay)

    export = sub.add_parser("export", help="replay one PHH file and write it as PHH or PokerStars")
    export.add_argument("path", metavar="PATH", help="a .phh file (NT or FD-AHIKO)")
    export.add_argument("--format", choices=("pokerstars", "phh"), default="pokerstars")
    export.add_argument(
        "--viewer", type=int, default=None, help="write only what this seat may see (0-based)"
    )
    export.set_defaults(func=run_export)


def run_replay(args: argparse.Namespace) -> int:
    from .replay import find_phh_files, replay_file

    try:
        files = find_phh_files(args.paths)
    except FileNotFoundError as exc:
        print(f"ahiko hh replay: {exc}", file=sys.stderr)
        return 1
    failures = 0
    say: Callable[[str], object] = partial(print, flush=True)
    each: Iterable[Path] = files
    if not args.json and sys.stderr.isatty() and len(files) > 1:
        # A bar on a terminal, for a large folder; tqdm only then (the --json path starts fast).
        from tqdm import tqdm

        bar = tqdm(files, unit="file", file=sys.stderr, leave=False)
        each, say = bar, bar.write
    for path in each:
        outcome = replay_file(path)
        if not outcome.passed(strict=args.strict):
            failures += 1
        say(json.dumps(outcome.to_json()) if args.json else _describe(outcome))
    if not args.json:
        print(f"{len(files)} file(s), {failures} failed", file=sys.stderr)
    return 1 if failures else 0


def _describe(outcome: Any) -> str:
    if outcome.error is not None:
        return f"FAIL  {outcome.file}: {outcome.error}"
    if outcome.skipped is not None:
        return f"SKIP  {outcome.file}: {outcome.skipped}"
    if outcome.match is None:
        return f"OK    {outcome.file}: {outcome.finishing_stacks} (nothing recorded to compare)"
    if outcome.match:
        return f"OK    {outcome.file}: {outcome.finishing_stacks}"
    return f"DIFF  {outcome.file}: ours {outcome.finishing_stacks}, recorded {outcome.expected}"


def run_export(args: argparse.Namespace) -> int:
    from .exporting import export_text

    try:
        text = export_text(Path(args.path).read_text(encoding="utf-8"), args.format, args.viewer)
    except (OSError, ValueError) as exc:
        print(f"ahiko hh export: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0
