"""The bot ladder: heads-up duplicate matches between adjacent levels, 100 big blinds deep,
fixed seeds, and the 95% lower bound of the stronger bot's win rate against its target.

NLHE: easy-random >= 100, normal-easy >= 20, hard-normal >= 10 bb/100; five-card draw
(fixed limit, ante 1, bets 2/4, "bb" = the big bet): easy-random >= 50, normal-easy >= 5,
hard-normal >= 3; Pot-Limit Omaha (blinds 1/2): random < easy < normal < hard, each rung's lower
bound above 0 (``--games plo``; the default is hold'em and draw). ``--json`` prints one JSON line; ``--workers`` splits each match over
processes (the machine is shared: default 1). ``--only draw:hard-normal`` runs one rung;
``--seed`` deals every rung from another seed (a check that a result is not the seed's) and
``--secret`` fixes the decks and the bots' rngs (random by default), so two versions of a bot
can be compared on the same deals and rngs.

``--styles``: Hard, Normal and Easy against each opponent style of
ahiko.bots.styles, both variants, in session mode (the bots keep their memory over sessions
of SESSION deals; each session is mirrored with the seats swapped), and Hard and Normal
*fresh* (a new bot every hand, as a player meets it when it sits down; Easy keeps no memory,
so its fresh figure is its session one; ``--levels hard_fresh`` runs only that column, to
iterate on one cell with ``--only holdem:nit --scale 0.25``). Goals: Hard's 95% lower bound above 0 against every
style and Hard >= Normal in the means, fresh and in sessions; Hard > Normal > Easy in the
session means; against the any-two jammer Hard at least 85% of the best response's win rate
on the same deals.

``--sessions``: adaptive Hard against the same bot with its memory off
(``HardNoMemoryBot``), both against the maniac, the nit and the jammer on the same deals and
bot rngs, over sessions of 2,000 deals; the figure is the per-pair difference, whose 95% lower
bound must be above 0.

Pair counts come from the noise per duplicate pair (FACTS.md: NLHE about 15 bb, more
against wild styles; draw about 2.5 big bets, often less): pairs = (1.96 * 50 * sigma / h)^2
for a half-width h in bb/100, with h set well under the edge measured in short trial runs
(sigma per pair measured there: hold'em 29 bb against the station, 42 the maniac, 4 the nit,
12-16 the TAG, 27 the equity player, 20 the jammer; draw 0.5-1.3 big bets). Strong effects (the
jammer, the station) need few pairs; the tight styles more (Hard's edge on the hold'em TAG,
about +40, needs about 4,000 pairs for a half-width of 20; fresh draw Hard's, about +1.5 big
bets with a sigma of 0.8, 6,000 for a half-width of 1).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ahiko.bots.arena import MatchResult, run_match, run_paired
from ahiko.bots.styles import STYLES

# (variant, stronger, weaker, target lower bound, default pairs, seed)
LADDER = [
    ("holdem", "easy", "random", 100.0, 4_000, 101),
    ("holdem", "normal", "easy", 20.0, 30_000, 102),
    ("holdem", "hard", "normal", 10.0, 8_000, 103),
    ("draw", "easy", "random", 50.0, 2_000, 201),
    ("draw", "normal", "easy", 5.0, 20_000, 202),
    ("draw", "hard", "normal", 3.0, 6_000, 203),
    # Pot-Limit Omaha (blinds 1/2): each rung's lower bound above 0. Noise per pair measured
    # in trial runs: about 12 bb normal-easy (edge about +25), 15 to 22 bb hard-normal (about +20).
    ("plo", "easy", "random", 0.0, 400, 301),
    ("plo", "normal", "easy", 0.0, 3_000, 302),
    ("plo", "hard", "normal", 0.0, 5_000, 303),
]


SESSION = 500  # deals per session in --styles
ADAPT_SESSION = 2_000  # deals per session in --sessions
BOT_SECRET = "ladder-18"  # fixed so the figures reproduce; our own levels never see it
# (variant, style) -> (Hard's pairs, Normal's and Easy's pairs, seed)
STYLE_PAIRS: dict[tuple[str, str], tuple[int, int, int]] = {
    ("holdem", "station"): (150, 800, 301),
    ("holdem", "maniac"): (600, 2_000, 302),
    ("holdem", "nit"): (600, 2_000, 303),
    ("holdem", "tag"): (4_000, 2_000, 304),
    ("holdem", "equity"): (300, 600, 305),
    ("holdem", "jammer"): (300, 800, 306),
    ("draw", "station"): (150, 800, 401),
    ("draw", "maniac"): (400, 1_000, 402),
    ("draw", "nit"): (400, 2_000, 403),
    ("draw", "tag"): (6_000, 800, 404),
    ("draw", "equity"): (400, 800, 405),
    ("draw", "jammer"): (150, 800, 406),
    # The leaks memory must find: folds flops, over-bluffs rivers, never bluffs.
    ("holdem", "flopfolder"): (600, 600, 307),
    ("holdem", "riverbluffer"): (600, 600, 308),
    ("holdem", "neverbluffs"): (600, 600, 309),
    ("draw", "flopfolder"): (400, 400, 407),
    ("draw", "riverbluffer"): (400, 400, 408),
    ("draw", "neverbluffs"): (400, 400, 409),
}
BEST_RESPONSE = "ahiko.bots.styles:JammerBestResponse"
JAMMER_SHARE = 0.85
ADAPT_STYLES = ("maniac", "nit", "jammer")
ADAPT_PAIRS = 2_000
# Hard's edge from memory against the hold'em nit is small (about +15 bb/100): 2,000 pairs left
# the interval straddling 0 in round 4; three sessions decide it.
ADAPT_PAIRS_FOR: dict[tuple[str, str], int] = {("holdem", "nit"): 6_000}


def _record(figures: dict[str, float | int | str], key: str, r: MatchResult) -> None:
    figures[f"{key}_pairs"] = r.pairs
    figures[f"{key}_bb_per_100"] = round(r.bb_per_100, 2)
    figures[f"{key}_ci95_low"] = round(r.ci95_low, 2)
    figures[f"{key}_ci95_high"] = round(r.ci95_high, 2)


def _say(args: argparse.Namespace, text: str) -> None:
    print(text, file=sys.stderr if args.json else sys.stdout, flush=True)


def styles(args: argparse.Namespace, figures: dict[str, float | int | str]) -> None:
    for (variant, style), (hard_pairs, other_pairs, seed) in STYLE_PAIRS.items():
        if variant not in args.variants.split(",") or (
            args.only and args.only not in f"{variant}:{style}"
        ):
            continue
        path = STYLES[style]
        means = {}
        runs = [("hard", hard_pairs, SESSION), ("normal", other_pairs, SESSION),
                ("easy", other_pairs, SESSION), ("hard", hard_pairs, 0),
                ("normal", other_pairs, 0)]  # fmt: skip
        for level, pairs, session in runs:
            name = level if session else f"{level}_fresh"
            if args.levels and name not in args.levels.split(","):
                continue
            n = max(2, round(pairs * args.scale))
            t0 = time.perf_counter()
            r = run_match(variant, level, path, n, seed, 100, args.workers, session, BOT_SECRET)
            _record(figures, f"{variant}_{name}_vs_{style}", r)
            means[name] = r.bb_per_100
            _say(args, f"{variant}:{name}-{style:8} pairs={n:5} {r.bb_per_100:+8.1f} "
                 f"[{r.ci95_low:+.1f}, {r.ci95_high:+.1f}] ({time.perf_counter() - t0:.0f} s)")  # fmt: skip
            if level == "hard":
                figures[f"{variant}_{name}_vs_{style}_low_above_0"] = (
                    "yes" if r.ci95_low > 0 else "no"
                )
            if name == "hard" and style == "jammer":
                best = run_match(variant, BEST_RESPONSE, path, n, seed, 100, args.workers,
                                 SESSION, BOT_SECRET)  # fmt: skip
                _record(figures, f"{variant}_best_response_vs_jammer", best)
                share = r.bb_per_100 / best.bb_per_100 if best.bb_per_100 > 0 else 0.0
                figures[f"{variant}_hard_share_of_best_response"] = round(share, 3)
                figures[f"{variant}_hard_share_met"] = "yes" if share >= JAMMER_SHARE else "no"
                _say(args, f"{variant}: best response to the jammer {best.bb_per_100:+.1f}, "
                     f"Hard's share {share:.2f} (goal >= {JAMMER_SHARE})")  # fmt: skip
        if len(means) < len(runs):
            continue  # --levels: a part of the comparison only
        ordered = means["hard"] > means["normal"] > means["easy"]
        figures[f"{variant}_vs_{style}_hard_normal_easy_ordered"] = "yes" if ordered else "no"
        for name in ("", "_fresh"):
            at_least = means[f"hard{name}"] >= means[f"normal{name}"]
            figures[f"{variant}_vs_{style}_hard{name}_ge_normal"] = "yes" if at_least else "no"


def _adapt(job: tuple[str, str, int, int, int]) -> tuple[MatchResult, MatchResult, MatchResult]:
    variant, style, n, session, seed = job
    return run_paired(
        variant, "hard", "ahiko.bots.levels:HardNoMemoryBot", STYLES[style], n, seed, 100, 1,
        session, BOT_SECRET,
    )  # fmt: skip


def sessions(args: argparse.Namespace, figures: dict[str, float | int | str]) -> None:
    """One match pair per process (a session of 2,000 deals cannot be split)."""
    jobs = []
    for variant in args.variants.split(","):
        for i, style in enumerate(ADAPT_STYLES):
            if args.only and args.only not in f"{variant}:{style}":
                continue
            n = max(2, round(ADAPT_PAIRS_FOR.get((variant, style), ADAPT_PAIRS) * args.scale))
            jobs.append((variant, style, n, min(ADAPT_SESSION, n), 501 + i))
    t0 = time.perf_counter()
    if args.workers > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            results = pool.map(_adapt, jobs)
    else:
        results = [_adapt(job) for job in jobs]
    for (variant, style, _, session, _), (on, off, diff) in zip(jobs, results, strict=True):
        key = f"{variant}_adaptive_vs_{style}"
        _record(figures, key, on)
        _record(figures, f"{variant}_memory_off_vs_{style}", off)
        _record(figures, f"{key}_minus_memory_off", diff)
        figures[f"{key}_session_deals"] = session
        figures[f"{key}_met"] = "yes" if diff.ci95_low > 0 else "no"
        _say(args, f"{variant}:{style:7} adaptive {on.bb_per_100:+.1f}, memory off "
             f"{off.bb_per_100:+.1f}, difference {diff.bb_per_100:+.1f} "
             f"[{diff.ci95_low:+.1f}, {diff.ci95_high:+.1f}]")  # fmt: skip
    _say(args, f"({time.perf_counter() - t0:.0f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every pair count")
    parser.add_argument(
        "--only", help="run only rungs ('variant:a-b') or styles ('variant:style') containing this"
    )
    parser.add_argument(
        "--levels",
        help="--styles: only these runs, comma-separated (hard,normal,easy,hard_fresh,"
        "normal_fresh); the orderings need all five",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--seed", type=int, help="ladder: deal every rung from this seed instead of its own"
    )
    parser.add_argument(
        "--secret", help="ladder: deal and seed the bots' rngs from this secret (default: random)"
    )
    parser.add_argument(
        "--games", default="holdem,draw", help="ladder: games, comma-separated (holdem,draw,plo)"
    )
    parser.add_argument("--json", action="store_true")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--styles", action="store_true", help="the levels against the styles")
    mode.add_argument("--sessions", action="store_true", help="adaptive Hard against memory off")
    parser.add_argument(
        "--variants", default="holdem", help="--sessions: variants, comma-separated"
    )
    args = parser.parse_args()
    figures: dict[str, float | int | str] = {}
    if args.styles or args.sessions:
        (styles if args.styles else sessions)(args, figures)
        if args.json:
            print(json.dumps(figures))
        return 0
    for variant, a, b, target, pairs, seed in LADDER:
        name = f"{variant}:{a}-{b}"
        if variant not in args.games.split(",") or (args.only and args.only not in name):
            continue
        n = max(2, round(pairs * args.scale))
        seed = seed if args.seed is None else args.seed
        t0 = time.perf_counter()
        r = run_match(variant, a, b, n, seed, 100, args.workers, secret=args.secret)
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
