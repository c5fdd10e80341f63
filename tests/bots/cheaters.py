"""Proof-of-concept cheats (issue 18): bots that look for the hand being played outside the
view they are given, by walking up their caller's frames or through ``gc.get_objects()``.
When they find it they read the other seat's cards and move all in when ahead (hold'em:
equity against those exact cards), else call or check; finding nothing they fold (or check).
``found`` says what they saw last time."""

from __future__ import annotations

import gc
import random
import sys
from typing import Any

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
