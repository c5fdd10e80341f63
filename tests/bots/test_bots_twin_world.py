"""The twin-world property for every level and every style (issue 18, R-AI-01): two worlds
with the same public history but the hidden cards permuted (the other seat's cards, the
cards still in the deck) give a bot the same view and the same decision, after the same
earlier hands have gone into its memory.

A world is a session: a few hands that end without a showdown (so nothing hidden is ever
shown), then a hand played to a decision point. The twin deals from a deck where every
position the bot has seen keeps its card and every other position gets a card drawn from the
others at random; the same actions are replayed (a discard names the twin's cards at the same
positions)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ahiko.bots.arena import _start
from ahiko.bots.protocol import LEVELS, load_bot_class
from ahiko.bots.styles import STYLES
from ahiko.poker.actions import Action
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view

BOTS = [*LEVELS, *STYLES.values()]
STACK = {"holdem": 200, "draw": 400}


def _play(variant: str, deck: list[int], button: int, actions: list[Action] | None, stop: int,
          rng: random.Random) -> tuple[Any, list[Action]]:  # fmt: skip
    """Play a hand from ``deck``: random actions (recorded), or ``actions`` replayed; stop
    before action number ``stop`` (or at the end)."""
    hand = _start(variant, deck, button, STACK[variant])
    played: list[Action] = []
    while not hand.is_over and len(played) < stop:
        seat = hand.to_act
        if actions is None:
            action = random_action(hand.legal_actions(), tuple(hand.hole_cards(seat)), rng)
        else:
            action = actions[len(played)]
        hand.act(seat, action)
        played.append(action)
    return hand, played


def _seen_positions(hand: Any, me: int) -> set[int]:
    """Deck positions whose cards the seat has seen: its own, the board, its draws."""
    seen: set[int] = set()
    for e in hand.events:
        if e.kind == "street" or (e.kind in ("hole_dealt", "discarded") and e.seat == me):
            seen.update(e.positions)
    return seen


def _twin_deck(deck: list[int], seen: set[int], rng: random.Random) -> list[int]:
    hidden = [i for i in range(len(deck)) if i not in seen]
    cards = [deck[i] for i in hidden]
    rng.shuffle(cards)
    twin = list(deck)
    for i, c in zip(hidden, cards, strict=True):
        twin[i] = c
    return twin


def _mapped(actions: list[Action], deck: list[int], twin: list[int]) -> list[Action]:
    where = {c: i for i, c in enumerate(deck)}
    return [
        Action.discard(tuple(twin[where[c]] for c in a.cards)) if a.kind == "discard" else a
        for a in actions
    ]


def _twin_hands(variant: str, rng: random.Random, me: int, decide: bool) -> tuple[Any, Any]:
    """A hand and its twin: to a decision of ``me`` (``decide``) or to an end by a fold."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        button = rng.choice((0, 1))
        stop = rng.randint(0, 9) if decide else 10**6
        hand, actions = _play(variant, deck, button, None, stop, rng)
        if decide and (hand.is_over or hand.to_act != me):
            continue
        if not decide and (not hand.is_over or hand.result.showdown):
            continue
        twin_deck = _twin_deck(deck, _seen_positions(hand, me), rng)
        twin, _ = _play(variant, twin_deck, button, _mapped(actions, deck, twin_deck), stop, rng)
        return hand, twin


@pytest.mark.parametrize("variant", ["holdem", "draw"])
@pytest.mark.parametrize("bot_name", BOTS)
def test_R_AI_01_twin_worlds_give_the_same_view_and_the_same_decision(
    bot_name: str, variant: str
) -> None:
    cls = load_bot_class(bot_name)
    rng = random.Random(f"twins:{bot_name}:{variant}")
    me = 0
    differed = 0
    for world in range(4):
        bot, twin_bot = cls(), cls()
        for _ in range(3):  # earlier hands of the session, into the bots' memories
            hand, twin = _twin_hands(variant, rng, me, decide=False)
            seen, twin_seen = view(hand, me), view(twin, me)
            assert seen == twin_seen
            for b, v in ((bot, seen), (twin_bot, twin_seen)):
                observe = getattr(b, "observe", None)
                if observe is not None:
                    observe(v)
        hand, twin = _twin_hands(variant, rng, me, decide=True)
        other = 1 - me
        differed += hand.hole_cards(other) != twin.hole_cards(other)
        seen, twin_seen = view(hand, me), view(twin, me)
        assert seen == twin_seen
        memory = getattr(bot, "memory", None)
        if memory is not None:
            assert memory.stats == twin_bot.memory.stats and memory.stats
        first = bot.decide(seen, random.Random(world))
        assert first == twin_bot.decide(twin_seen, random.Random(world))
    assert differed >= 3  # the twins really hid different cards from the bot
