"""The bot ladder: heads-up duplicate matches between adjacent levels, 100 big blinds deep,
fixed seeds, and the 95% lower bound of the stronger bot's win rate against its target.

NLHE: easy-random >= 100, normal-easy >= 20, hard-normal >= 10 bb/100; five-card draw
(fixed limit, ante 1, bets 2/4, "bb" = the big bet): easy-random >= 50, normal-easy >= 5,
hard-normal >= 3. ``--json`` prints one JSON line; ``--workers`` splits each match over
processes (the machine is shared: default 1).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ahiko.bots.arena import run_match

# (variant, stronger, weaker, target lower bound, default pairs, seed)
LADDER = [
    ("holdem", "easy", "random", 100.0, 4_000, 101),
    ("holdem", "normal", "easy", 20.0, 30_000, 102),
    ("holdem", "hard", "normal", 10.0, 8_000, 103),
    ("draw", "easy", "random", 50.0, 2_000, 201),
    ("draw", "normal", "easy", 5.0, 20_000, 202),
    ("draw", "hard", "normal", 3.0, 6_000, 203),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every pair count")
    parser.add_argument("--only", help="run only rungs whose 'variant:a-b' contains this")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, float | int | str] = {}
    for variant, a, b, target, pairs, seed in LADDER:
        name = f"{variant}:{a}-{b}"
        if args.only and args.only not in name:
            continue
        n = max(2, round(pairs * args.scale))
        t0 = time.perf_counter()
        r = run_match(variant, a, b, n, seed, 100, args.workers)
        seconds = time.perf_counter() - t0
        key = f"{variant}_{a}_vs_{b}"
        figures[f"{key}_pairs"] = n
        figures[f"{key}_bb_per_100"] = round(r.bb_per_100, 2)
        figures[f"{key}_ci95_low"] = round(r.ci95_low, 2)
        figures[f"{key}_target_low"] = target
        figures[f"{key}_met"] = "yes" if r.ci95_low >= target else "no"
        if not args.json:
            print(
                f"{name:22} pairs={n:6} seed={seed}  {r.bb_per_100:+8.1f} bb/100  "
                f"95% CI [{r.ci95_low:+.1f}, {r.ci95_high:+.1f}]  target low >= {target:g}: "
                f"{'met' if r.ci95_low >= target else 'NOT met'}  ({seconds:.0f} s)",
                flush=True,
            )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
