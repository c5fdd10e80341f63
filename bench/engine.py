"""Engine benchmark: our No-Limit Hold'em engine against pokerkit 0.7.7, side by side.

Measures, in one run and on the same machine state:
- random-play six-max Pot-Limit Omaha hands per second (the mild policy), ours against
  pokerkit's ``PotLimitOmahaHoldem``, a figure beside the hold'em ones (no goal of its own);
- random-play six-max hands per second under two decision policies, each in both engines
  (100 bb stacks; pokerkit with every automation on, dealing its own shuffled cards; both
  decks shuffled by one batch of numpy permutations, see ``Shuffler``): an
  all-in-heavy one (a quarter of the decisions raise, half of those all-in: ~95% of the hands
  reach showdown, many with the board run out) and a mild one (a third fold to a bet, a tenth
  raise the minimum: ~60% showdowns, more betting rounds played). The ratio moves with the
  policy, so both are reported, with the showdown share our engine saw;
- PHH replays per second over the Pluribus sample hands, from memory (the texts already read:
  ours parse + rebuild the deck + replay; pokerkit ``HandHistory.loads`` + iterate every state)
  and from files (each file opened and read too: ours ``ahiko.history.replay.replay_file``, the
  code of ``ahiko hh replay``, which also compares the finishing stacks; pokerkit
  ``HandHistory.load`` + iterate);
- seven-card evaluations per second: ours one call at a time
  (``ahiko.poker.ranking.hand_strength`` on Ahiko card ids, what the engine calls at showdown)
  and in numpy batches (``ahiko.bots.vector_eval.evaluate``, what the bots call), beside
  ``eval7.evaluate`` one call at a time on eval7's own cards (eval7 has no batch call).
Each rate is the median of ``--repeats`` short runs, in units per CPU-second, each run from a
collected heap; each ratio is the median of the runs' own ratios (ours and the reference run
back to back). ``--json`` prints one JSON line. ``--profile`` prints a cProfile of our random
play instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import random
import statistics
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from operator import truediv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The Pluribus samples live in the shared folder beside the repository; a worktree elsewhere
# names it through AHIKO_PHH_DIR.
PHH_DIR = Path(
    os.environ.get(
        "AHIKO_PHH_DIR", Path(__file__).resolve().parents[2] / "shared" / "phh" / "pluribus"
    )
)
# Our replay of the 153 files takes a tenth of pokerkit's: each of our runs replays them this
# many times, so that both sides of a ratio run about as long (a short run is at the mercy of
# one slow spell of a shared machine).
PHH_PASSES = 8
PLAYERS = 6
SMALL_BLIND, BIG_BLIND = 50, 100
STACK = 100 * BIG_BLIND


# policy -> (fold to a bet, raise, share of the raises that go all-in): the first two are the
# chances of one roll; what is left checks or calls.
POLICIES: dict[str, tuple[float, float, float]] = {
    "allin": (0.25, 0.25, 0.5),
    "mild": (0.33, 0.10, 0.0),
}


class Shuffler:
    """The one shuffle both engines' decks get: seeded numpy permutations, drawn in batches.

    Python's ``random.shuffle`` walks the deck in bytecode, 51 calls of ``_randbelow``:
    about 119,000 instructions a deck (callgrind), 15% of one of our random-play hands and
    under 1% of one of pokerkit's, so the ratio was partly a measure of the shuffle both
    sides pay. Here a deck costs a row of a batch (``Generator.permuted`` over 256 decks at a
    time). Our deck is an input (a room's comes from the fair deal, not from the engine);
    pokerkit shuffles its own deck in ``State._setup`` through the name ``shuffle`` of
    ``pokerkit.state``, which ``for_pokerkit`` points here while it plays."""

    BATCH = 256

    def __init__(self, seed: int) -> None:
        import numpy as np

        self._rng = np.random.default_rng(seed & 0xFFFFFFFF)
        self._ordered = np.tile(np.arange(52), (self.BATCH, 1))
        self._rows: Iterator[list[int]] = iter(())

    def deck(self) -> list[int]:
        """A new shuffled deck of 52 card ids (plain ints)."""
        row = next(self._rows, None)
        if row is None:
            self._rows = iter(self._rng.permuted(self._ordered, axis=1).tolist())
            row = next(self._rows)
        return row

    def shuffle(self, cards: deque[Any]) -> None:
        """``random.shuffle(cards)`` for pokerkit's deck (a deque of 52), by the next row."""
        items = list(cards)
        if len(items) != 52:
            raise ValueError(f"a deck of 52 cards, got {len(items)}")
        cards.clear()
        cards.extend(map(items.__getitem__, self.deck()))

    @contextmanager
    def for_pokerkit(self) -> Iterator[None]:
        import pokerkit.state

        saved = pokerkit.state.__dict__["shuffle"]
        setattr(pokerkit.state, "shuffle", self.shuffle)  # noqa: B010  # not exported: no attr
        try:
            yield
        finally:
            setattr(pokerkit.state, "shuffle", saved)  # noqa: B010


def choose(rng: random.Random, can_fold: bool, can_raise: bool, policy: str) -> str:
    """The shared policy: 'fold', 'call' (check or call), 'min' or 'allin' (raise)."""
    fold, raise_, allin = POLICIES[policy]
    roll = rng.random()
    if can_fold and roll < fold:
        return "fold"
    if can_raise and roll < fold + raise_:
        return "allin" if rng.random() < allin else "min"
    return "call"


def ours_random_hands(count: int, seed: int, policy: str = "allin", game: str = "holdem") -> int:
    """Plays ``count`` hands of ``game`` (holdem or plo); returns how many reached a showdown."""
    from ahiko.poker.actions import Action, ActionKind
    from ahiko.poker.config import HoldemConfig
    from ahiko.poker.holdem import HoldemHand, OmahaHand

    plays = OmahaHand if game == "plo" else HoldemHand

    rng = random.Random(seed)
    decks = Shuffler(seed)
    config = HoldemConfig(SMALL_BLIND, BIG_BLIND)
    seats = list(range(PLAYERS))
    fold, call, check = Action.fold(), Action.call(), Action.check()  # immutable: reused
    showdowns = 0
    for i in range(count):
        hand, _ = plays.start(config, seats, [STACK] * PLAYERS, i % PLAYERS, decks.deck())
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            legal = hand.legal_actions()
            move = choose(rng, legal.call_cost > 0, legal.bet_kind is not None, policy)
            if move == "fold":
                action = fold
            elif move == "call":
                action = call if legal.call_cost > 0 else check
            else:
                to = legal.min_to if move == "min" else legal.max_to
                bet = legal.bet_kind is ActionKind.BET
                action = Action.bet(to) if bet else Action.raise_to(to)
            hand.act(seat, action)
        assert hand.result is not None
        showdowns += hand.result.showdown
    return showdowns


def pokerkit_random_hands(
    count: int, seed: int, policy: str = "allin", game: str = "holdem"
) -> None:
    from pokerkit import Automation, NoLimitTexasHoldem, PotLimitOmahaHoldem

    automations = tuple(Automation)
    rng = random.Random(seed)
    plays = PotLimitOmahaHoldem if game == "plo" else NoLimitTexasHoldem
    with Shuffler(seed).for_pokerkit():
        _pokerkit_hands(plays, automations, rng, count, policy)


def _pokerkit_hands(
    plays: Any, automations: tuple[Any, ...], rng: random.Random, count: int, policy: str
) -> None:
    from pokerkit import Mode

    for _ in range(count):
        state = plays.create_state(
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
            move = choose(rng, state.can_fold(), can_raise, policy)
            if move == "fold":
                state.fold()
            elif move == "call":
                state.check_or_call()
            elif move == "min":
                state.complete_bet_or_raise_to(state.min_completion_betting_or_raising_to_amount)
            else:
                state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)


def phh_paths() -> list[Path]:
    return sorted(PHH_DIR.rglob("*.phh"))


def phh_texts() -> list[str]:
    return [p.read_text() for p in phh_paths()]


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


def ours_replay_files(paths: list[Path]) -> None:
    from ahiko.history.replay import replay_file

    for path in paths:
        outcome = replay_file(path)
        if outcome.match is not True:
            raise RuntimeError(f"{path}: {outcome.error or outcome.finishing_stacks}")


def pokerkit_replay_files(paths: list[Path]) -> None:
    from pokerkit import HandHistory

    for path in paths:
        with path.open("rb") as file:
            for _state in HandHistory.load(file):
                pass


def seven_card_hands(seed: int) -> list[list[int]]:
    """1,000 random seven-card hands as Ahiko card ids (rank * 4 + suit)."""
    rng = random.Random(seed)
    return [rng.sample(range(52), 7) for _ in range(1000)]


def eval7_evaluations(count: int, seed: int) -> None:
    import eval7

    from ahiko.poker.cards import format_card

    deck = [eval7.Card(format_card(c)) for c in range(52)]
    hands = [[deck[c] for c in h] for h in seven_card_hands(seed)]
    evaluate = eval7.evaluate
    for _ in range(count // 1000):
        for h in hands:
            evaluate(h)


def ours_evaluations(count: int, seed: int) -> None:
    from ahiko.poker.ranking import hand_strength

    hands = seven_card_hands(seed)
    for _ in range(count // 1000):
        for h in hands:
            hand_strength(h)


def ours_batch_evaluations(count: int, seed: int) -> None:
    import numpy as np

    from ahiko.bots.vector_eval import evaluate

    batch = np.array(seven_card_hands(seed) * 10, dtype=np.intp)  # 10,000 hands a call
    for _ in range(count // len(batch)):
        evaluate(batch)


def check_evaluators_agree() -> None:
    """The three evaluators give the same values on the bench's hands (else no comparison)."""
    import eval7
    import numpy as np

    from ahiko.bots.vector_eval import evaluate
    from ahiko.poker.cards import format_card
    from ahiko.poker.ranking import hand_strength

    hands = seven_card_hands(0)
    reference = [eval7.evaluate([eval7.Card(format_card(c)) for c in h]) for h in hands]
    if [hand_strength(h) for h in hands] != reference:
        raise RuntimeError("hand_strength disagrees with eval7")
    if evaluate(np.array(hands)).tolist() != reference:
        raise RuntimeError("vector_eval disagrees with eval7")


def rate(work: Callable[[], None], units: int) -> float:
    """Units per second of CPU time: the machine is shared, and CPU time is what a rival
    process cannot inflate. Each run starts from a collected heap: the collector stays on
    while it runs (each engine pays for the collections its own garbage brings), but no run
    pays for a full collection that the previous job's garbage had made due. Without it a
    20 ms run of ours caught a pause of pokerkit's making at random (our PHH replay rate
    spread from 4,552 to 7,250 files/s over six runs; with it, 6,977 to 7,911)."""
    gc.collect()
    start = time.process_time()
    work()
    return units / (time.process_time() - start)


def measure(repeats: int, hands: int) -> dict[str, float | int | str]:
    texts, paths = phh_texts(), phh_paths()
    if not paths:  # refuse to report a replay ratio of nothing
        raise SystemExit(f"no PHH samples under {PHH_DIR} (the shared folder beside the repo)")
    pk_hands = max(hands // 10, 20)
    work: dict[str, tuple[Callable[[int], object], int]] = {}
    for policy in POLICIES:
        work[f"ours_{policy}"] = (partial(_ours_hands, hands, policy), hands)
        work[f"pk_{policy}"] = (partial(_pk_hands, pk_hands, policy), pk_hands)
    # Pot-Limit Omaha, the mild policy (pot-limit bets make the all-in one mostly mild too)
    work["ours_plo"] = (partial(_ours_hands, hands, "mild", game="plo"), hands)
    work["pk_plo"] = (partial(_pk_hands, pk_hands, "mild", game="plo"), pk_hands)
    passes = range(PHH_PASSES)
    work |= {
        "ours_phh": (lambda r: [ours_replay(texts) for _ in passes], PHH_PASSES * len(texts)),
        "pk_phh": (lambda r: pokerkit_replay(texts), len(texts)),
        "ours_phh_files": (
            lambda r: [ours_replay_files(paths) for _ in passes],
            PHH_PASSES * len(paths),
        ),
        "pk_phh_files": (lambda r: pokerkit_replay_files(paths), len(paths)),
        "ours_eval": (partial(ours_evaluations, 200_000), 200_000),
        "ours_eval_batch": (partial(ours_batch_evaluations, 1_000_000), 1_000_000),
        "eval7": (partial(eval7_evaluations, 200_000), 200_000),
    }
    figures: dict[str, list[float]] = {k: [] for k in work}
    showdowns = {p: ours_random_hands(2000, 12345, p) / 2000 for p in POLICIES}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_evaluators_agree()
        # warm-up: imports, tables and first-call costs stay out of the timed runs
        ours_random_hands(5, -1)
        pokerkit_random_hands(1, -1)
        ours_replay(texts[:3])
        pokerkit_replay(texts[:3])
        ours_replay_files(paths[:3])
        pokerkit_replay_files(paths[:3])
        ours_batch_evaluations(10_000, -1)
        for r in range(repeats):  # interleaved: each pair sees the same machine state
            for key, (job, units) in work.items():
                figures[key].append(rate(partial(job, r), units))
    med = {k: statistics.median(v) for k, v in figures.items()}

    def ratio(ours: str, theirs: str) -> float:
        """The median of the repeats' own ratios: each pair ran back to back, so a spell of
        a slower machine slows both sides of one ratio rather than one side of the medians."""
        return round(statistics.median(map(truediv, figures[ours], figures[theirs])), 2)

    result: dict[str, float | int | str] = {}
    for policy in POLICIES:
        ours, pk = med[f"ours_{policy}"], med[f"pk_{policy}"]
        result[f"{policy}_showdown_share"] = round(showdowns[policy], 3)
        result[f"{policy}_ours_hands_per_s"] = round(ours, 1)
        result[f"{policy}_pokerkit_hands_per_s"] = round(pk, 1)
        result[f"{policy}_ratio"] = ratio(f"ours_{policy}", f"pk_{policy}")
    result |= {
        "plo_ours_hands_per_s": round(med["ours_plo"], 1),
        "plo_pokerkit_hands_per_s": round(med["pk_plo"], 1),
        "plo_ratio": ratio("ours_plo", "pk_plo"),
    }
    result |= {
        "ours_phh_replay_per_s": round(med["ours_phh"], 1),
        "pokerkit_phh_replay_per_s": round(med["pk_phh"], 1),
        "phh_replay_ratio": ratio("ours_phh", "pk_phh"),
        "ours_phh_files_per_s": round(med["ours_phh_files"], 1),
        "pokerkit_phh_files_per_s": round(med["pk_phh_files"], 1),
        "phh_files_ratio": ratio("ours_phh_files", "pk_phh_files"),
        "ours_evals_per_s": round(med["ours_eval"]),
        "ours_batch_evals_per_s": round(med["ours_eval_batch"]),
        "eval7_evals_per_s": round(med["eval7"]),
        "ours_vs_eval7": ratio("ours_eval", "eval7"),
        "ours_batch_vs_eval7": ratio("ours_eval_batch", "eval7"),
        "repeats": repeats,
        "phh_hands": len(texts),
    }
    return result


def _ours_hands(count: int, policy: str, seed: int, game: str = "holdem") -> None:
    ours_random_hands(count, seed, policy, game)


def _pk_hands(count: int, policy: str, seed: int, game: str = "holdem") -> None:
    pokerkit_random_hands(count, seed, policy, game)


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
