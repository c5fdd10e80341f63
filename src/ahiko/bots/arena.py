"""Duplicate matches between two bots (heads-up), the yardstick of the bot levels.

Each deal is played twice with the seats swapped, so both bots play both hands of the same
cards. The match's secret (``secret``, random unless given) seeds both the deck of every deal
and each bot's rng (with the deal and the seat): the public match seed only names the match,
so a bot that learns it (from a log, a command line) can rebuild neither the decks nor the
other bot's rng. Every hand gets fresh bot
instances (no memory between the halves), unless the match is in session mode
(``session=HANDS``): then the same two bots play HANDS consecutive deals, keeping what they
learnt (``observe`` gets each bot's final view of every hand), and the mirror session plays
the same deals with the seats swapped, with fresh bots. A bot named by an import path outside
``ahiko.bots`` (a third party's) runs in its own process (ahiko.bots.sandbox) and receives
only the serialised view. Hold'em and Pot-Limit Omaha results are all-in adjusted:
when no more betting is possible before the river, each player is credited their equity
share of the pot instead of the run-out (Omaha's counted two plus three). Win rates are in big
blinds per 100 hands (draw: big bets per 100 hands) with a 95% confidence interval over the pairs.

The arena drives the rules engine and shuffles with ``random.Random``: it is a measuring
tool, not the fair deal of rooms.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import eval7

from ahiko.poker.actions import IllegalAction
from ahiko.poker.cards import DECK_SIZE, Card
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.games import BettingStructure, Evaluator, game
from ahiko.poker.hand import AnyHand
from ahiko.poker.hands import hand_class
from ahiko.poker.result import HandResult
from ahiko.poker.view import view

from .cards7 import E7_CARDS
from .equity import e7_range, seed_from
from .omaha_equity import omaha_showdown_shares
from .protocol import VARIANTS, Bot, bot_path, is_outside, load_bot_class
from .sandbox import SandboxedBots

SEATS = (0, 1)
HOLDEM_BLINDS = (1, 2)
DRAW_STAKES = DrawConfig(ante=1, small_bet=2, big_bet=4)
PREFLOP_ALLIN_SAMPLES = 40_000
PROGRESS_PAIRS = 50  # at most this many pairs between two progress reports

Progress = Callable[[int], object]


class ArenaError(RuntimeError):
    """A bot broke the rules of the match (an illegal action), named with the situation."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    a: str
    b: str
    variant: str
    pairs: int
    pair_results: tuple[float, ...]  # A's result per duplicate pair, in big blinds
    bb_per_100: float
    ci95_low: float
    ci95_high: float

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "bb_per_100": round(self.bb_per_100, 2),
            "ci95_low": round(self.ci95_low, 2),
            "ci95_high": round(self.ci95_high, 2),
        }


def _is_fixed_limit(variant: str) -> bool:
    return game(variant).betting is BettingStructure.FIXED_LIMIT


def big_blind_of(variant: str) -> int:
    return DRAW_STAKES.big_bet if _is_fixed_limit(variant) else HOLDEM_BLINDS[1]


def _start(variant: str, deck: Sequence[Card], button: int, stack: int) -> AnyHand:
    stacks = [stack, stack]
    config: HoldemConfig | DrawConfig = DRAW_STAKES
    if not _is_fixed_limit(variant):
        config = HoldemConfig(small_blind=HOLDEM_BLINDS[0], big_blind=HOLDEM_BLINDS[1])
    return hand_class(variant).start(config, list(SEATS), stacks, button, list(deck))[0]


def play_hand(
    variant: str,
    bots: dict[int, Bot],
    rngs: dict[int, random.Random],
    deck: Sequence[Card],
    button: int,
    stack: int,
) -> dict[int, float]:
    """Play one hand to the end; each seat's net chips (hold'em: all-in adjusted)."""
    hand = _start(variant, deck, button, stack)
    while not hand.is_over:
        seat = hand.to_act
        if seat is None:
            raise ArenaError("the engine reports no seat to act in an unfinished hand")
        seat_view = view(hand, seat)
        action = bots[seat].decide(seat_view, rngs[seat])
        try:
            hand.act(seat, action)
        except IllegalAction as exc:
            name = getattr(bots[seat], "name", type(bots[seat]).__name__)
            raise ArenaError(f"{name} at seat {seat} played {action}: {exc}") from exc
    result = hand.result
    if result is None:
        raise ArenaError("the engine reports a finished hand without a result")
    for seat, bot in bots.items():
        observe = getattr(bot, "observe", None)
        if observe is not None:
            observe(view(hand, seat))
    if game(variant).has_board:
        adjusted = _allin_adjusted(hand, result)
        if adjusted is not None:
            return adjusted
    return {s: float(result.net[s]) for s in SEATS}


