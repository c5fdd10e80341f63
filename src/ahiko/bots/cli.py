"""``ahiko arena``: a duplicate match between two bots, A's win rate with a 95% interval."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .protocol import LEVELS, VARIANTS

SECRET_ENV = "AHIKO_ARENA_SECRET"  # the environment, unlike argv, is not world-readable

# The arena (eval7, numpy) and the sandbox are imported only when a match runs: `ahiko
# --version` and the other commands start without them.


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "arena",
        help="heads-up duplicate match between two bots",
        description="Each deal is played twice with seats swapped; prints A's bb/100 "
        "(draw: big bets/100) with a 95%% confidence interval.",
    )
    p.add_argument("--variant", choices=VARIANTS, default="holdem")
    bot_help = f"a level ({', '.join(LEVELS)}) or package.module:Class"
    p.add_argument("--a", required=True, help=bot_help)
    p.add_argument("--b", required=True, help=bot_help)
    p.add_argument("--pairs", type=int, default=1000, help="duplicate deals (2 hands each)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stack-bb", type=int, default=100, help="starting stacks in big blinds")
    p.add_argument("--workers", type=int, default=1, help="processes (the machine is shared)")
    p.add_argument(
        "--session",
        type=int,
        default=0,
        metavar="HANDS",
        help="session mode: the same two bots play HANDS consecutive deals keeping their "
        "memory, and the mirror session swaps the seats (0: fresh bots every hand)",
    )
    p.add_argument(
        "--secret",
        "--bot-secret",
        dest="secret",
        default=os.environ.get(SECRET_ENV) or None,
        help="the match's secret, which seeds the decks and the bots' rngs, to replay a match "
        f"exactly (default: ${SECRET_ENV}, else a random one; the seed alone gives neither)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_arena)


def _arena(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from .arena import ArenaError, run_match
    from .protocol import BotLoadError
    from .sandbox import SandboxError

    # A bar on a terminal only: quiet when piped, logged or asked for JSON.
    quiet = args.json or not sys.stderr.isatty()
    with tqdm(total=args.pairs, unit="pair", file=sys.stderr, disable=quiet) as bar:
        try:
            r = run_match(
                args.variant,
                args.a,
                args.b,
                args.pairs,
                args.seed,
                args.stack_bb,
                args.workers,
                session=args.session,
                secret=args.secret,
                progress=bar.update,
            )
        except (BotLoadError, ValueError, ArenaError, SandboxError) as exc:
            bar.close()
            print(f"arena: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(r.to_json_dict()))
    else:
        from ahiko.poker.games import BettingStructure, game

        fixed = game(args.variant).betting is BettingStructure.FIXED_LIMIT
        unit = "big bets/100" if fixed else "bb/100"
        mode = f", sessions of {args.session} deals" if args.session else ""
        print(
            f"{r.a} vs {r.b} ({r.variant}, {r.pairs} duplicate pairs{mode}): "
            f"{r.bb_per_100:+.1f} {unit}, 95% CI [{r.ci95_low:+.1f}, {r.ci95_high:+.1f}]"
        )
    return 0
