"""Heads-up push/fold charts for Hold'em Hard, computed offline.

The game: effective stacks of S big blinds, the small blind (the button) either moves all in
or folds; the big blind calls or folds. Each player's strategy is, for every one of the 169
starting-hand classes, a probability of pushing (calling). Fictitious play over the classes
converges to the equilibrium: each round every player plays a best response to the average of
the other's past strategies. Hand-against-hand equities come from eval7's Monte Carlo
(``--samples`` per class pair), card removal is counted by the combos two classes can share.

Writes ``src/ahiko/bots/data/pushfold_hu.json``: for S = 1..20, the classes pushed and the
classes called (played with probability >= 0.5 at the end). The seed is fixed, so the file is
reproducible: ``python tools/pushfold_chart.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import eval7
import numpy as np

from ahiko.bots.cards7 import E7_CARDS
from ahiko.bots.equity import e7_range, seed_from
from ahiko.bots.preflop import CLASSES, combos_of

OUT = (
    Path(__file__).resolve().parent.parent / "src" / "ahiko" / "bots" / "data" / "pushfold_hu.json"
)
STACKS = range(1, 21)


def matrices(samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Equity of class i against class j, and the number of combo pairs without a shared
    card (the weight of meeting j holding i)."""
    n = len(CLASSES)
    eq = np.zeros((n, n))
    weight = np.zeros((n, n))
    combos = [combos_of(c) for c in CLASSES]
    rng = random.Random(20_261_201)
    for i in range(n):
        for j in range(i, n):
            pairs = [(a, b) for a in combos[i] for b in combos[j] if not set(a) & set(b)]
            weight[i, j] = weight[j, i] = len(pairs)
            if not pairs:
                continue
            hero = combos[i][0]
            villains = [b for b in combos[j] if not set(hero) & set(b)]
            seed_from(rng)
            e = float(
                eval7.py_hand_vs_range_monte_carlo(
                    [E7_CARDS[c] for c in hero], e7_range(villains), [], samples
                )
            )
            eq[i, j], eq[j, i] = e, 1.0 - e
        print(f"class {i + 1}/{n}", file=sys.stderr, end="\r")
    return eq, weight


def solve(
    eq: np.ndarray, weight: np.ndarray, stack: float, rounds: int
) -> tuple[list[str], list[str]]:
    """Fictitious play for one stack size (in big blinds): push and call classes."""
    n = len(CLASSES)
    push = np.ones(n)
    call = np.ones(n)
    push_avg, call_avg = push.copy(), call.copy()
    for t in range(1, rounds + 1):
        # Small blind: folding loses 0.5; pushing wins 1 when called off, else the showdown.
        w_call = weight * call_avg[np.newaxis, :]
        called = w_call.sum(axis=1)
        total = weight.sum(axis=1)
        showdown = (w_call * (eq * 2 * stack - stack)).sum(axis=1)
        ev_push = (total - called) * 1.0 + showdown  # relative to the blinds posted (+1 won)
        ev_fold = -0.5 * total
        push = (ev_push > ev_fold).astype(float)
        # Big blind facing a push: folding loses the 1 posted; calling plays for the stack.
        w_push = weight.T * push_avg[np.newaxis, :]
        ev_call = (w_push * (eq * 2 * stack - stack)).sum(axis=1)
        ev_fold_bb = -1.0 * w_push.sum(axis=1)
        call = (ev_call > ev_fold_bb).astype(float)
        push_avg += (push - push_avg) / (t + 1)
        call_avg += (call - call_avg) / (t + 1)
    return (
        [c for c, p in zip(CLASSES, push_avg, strict=True) if p >= 0.5],
        [c for c, p in zip(CLASSES, call_avg, strict=True) if p >= 0.5],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=4_000)
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    eq, weight = matrices(args.samples)
    chart = {}
    for s in STACKS:
        push, call = solve(eq, weight, float(s), args.rounds)
        chart[str(s)] = {"push": push, "call": call}
        print(f"{s:2} bb: push {len(push):3} classes, call {len(call):3}", file=sys.stderr)
    data = {
        "about": "Heads-up push/fold equilibrium by fictitious play (tools/pushfold_chart.py)",
        "samples_per_class_pair": args.samples,
        "rounds": args.rounds,
        "stacks_bb": chart,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
