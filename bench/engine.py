"""Engine benchmark: our No-Limit Hold'em engine against pokerkit 0.7.7, side by side.

Measures, in one run and on the same machine state:
- random-play six-max hands per second (100 bb stacks, the same random decision policy in
  both engines; pokerkit with every automation on, dealing its own shuffled cards);
- PHH replays per second over the Pluribus sample hands (ours: parse + rebuild the deck +
  replay through the engine; pokerkit: ``HandHistory.loads`` + iterate every state);
- eval7 seven-card evaluations per second.
Each figure is the median of ``--repeats`` short runs, in units per CPU-second. ``--json`` prints one JSON line.
``--profile`` prints a cProfile of our random play instead.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHH_DIR = Path(__file__).resolve().parents[2] / "shared" / "phh" / "pluribus"  # ../shared
PLAYERS = 6
SMALL_BLIND, BIG_BLIND = 50, 100
STACK = 100 * BIG_BLIND


def choose(rng: random.Random, can_fold: bool, can_raise: bool) -> str:
    """The shared policy: 'fold', 'call' (check or call), 'min' or 'allin' (raise)."""
    roll = rng.random()
    if can_fold and roll < 0.25:
        return "fold"
    if can_raise and roll < 0.37:
        return "min" if rng.random() < 0.8 else "allin"
    return "call"


def ours_random_hands(count: int, seed: int) -> None:
    from ahiko.poker.actions import Action, ActionKind
    from ahiko.poker.config import HoldemConfig
    from ahiko.poker.holdem import HoldemHand

    rng = random.Random(seed)
    config = HoldemConfig(SMALL_BLIND, BIG_BLIND)
    seats = list(range(PLAYERS))
    deck = list(range(52))
    fold, call, check = Action.fold(), Action.call(), Action.check()  # immutable: reused
    for i in range(count):
        rng.shuffle(deck)
        hand, _ = HoldemHand.start(config, seats, [STACK] * PLAYERS, i % PLAYERS, deck)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            move = choose(rng, legal.call_cost > 0, legal.bet_kind is not None)
            if move == "fold":
                action = fold
            elif move == "call":
                action = call if legal.call_cost > 0 else check
            else:
                to = legal.min_to if move == "min" else legal.max_to
                bet = legal.bet_kind is ActionKind.BET
                action = Action.bet(to) if bet else Action.raise_to(to)
            hand.act(seat, action)


def pokerkit_random_hands(count: int, seed: int) -> None:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = tuple(Automation)
    rng = random.Random(seed)
    for _ in range(count):
        state = NoLimitTexasHoldem.create_state(
            automations,
            True,
            0,
            (SMALL_BLIND, BIG_BLIND),
            BIG_BLIND,
            [STACK] * PLAYERS,
            PLAYERS,
            mode=Mode.TOURNAMENT,
        )
        while state.status:
            can_raise = state.can_complete_bet_or_raise_to()
            move = choose(rng, state.can_fold(), can_raise)
            if move == "fold":
                state.fold()
            elif move == "call":
                state.check_or_call()
            elif move == "min":
                state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
            else:
                state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)


def phh_texts() -> list[str]:
    return [p.read_text() for p in sorted(PHH_DIR.rglob("*.phh"))]


def ours_replay(texts: list[str]) -> None:
    from ahiko.history.phh import loads
    from ahiko.history.phh_holdem import holdem_from_phh

    for text in texts:
        holdem_from_phh(loads(text))


def pokerkit_replay(texts: list[str]) -> None:
    from pokerkit import HandHistory

    for text in texts:
        for _state in HandHistory.loads(text):
            pass


def eval7_evaluations(count: int, seed: int) -> None:
    import eval7

    rng = random.Random(seed)
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    hands = [rng.sample(deck, 7) for _ in range(1000)]
    evaluate = eval7.evaluate
    for _ in range(count // 1000):
        for h in hands:
            evaluate(h)


def rate(work: Callable[[], None], units: int) -> float:
    """Units per second of CPU time: the machine is shared, and CPU time is what a rival
    process cannot inflate."""
    start = time.process_time()
    work()
    return units / (time.process_time() - start)


def measure(repeats: int, hands: int) -> dict[str, float]:
    texts = phh_texts()
    pk_hands = max(hands // 10, 20)
    figures: dict[str, list[float]] = {k: [] for k in ("ours", "pk", "ours_phh", "pk_phh", "eval7")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # warm-up: imports and first-call costs stay out of the timed runs
        ours_random_hands(5, -1)
        pokerkit_random_hands(1, -1)
        ours_replay(texts[:3])
        pokerkit_replay(texts[:3])
        eval7_evaluations(1000, -1)
        for r in range(repeats):
            figures["ours"].append(rate(partial(ours_random_hands, hands, r), hands))
            figures["pk"].append(rate(partial(pokerkit_random_hands, pk_hands, r), pk_hands))
            figures["ours_phh"].append(rate(partial(ours_replay, texts), len(texts)))
            figures["pk_phh"].append(rate(partial(pokerkit_replay, texts), len(texts)))
            figures["eval7"].append(rate(partial(eval7_evaluations, 200_000, r), 200_000))
    med = {k: statistics.median(v) for k, v in figures.items()}
    return {
        "ours_hands_per_s": round(med["ours"], 1),
        "pokerkit_hands_per_s": round(med["pk"], 1),
        "ratio": round(med["ours"] / med["pk"], 2),
        "ours_phh_replay_per_s": round(med["ours_phh"], 1),
        "pokerkit_phh_replay_per_s": round(med["pk_phh"], 1),
        "phh_replay_ratio": round(med["ours_phh"] / med["pk_phh"], 2),
        "eval7_evals_per_s": round(med["eval7"]),
        "repeats": repeats,
        "phh_hands": len(texts),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--repeats", type=int, default=3, help="short runs per figure (median)")
    parser.add_argument("--hands", type=int, default=1000, help="our random hands per run")
    parser.add_argument("--profile", action="store_true", help="cProfile our random play")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(ours_random_hands, args.hands, 0)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        profiler = cProfile.Profile()
        profiler.runcall(ours_replay, phh_texts())
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    result = measure(args.repeats, args.hands)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
