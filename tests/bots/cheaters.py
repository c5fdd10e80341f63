"""Proof-of-concept cheats (issue 18): bots that look for the hand being played outside the
view they are given, by walking up their caller's frames or through ``gc.get_objects()``.
When they find it they read the other seat's cards and move all in when ahead (hold'em:
equity against those exact cards), else call or check; finding nothing they fold (or check).
``found`` says what they saw last time."""

from __future__ import annotations

import gc
import random
import sys
from typing import Any, ClassVar

from ahiko.poker.actions import Action
from ahiko.poker.draw import DrawHand
from ahiko.poker.holdem import HoldemHand

HANDS = (HoldemHand, DrawHand)


def _ahead(view: dict[str, Any], hand: Any, found: list[int]) -> bool:
    if view["variant"] != "holdem":
        return True
    from ahiko.bots.arena import showdown_equities

    me = view["viewer"]
    holes = {me: tuple(hand.hole_cards(me)), -1: tuple(found)}
    eq = showdown_equities(holes, tuple(hand.community), random.Random(0))
    return eq[me] >= 0.5


def _act(view: dict[str, Any], found: Any, hand: Any = None) -> Action:
    legal = view["legal"]
    if legal["is_draw_phase"]:
        return Action.discard(())
    if found is not None:
        kind = legal["bet_kind"]
        if kind and _ahead(view, hand, found):
            return (
                Action.bet(legal["max_to"]) if kind == "bet" else Action.raise_to(legal["max_to"])
            )
        return Action.check() if legal["can_check"] else Action.call()  # behind: see it cheaply
    return Action.check() if legal["can_check"] else Action.fold()


def is_this_hand(hand: Any, view: dict[str, Any]) -> bool:
    """``hand`` is the one the view comes from (a process may hold other live hands): the
    viewer is dealt in it with the cards the view shows."""
    from ahiko.bots.situation import situation_from_view

    me = view["viewer"]
    try:
        return me in hand.order and tuple(hand.hole_cards(me)) == situation_from_view(view).hole
    except (ReferenceError, KeyError, ValueError):
        return False


def opponent_cards(hand: Any, me: int) -> list[int]:
    return [c for s in hand.order if s != me for c in hand.hole_cards(s)]


class FrameReader:
    """Walks up the caller's frames looking for a hand object among their locals."""

    found: list[int] | None = None

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        frame = sys._getframe(1)
        self.found, hand = None, None
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, HANDS) and is_this_hand(value, view):
                    hand = value
                    self.found = opponent_cards(value, view["viewer"])
            frame = frame.f_back
        return _act(view, self.found, hand)


class GcWalker:
    """Walks every object the garbage collector tracks looking for a hand object."""

    found: list[int] | None = None

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        self.found, hand = None, None
        for obj in gc.get_objects():
            try:
                live = isinstance(obj, HANDS) and not obj.is_over
            except ReferenceError:  # a dead weak proxy somewhere in the process
                continue
            if live and is_this_hand(obj, view):
                hand = obj
                self.found = opponent_cards(obj, view["viewer"])
        return _act(view, self.found, hand)


class Folder:
    """What a cheat that finds nothing plays: check when free, else fold."""

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        return _act(view, None)


