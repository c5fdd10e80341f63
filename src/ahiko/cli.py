"""The ``ahiko`` command. Each subpackage that offers commands has a ``cli`` module with
``register(subparsers)``; this file only gathers them, so features add commands without
touching one shared file."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Sequence

import ahiko


def _command_modules() -> list[str]:
    names = []
    for info in pkgutil.iter_modules(ahiko.__path__):
        if info.ispkg and importlib.util.find_spec(f"ahiko.{info.name}.cli") is not None:
            names.append(f"ahiko.{info.name}.cli")
    return sorted(names)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ahiko", description="Ahiko poker: server, tools and administration."
    )
    parser.add_argument("--version", action="version", version=f"ahiko {ahiko.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _command_modules():
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