def _allin_adjusted(hand: AnyHand, result: HandResult) -> dict[int, float] | None:
    """Equity-share results when the last action left nobody able to bet before the river."""
    events: list[Any] = list(hand.events)
    last_action = max((i for i, e in enumerate(events) if e.kind == "action"), default=-1)
    board_then: list[Card] = []
    for e in events[:last_action]:
        if e.kind == "street":
            board_then.extend(e.cards)
    contenders = [s for s in SEATS if not _folded(events, s)]
    if len(board_then) >= 5 or len(contenders) < 2 or not result.showdown:
        return None
    shares = showdown_equities
    if game(hand.variant).evaluator is Evaluator.OMAHA:
        shares = omaha_showdown_shares
    equities = shares(
        {s: tuple(hand.hole_cards(s)) for s in contenders}, tuple(board_then), random.Random(0)
    )
    out: dict[int, float] = {}
    for s in SEATS:
        won = sum(p.shares.get(s, 0) for p in result.pots)
        put_in = won - result.net[s]
        credit = 0.0
        for p in result.pots:
            if s not in p.eligible:
                continue
            live = [x for x in p.eligible if x in contenders]
            credit += p.amount * (equities[s] if len(live) > 1 else 1.0)
        out[s] = credit - put_in
    return out


def _folded(events: list[Any], seat: int) -> bool:
    return any(e.kind == "action" and e.seat == seat and e.action == "fold" for e in events)


def showdown_equities(
    holes: dict[int, tuple[Card, ...]], board: tuple[Card, ...], rng: random.Random
) -> dict[int, float]:
    """Heads-up pot shares: exact over every remaining board after the flop, Monte Carlo
    (40,000 trials) before it."""
    (s1, h1), (s2, h2) = holes.items()
    if not board:
        seed_from(rng)
        opponent = e7_range([(h2[0], h2[1])])
        mine = [E7_CARDS[c] for c in h1]
        eq = float(eval7.py_hand_vs_range_monte_carlo(mine, opponent, [], PREFLOP_ALLIN_SAMPLES))
        return {s1: eq, s2: 1.0 - eq}
    dead = set(h1) | set(h2) | set(board)
    rest = [c for c in range(DECK_SIZE) if c not in dead]
    e1 = [E7_CARDS[c] for c in (*h1, *board)]
    e2 = [E7_CARDS[c] for c in (*h2, *board)]
    won = 0.0
    total = 0
    for runout in combinations(rest, 5 - len(board)):
        extra = [E7_CARDS[c] for c in runout]
        v1 = eval7.evaluate(e1 + extra)
        v2 = eval7.evaluate(e2 + extra)
        won += 1.0 if v1 > v2 else 0.5 if v1 == v2 else 0.0
        total += 1
    return {s1: won / total, s2: 1.0 - won / total}


def deal_deck(secret: str, seed: int, deal: int) -> list[Card]:
    """The deck of one deal: the match seed and the deal number alone do not give it."""
    deck = list(range(DECK_SIZE))
    random.Random(f"deck:{secret}:{seed}:{deal}").shuffle(deck)
    return deck


BotFactory = Callable[[], Bot]


def bot_rngs(secret: str, deal: int) -> dict[int, random.Random]:
    return {s: random.Random(f"bot:{secret}:{deal}:{s}") for s in SEATS}


def play_pair(
    variant: str,
    a: BotFactory,
    b: BotFactory,
    seed: int,
    deal: int,
    stack_bb: int,
    secret: str = "",
) -> float:
    """A's net over both halves of one duplicate deal, in big blinds (fresh bots each hand)."""
    bb = big_blind_of(variant)
    deck = deal_deck(secret, seed, deal)
    button = SEATS[deal % 2]
    total = 0.0
    for a_seat in SEATS:
        b_seat = 1 - a_seat
        bots = {a_seat: a(), b_seat: b()}
        net = play_hand(variant, bots, bot_rngs(secret, deal), deck, button, stack_bb * bb)
        total += net[a_seat]
    return total / bb


def play_session(
    variant: str,
    a: BotFactory,
    b: BotFactory,
    seed: int,
    deals: Sequence[int],
    stack_bb: int,
    secret: str = "",
) -> list[float]:
    """A's net per deal over a session and its mirror (seats swapped, fresh bots): the same
    two bots play every deal of ``deals`` in turn, remembering what the table showed (a deal
    may come twice: the second time shows what the bots learnt in between)."""
    bb = big_blind_of(variant)
    totals = [0.0] * len(deals)
    for a_seat in SEATS:
        b_seat = 1 - a_seat
        bots = {a_seat: a(), b_seat: b()}
        for i, deal in enumerate(deals):
            deck = deal_deck(secret, seed, deal)
            button = SEATS[deal % 2]
            net = play_hand(variant, bots, bot_rngs(secret, deal), deck, button, stack_bb * bb)
            totals[i] += net[a_seat] / bb
    return totals


