"""Bot decision time: p50 and p99 per level and variant on random situations.

Situations are views of real hands (ahiko.poker) played at random to a random decision point:
half heads-up, half multiway (3 to the game's most seats: 9 in hold'em and Pot-Limit Omaha, 6
in draw), stacks from 5 to 300 big blinds. Each level decides on every situation; times are wall-clock milliseconds per
decision, and ``*_p99_cpu_ms`` the same in the deciding thread's CPU time (what a decision
costs, whatever else the machine runs: on a loaded machine the wall clock adds the waits for a
core). Targets: p99 <= 20 ms for easy and normal, <= 200 ms for hard, whose Monte
Carlo equity runs on every street, pre-flop included, with >= 9,600 samples (+-1% equity at
95%): HEADS_UP_SAMPLES on eval7's simulator heads-up, MULTIWAY_SAMPLES on the numpy
multiway simulator (ahiko.bots.equity) otherwise. The ``hard_*_mc_samples`` figures are the
fewest samples any of hard's equity runs asked for during the timed decisions, by kind:
heads-up (eval7's simulator, or hard's ranked heads-up run ``holdem_hard.simulate``), multiway
after the flop, multiway pre-flop. ``holdem_hard_tables_ms`` is the one-off
build of the hand-value tables (ahiko.bots.vector_eval), done before the timed decisions.
Pot-Limit Omaha Hard runs its Omaha equity (ahiko.bots.omaha_equity) on every decision with
``plo_hard.HEADS_UP_SAMPLES``, or multiway fewer as the players grow (``PLAYER_HANDS`` over the
players, at least ``MULTIWAY_SAMPLES``); ``plo_tables_ms`` is the one-off build of its tables. ``--variants`` picks the games (all by
default); ``--json`` prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ahiko.bots import holdem_hard, omaha_eval, vector_eval
from ahiko.bots.equity import WeightedRange
from ahiko.bots.protocol import load_bot
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.games import GAMES, BettingStructure, game
from ahiko.poker.hands import hand_class
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view

LEVELS = ("random", "easy", "normal", "hard")
TARGET_MS = {"random": 20.0, "easy": 20.0, "normal": 20.0, "hard": 200.0}


def situations(variant: str, count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(f"bench-bots:{variant}:{seed}")
    out: list[dict[str, Any]] = []
    while len(out) < count:
        heads_up = len(out) % 2 == 0
        played = game(variant)
        n = 2 if heads_up else rng.randint(3, played.max_players)
        seats = list(range(n))
        fixed = played.betting is BettingStructure.FIXED_LIMIT
        unit = 4 if fixed else 2
        stacks = [unit * rng.choice([5, 20, 50, 100, 100, 300]) for _ in seats]
        deck = list(range(52))
        rng.shuffle(deck)
        config = DrawConfig(ante=1, small_bet=2) if fixed else HoldemConfig(1, 2)
        hand: Any = hand_class(variant).start(config, seats, stacks, 0, deck)[0]
        stop = rng.randint(0, 12)
        steps = 0
        while not hand.is_over:
            seat = hand.to_act
            if steps == stop:
                out.append(view(hand, seat))
                break
            legal = hand.legal_actions()
            action = random_action(legal, tuple(hand.hole_cards(seat)), rng)
            if action.kind == "fold" and rng.random() < 0.7 and legal.can_call:
                action = type(action).call()  # keep more players in the hand
            hand.act(seat, action)
            steps += 1
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


@contextmanager
def equity_runs_recorded() -> Iterator[list[tuple[str, int]]]:
    """(kind, samples asked for) of every equity run of the hold'em hard bot meanwhile."""
    runs: list[tuple[str, int]] = []
    run = holdem_hard.equity_multiway

    def recorded(
        hole: Sequence[int],
        board: Sequence[int],
        opponents: Sequence[WeightedRange],
        samples: int,
        rng: random.Random,
    ) -> float:
        kind = "heads_up" if len(opponents) == 1 else "multiway" if board else "preflop_multiway"
        runs.append((kind, samples))
        return run(hole, board, opponents, samples, rng)

    simulate = holdem_hard.simulate

    def recorded_simulate(
        hole: tuple[int, ...],
        board: tuple[int, ...],
        weighted: WeightedRange,
        ranks: dict[tuple[int, int], float],
        samples: int,
        rng: random.Random,
    ) -> holdem_hard.Samples:
        runs.append(("heads_up", samples))
        return simulate(hole, board, weighted, ranks, samples, rng)

    holdem_hard.equity_multiway = recorded
    holdem_hard.simulate = recorded_simulate
    try:
        yield runs
    finally:
        holdem_hard.equity_multiway = run
        holdem_hard.simulate = simulate


def measure(
    count: int, seed: int, variants: Sequence[str] = tuple(GAMES)
) -> dict[str, float | int]:
    figures: dict[str, float | int] = {"situations_per_variant": count}
    t0 = time.perf_counter()
    vector_eval.tables()
    figures["holdem_hard_tables_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    t0 = time.perf_counter()
    omaha_eval.five_card_tables()
    omaha_eval.percentile_table()
    figures["plo_tables_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    for variant in variants:
        views = situations(variant, count, seed)
        for level in LEVELS:
            bot = load_bot(level)
            t0 = time.perf_counter()
            bot.decide(views[0], random.Random(0))  # one-off set-up (draw hard's library)
            figures[f"{variant}_{level}_first_call_ms"] = round(
                (time.perf_counter() - t0) * 1000, 1
            )
            times, cpu_times = [], []
            with equity_runs_recorded() as runs:
                for i, v in enumerate(views):
                    rng = random.Random(i)
                    t0, c0 = time.perf_counter(), time.thread_time()
                    bot.decide(v, rng)
                    cpu_times.append((time.thread_time() - c0) * 1000)
                    times.append((time.perf_counter() - t0) * 1000)
            figures[f"{variant}_{level}_p50_ms"] = round(statistics.median(times), 3)
            figures[f"{variant}_{level}_p99_ms"] = round(percentile(times, 0.99), 3)
            figures[f"{variant}_{level}_p99_cpu_ms"] = round(percentile(cpu_times, 0.99), 3)
            for kind in ("heads_up", "multiway", "preflop_multiway"):
                asked = [samples for k, samples in runs if k == kind]
                if asked:
                    figures[f"hard_{kind}_mc_samples"] = min(asked)
                    figures[f"hard_{kind}_mc_runs"] = len(asked)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--situations", type=int, default=300, help="per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.situations, args.seed, args.variants.split(","))
    if args.json:
        print(json.dumps(figures))
        return 0
    for key, value in figures.items():
        level = key.split("_")[1] if key.endswith("_ms") else ""
        note = f"  (target <= {TARGET_MS[level]:g})" if key.endswith("p99_ms") else ""
        print(f"{key:32} {value}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
