"""The ``ahiko`` command. Each subpackage that offers commands has a ``cli`` module with
``register(subparsers)``; this file only gathers them, so features add commands without
touching one shared file."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

import ahiko


def _command_modules() -> list[str]:
    """The subpackages with a ``cli`` module, found on disk: looking a submodule up with
    ``importlib.util.find_spec`` would import its package (the wallet: SQLAlchemy) just to
    start the command line. Each ``cli`` module imports what its commands use when they run."""
    names = []
    for info in pkgutil.iter_modules(ahiko.__path__):
        spec = info.module_finder.find_spec(info.name, None) if info.ispkg else None
        places = (spec.submodule_search_locations or []) if spec is not None else []
        if any((Path(place) / "cli.py").is_file() for place in places):
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
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:  # no parser to build
        print(f"ahiko {ahiko.__version__}")
        return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
