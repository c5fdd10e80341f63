"""Play a hand to the end at random: uniform over the legal kinds of action, then uniform
over the amounts (bet/raise) or the discards (draw). Pure given ``rng``; used by the property
tests and the benchmark.

``rng`` is any object with ``randint``, ``choice`` and ``sample`` (``random.Random`` fits);
this module never imports ``random`` itself, as no rules code may (FAIRNESS.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from .actions import Action, ActionKind, LegalActions
from .events import Event
from .hand import AnyHand

T = TypeVar("T")


class ActionRng(Protocol):
    """The few methods of a random number generator that choosing actions needs."""

    def randint(self, a: int, b: int) -> int: ...
    def choice(self, seq: Sequence[T]) -> T: ...
    def sample(self, population: Sequence[T], k: int) -> list[T]: ...


def random_action(legal: LegalActions, hand_cards: tuple[int, ...], rng: ActionRng) -> Action:
    """A uniformly chosen legal action for ``legal`` (``hand_cards``: the seat's cards, draw)."""
    if legal.is_draw_phase:
        count = rng.randint(0, legal.max_discards)
        return Action.discard(tuple(rng.sample(hand_cards, count)))
    choices: list[ActionKind] = []
    if legal.can_fold:
        choices.append(ActionKind.FOLD)
    if legal.can_check:
        choices.append(ActionKind.CHECK)
    if legal.can_call:
        choices.append(ActionKind.CALL)
    if legal.bet_kind is not None:
        choices.append(legal.bet_kind)
    kind = rng.choice(choices)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        return Action(kind, rng.randint(legal.min_to, legal.max_to))
    return Action(kind)


def random_play(hand: AnyHand, rng: ActionRng) -> list[Event]:
    """Act at random until the hand is over; returns the events this produced."""
    produced: list[Event] = []
    while True:
        seat = hand.to_act
        if seat is None:
            return produced
        legal = hand.legal_actions()
        produced += hand.act(seat, random_action(legal, hand.hole_cards(seat), rng))
