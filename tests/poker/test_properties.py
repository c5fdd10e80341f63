"""Property tests (hypothesis): random hands with random legal actions, both variants.

Invariants checked after every action: chips are conserved, no stack goes negative, pots
plus current bets add up to what was put in; every legal action is accepted, random illegal
ones are rejected with the hand unchanged; the hand always ends; replaying the log gives the
same hand (R-PT-01..03, R-HE-06..09, R-DR-04/05/08).
"""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from ahiko.poker.actions import Action, ActionKind, IllegalAction, LegalActions
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import ActionTaken, BlindPosted, StreetDealt
from ahiko.poker.hand import BaseHand
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view

MAX_STEPS = 400


def stacks_strategy(low: int, high: int) -> st.SearchStrategy[list[int]]:
    short = st.integers(1, 60)  # many short all-ins
    deep = st.integers(61, 5000)
    return st.lists(st.one_of(short, deep), min_size=low, max_size=high)


def illegal_attempts(hand: BaseHand, legal: LegalActions, rng: Random) -> list[tuple[int, Action]]:
    seat = legal.seat
    others = [s for s in hand.dealt_seats if s != seat]
    tries: list[tuple[int, Action]] = [(rng.choice(others), Action.call()), (99, Action.check())]
    if legal.is_draw_phase:
        tries += [(seat, Action.check()), (seat, Action.discard((99,)))]
        return tries
    if legal.call_cost > 0:
        tries.append((seat, Action.check()))
    else:
        tries += [(seat, Action.fold()), (seat, Action.call())]
    tries.append((seat, Action.discard(())))
    if legal.bet_kind is None:
        tries.append((seat, Action.raise_to(legal.committed + legal.stack)))
        tries.append((seat, Action.bet(legal.committed + legal.stack)))
    else:
        wrong = ActionKind.RAISE if legal.bet_kind is ActionKind.BET else ActionKind.BET
        tries.append((seat, Action(wrong, legal.min_to)))
        tries.append((seat, Action(legal.bet_kind, legal.max_to + rng.randint(1, 1000))))
        if legal.min_to > 0:
            tries.append((seat, Action(legal.bet_kind, rng.randint(0, legal.min_to - 1))))
    return tries


def check_invariants(hand: BaseHand, start_total: int) -> None:
    assert all(c >= 0 for c in hand.chips)
    assert sum(hand.chips) + sum(hand.total) == start_total or hand.is_over
    if hand.is_over:
        assert sum(hand.chips) == start_total
        assert hand.result is not None and sum(hand.result.net.values()) == 0
        assert sum(p.amount for p in hand.result.pots) == sum(hand.total)
        return
    v = view(hand, None)
    assert sum(p["amount"] for p in v["pots"]) + sum(s["bet"] for s in v["seats"]) == sum(
        hand.total
    )


def play_and_check(hand: BaseHand, rng: Random) -> None:
    start_total = sum(hand.starting)
    for _ in range(MAX_STEPS):
        check_invariants(hand, start_total)
        if hand.is_over:
            break
        legal = hand.legal_actions()
        before = (hand.events, view(hand, None), view(hand, legal.seat))
        for seat, action in illegal_attempts(hand, legal, rng):
            try:
                hand.act(seat, action)
            except IllegalAction as err:
                assert err.rule.startswith("R-")
            else:
                raise AssertionError(f"accepted illegal {action} by seat {seat}")
            assert (hand.events, view(hand, None), view(hand, legal.seat)) == before
        hand.act(legal.seat, random_action(legal, hand.hole_cards(legal.seat), rng))
    assert hand.is_over, "the hand did not end"
    again = type(hand).from_events(hand.events)
    assert again.events == hand.events and again.result == hand.result
    for viewer in (None, *hand.dealt_seats):
        assert view(again, viewer) == view(hand, viewer)


@given(
    stacks=stacks_strategy(2, 9),
    ante=st.sampled_from([0, 0, 1, 5]),
    button=st.integers(0, 8),
    rng=st.randoms(use_true_random=False),
)
def test_R_PT_01_holdem_random_hands_keep_every_invariant(
    stacks: list[int], ante: int, button: int, rng: Random
) -> None:
    deck = list(range(52))
    rng.shuffle(deck)
    hand, _ = HoldemHand.start(
        HoldemConfig(5, 10, ante), list(range(len(stacks))), stacks, button, deck
    )
    play_and_check(hand, rng)


