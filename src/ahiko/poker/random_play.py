"""Play a hand to the end at random: uniform over the legal kinds of action, then uniform
over the amounts (bet/raise) or the discards (draw). Pure given ``rng``; used by the property
tests and the benchmark."""

from __future__ import annotations

from random import Random

from .actions import Action, ActionKind, LegalActions
from .events import Event
from .hand import BaseHand


def random_action(legal: LegalActions, hand_cards: tuple[int, ...], rng: Random) -> Action:
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


def random_play(hand: BaseHand, rng: Random) -> list[Event]:
    """Act at random until the hand is over; returns the events this produced."""
    produced: list[Event] = []
    while True:
        seat = hand.to_act
        if seat is None:
            return produced
        legal = hand.legal_actions()
        produced += hand.act(seat, random_action(legal, hand.hole_cards(seat), rng))