def summarise(a: str, b: str, variant: str, pair_results: Sequence[float]) -> MatchResult:
    n = len(pair_results)
    mean = sum(pair_results) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in pair_results) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else math.inf
    per100 = 50.0  # a pair is two hands
    return MatchResult(
        a=a,
        b=b,
        variant=variant,
        pairs=n,
        pair_results=tuple(pair_results),
        bb_per_100=mean * per100,
        ci95_low=(mean - half) * per100,
        ci95_high=(mean + half) * per100,
    )


class _Factories:
    """Bot factories for one worker: in-process classes, or a sandbox process per outside
    bot (started once, a fresh instance in it per call)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.sandboxes: list[SandboxedBots] = []
        self.factories: list[BotFactory] = []
        for name in names:
            if is_outside(name):
                box = SandboxedBots(name)
                self.sandboxes.append(box)
                self.factories.append(box.new)
            else:
                self.factories.append(load_bot_class(name))

    def close(self) -> None:
        for box in self.sandboxes:
            box.close()


Chunk = tuple[str, str, str, int, int, int, int, int, str]


def _play_range(args: Chunk) -> list[float]:
    variant, a, b, seed, first, last, stack_bb, session, secret = args
    made = _Factories([a, b])
    a_new, b_new = made.factories
    try:
        if not session:
            return [
                play_pair(variant, a_new, b_new, seed, d, stack_bb, secret)
                for d in range(first, last)
            ]
        out: list[float] = []
        for start in range(first, last, session):
            deals = range(start, min(last, start + session))
            out.extend(play_session(variant, a_new, b_new, seed, deals, stack_bb, secret))
        return out
    finally:
        made.close()


def run_match(
    variant: str,
    a: str,
    b: str,
    pairs: int,
    seed: int,
    stack_bb: int = 100,
    workers: int = 1,
    session: int = 0,
    secret: str | None = None,
    progress: Progress | None = None,
) -> MatchResult:
    """A duplicate match of ``pairs`` deals; bots by level name or ``package.module:Class``.
    ``session``: deals per session with memory kept (0: fresh bots every hand);
    ``progress(n)`` is called as each n more pairs are played."""
    per_pair = _match_pairs(
        variant, a, b, pairs, seed, stack_bb, workers, session, secret, progress
    )
    return summarise(a, b, variant, per_pair)


def _match_pairs(
    variant: str,
    a: str,
    b: str,
    pairs: int,
    seed: int,
    stack_bb: int,
    workers: int,
    session: int,
    given_secret: str | None,
    progress: Progress | None = None,
) -> list[float]:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; use one of {', '.join(VARIANTS)}")
    if pairs < 1 or stack_bb < 1:
        raise ValueError("pairs and stack-bb must be positive")
    if session < 0:
        raise ValueError("session must be 0 (no memory) or a positive number of hands")
    for name in (a, b):  # fail early on a bad name (an outside bot is imported in its box)
        bot_path(name)
        if not is_outside(name):
            load_bot_class(name)
    secret = secrets.token_hex(16) if given_secret is None else given_secret
    # Whole sessions a chunk, and chunks small enough to report progress by: a pair's result
    # depends only on its deal and the secret, so the chunking never changes a figure.
    unit = session or 1
    step = unit * max(1, math.ceil(min(PROGRESS_PAIRS, pairs / max(1, workers)) / unit))
    chunks = [
        (variant, a, b, seed, i, min(pairs, i + step), stack_bb, session, secret)
        for i in range(0, pairs, step)
    ]
    if workers <= 1:
        return _collect(map(_play_range, chunks), progress)
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return _collect(pool.imap(_play_range, chunks), progress)


def _collect(parts: Iterable[list[float]], progress: Progress | None) -> list[float]:
    out: list[float] = []
    for part in parts:
        out.extend(part)
        if progress is not None:
            progress(len(part))
    return out


def run_paired(
    variant: str,
    a: str,
    a2: str,
    b: str,
    pairs: int,
    seed: int,
    stack_bb: int = 100,
    workers: int = 1,
    session: int = 0,
    secret: str | None = None,
) -> tuple[MatchResult, MatchResult, MatchResult]:
    """``a`` and ``a2`` each against ``b`` on the same deals and bot rngs, and the difference
    a − a2 per pair (its interval is much narrower than either match's)."""
    secret = secrets.token_hex(16) if secret is None else secret
    first = _match_pairs(variant, a, b, pairs, seed, stack_bb, workers, session, secret)
    second = _match_pairs(variant, a2, b, pairs, seed, stack_bb, workers, session, secret)
    diff = [x - y for x, y in zip(first, second, strict=True)]
    return (
        summarise(a, b, variant, first),
        summarise(a2, b, variant, second),
        summarise(f"{a} - {a2}", b, variant, diff),
    )