@given(
    stacks=stacks_strategy(2, 6),
    ante=st.sampled_from([0, 1, 2]),
    cap=st.sampled_from([1, 4]),
    rng=st.randoms(use_true_random=False),
)
def test_R_DR_08_draw_random_hands_keep_every_invariant(
    stacks: list[int], ante: int, cap: int, rng: Random
) -> None:
    deck = list(range(52))
    rng.shuffle(deck)
    stacks = [max(1, s // 20) for s in stacks]  # fixed-limit stacks of a few bets
    hand, _ = DrawHand.start(
        DrawConfig(ante, 2, raise_cap=cap), list(range(len(stacks))), stacks, 0, deck
    )
    play_and_check(hand, rng)


class ReopenTracker:
    """R-HE-08 tracked from the public events alone, independently of the engine: per betting
    round, the highest bet, the last full raise (an increment of at least the last full raise
    and the big blind; the big blind itself pre-flop) and each seat's bet when it last acted."""

    def __init__(self, big_blind: int) -> None:
        self.big_blind = big_blind
        self.new_round()

    def new_round(self) -> None:
        self.max_bet = 0
        self.full = 0
        self.bet_at_last_action: dict[int, int] = {}
        self.bets: dict[int, int] = {}

    def feed(self, event: object) -> None:
        if isinstance(event, StreetDealt):
            self.new_round()
        elif isinstance(event, BlindPosted):
            self.bets[event.seat] = event.amount
            self.max_bet = max(self.max_bet, event.amount)
            if event.blind == "bb":
                self.full = self.big_blind  # the round's first full bet pre-flop
        elif isinstance(event, ActionTaken) and event.action != "fold":
            if event.action in ("bet", "raise"):
                increment = event.amount - self.max_bet
                if increment >= max(self.full, self.big_blind):
                    self.full = increment
                self.max_bet = event.amount
            if event.action != "check":
                self.bets[event.seat] = event.amount
            self.bet_at_last_action[event.seat] = self.bets.get(event.seat, 0)

    def may_raise(self, seat: int) -> bool:
        """Raising is open to ``seat`` by R-HE-08 (other limits aside)."""
        if seat not in self.bet_at_last_action:
            return True  # has not acted yet in this round
        faced = self.max_bet - self.bet_at_last_action[seat]
        return faced >= max(self.full, self.big_blind)


def short_all_in_action(legal: LegalActions, rng: Random) -> Action:
    """A policy that makes the R-HE-08 cases common: mostly calls (so the callers are there
    when a short all-in comes), all-ins often (with these stacks most are short), a few
    min-raises and folds."""
    roll = rng.random()
    if legal.bet_kind is not None and roll < 0.35:
        return Action(legal.bet_kind, legal.max_to if roll < 0.28 else legal.min_to)
    if legal.call_cost > 0 and roll > 0.95:
        return Action.fold()
    return Action.call() if legal.call_cost > 0 else Action.check()


@settings(max_examples=300)
@given(
    stacks=st.lists(st.one_of(st.integers(1, 45), st.integers(46, 400)), min_size=2, max_size=9),
    button=st.integers(0, 8),
    rng=st.randoms(use_true_random=False),
)
def test_R_HE_08_raise_only_after_a_full_raise_at_least_the_big_blind_or_not_yet_acted(
    stacks: list[int], button: int, rng: Random
) -> None:
    """The invariant behind R-HE-08 and its D line, with short all-ins in every position,
    the blinds included (stacks of 1..45 at blinds 10/20 post short blinds and go all-in for
    less than a raise): at every decision, a seat that has already acted in the round is
    offered a raise only if the raise it faces since its last action is at least
    max(last full raise, big blind); and when it is, and it has chips beyond a call and an
    opponent could answer, the raise is offered."""
    deck = list(range(52))
    rng.shuffle(deck)
    big_blind = 20
    hand, events = HoldemHand.start(
        HoldemConfig(10, big_blind), list(range(len(stacks))), stacks, button, deck
    )
    tracker = ReopenTracker(big_blind)
    for event in events:
        tracker.feed(event)
    for _ in range(MAX_STEPS):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        seat = legal.seat
        opened = tracker.may_raise(seat)
        if legal.bet_kind is not None:
            assert opened, f"seat {seat} offered a raise R-HE-08 closes: {legal}"
        elif opened and legal.stack > legal.call_cost:
            answer = any(
                s != seat
                and hand.stacks[s] > 0
                and v["status"] == "active"
                and hand.stacks[s] + v["bet"] > tracker.max_bet
                for s, v in ((v["seat"], v) for v in view(hand, None)["seats"])
            )
            assert not answer, f"seat {seat} refused a raise R-HE-08 allows: {legal}"
        for event in hand.act(seat, short_all_in_action(legal, rng)):
            tracker.feed(event)
    assert hand.is_over