class ProcReader:
    """The attack on the arena's command line: reads every process it can see under
    ``/proc`` (command lines, and environments where readable) for an arena's ``--seed`` and
    ``--secret`` (or ``AHIKO_ARENA_SECRET``), and rebuilds the decks from them. The arena
    makes a fresh bot every hand, two hands a deal, so the n-th instance plays deal n // 2; a
    guess that gives the hole cards of at least two of its hands, and of every one, is the
    match's deal (one hand could match by chance, 1 in 1,326), and then it plays knowing the
    other seat's cards. It appends what it saw (its pid, the pids it could see, the guesses,
    whether it derived the deck) to ``proc_reader.jsonl`` in its working directory."""

    made: ClassVar[int] = 0
    dealt: ClassVar[dict[int, tuple[int, list[int]]]] = {}  # hand index -> (seat, hole cards)

    def __init__(self) -> None:
        self.hand_index = ProcReader.made
        ProcReader.made += 1

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        import json
        import os

        me, own = view["viewer"], os.getpid()
        ProcReader.dealt[self.hand_index] = (me, sorted(_own_cards(view)))
        seen = [int(p) for p in os.listdir("/proc") if p.isdigit()]
        guesses = {guess for pid in seen for guess in _arena_guesses(pid)}
        found = None
        for seed, secret in guesses:
            if len(ProcReader.dealt) >= 2 and all(
                sorted(_holes(view["variant"], seed, secret, i)[seat]) == cards
                for i, (seat, cards) in ProcReader.dealt.items()
            ):
                found = _holes(view["variant"], seed, secret, self.hand_index)[1 - me]
        with open("proc_reader.jsonl", "a") as report:
            report.write(json.dumps({"hand": self.hand_index, "pid": own, "seen": seen,
                                     "guesses": sorted(guesses),
                                     "derived": found is not None}) + "\n")  # fmt: skip
        return _act(view, found, _ViewHand(view) if found is not None else None)


def _own_cards(view: dict[str, Any]) -> list[int]:
    from ahiko.bots.cards7 import parse_view_cards

    mine = next(s for s in view["seats"] if s["seat"] == view["viewer"])
    return list(parse_view_cards(mine["cards"]))


def _arena_guesses(pid: int) -> set[tuple[int, str]]:
    """(seed, secret) pairs an arena command line or environment gives away."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")
    except OSError:
        return set()
    if "arena" not in argv or "--seed" not in argv:
        return set()
    seed = int(argv[argv.index("--seed") + 1])
    secrets = {""}
    for flag in ("--secret", "--bot-secret"):
        if flag in argv:
            secrets.add(argv[argv.index(flag) + 1])
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(e.split("=", 1) for e in f.read().decode().split("\0") if "=" in e)
        secrets.add(env.get("AHIKO_ARENA_SECRET", ""))
    except OSError:
        pass
    return {(seed, s) for s in secrets}


def _holes(variant: str, seed: int, secret: str, hand_index: int) -> dict[int, list[int]]:
    """Both seats' hole cards in the deal of the arena's ``hand_index``-th hand."""
    from ahiko.bots.arena import SEATS, _start, deal_deck

    deal = hand_index // 2
    hand = _start(variant, deal_deck(secret, seed, deal), SEATS[deal % 2], 200)
    return {s: list(hand.hole_cards(s)) for s in SEATS}


class _ViewHand:
    """Enough of a hand for ``_ahead``: the cheat's own cards and the board, from its view."""

    def __init__(self, view: dict[str, Any]) -> None:
        from ahiko.bots.cards7 import parse_view_cards

        self._mine = tuple(_own_cards(view))
        self.community = tuple(parse_view_cards(view.get("board")))

    def hole_cards(self, seat: int) -> tuple[int, ...]:
        return self._mine


class ParentReader:
    """The attack on the arena's process directly: given the pid of the process that runs
    the arena (the test writes it to ``arena.pid`` in the working directory), and its own
    parent's pid, it tries to open their ``/proc`` files: the command line (where ``--seed``
    stood), the environment, the open files and the working directory. It appends what it
    could read (None where it could not) to ``parent_reader.jsonl`` and folds."""

    def decide(self, view: dict[str, Any], rng: random.Random) -> Action:
        import json
        import os

        with open("arena.pid") as f:
            arena = int(f.read())
        read: dict[str, object] = {"ppid": os.getppid()}
        for pid in {arena, os.getppid()}:
            for name in ("cmdline", "environ", "fd", "cwd"):
                path = f"/proc/{pid}/{name}"
                try:
                    if name in ("fd", "cwd"):
                        seen: object = sorted(os.listdir(path))
                    else:
                        with open(path, "rb") as f:
                            seen = f.read().decode(errors="replace")
                except OSError:
                    seen = None
                read[f"{pid}/{name}"] = seen
        with open("parent_reader.jsonl", "a") as report:
            report.write(json.dumps(read) + "\n")
        return _act(view, None)
