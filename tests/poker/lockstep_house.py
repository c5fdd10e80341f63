"""Lockstep play of the house options against pokerkit 0.7.7 (``lockstep.py``'s comparison at
every decision, plus what the options add).

- The Mississippi straddle: pokerkit's ``blinds_or_straddles`` with the straddle at the
  button's index (the last), so the small blind opens pre-flop and the button acts last.
- Run it twice: pokerkit in cash-game mode (``Mode.CASH_GAME``) asks every player still in
  when nobody can bet any more before the river (``select_runout_count``); both engines must
  ask the same players at the same moment. The second run-out's cards are our layout's
  (``holdem-noburn-2board-v1``: from board position 5 on), which is also the order pokerkit
  deals them in (the first run-out complete, then the second).
- Double board: pokerkit's ``starting_board_count=2`` deals each street to the first board
  then to the second; our layout keeps the second board five positions further on, so the
  cards are fed street by street from those positions.

Finishing stacks: equal, except where the odd chips of a split differ by rule (R-PT-05:
we hand a pot's odd chip of the halving to the first winner after the button and the odd
chips of a board's split one by one from the first winner after the button; pokerkit gives
a pot's odd chip to the first board and all of a split's remainder to its first winner, and
merges pots). A hand with any such odd chip is counted, and its stacks must still differ by
no more than its odd chips.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field, replace

from lockstep import (
    AUTOMATIONS,
    Deal,
    act_in_pokerkit,
    assert_same_options,
    choose_action,
    dealt_order,
    pokerkit_payouts,
    random_deal,
    spec_closes_below_big_blind,
)
from pokerkit import Mode, NoLimitTexasHoldem, Poker, State

from ahiko.poker.cards import format_card
from ahiko.poker.events import PotSplit
from ahiko.poker.holdem import HoldemHand


@dataclass
class HouseTally:
    hands: int = 0
    decisions: int = 0
    offered: int = 0  # hands where the players were asked to run it twice
    run_twice: int = 0  # hands run twice
    two_board_showdowns: int = 0
    odd_chip_hands: int = 0
    player_counts: set[int] = field(default_factory=set)


def start_state(deal: Deal, order: list[int], game: type[Poker]) -> State:
    stack_of = dict(zip(deal.seats, deal.stacks, strict=True))
    config = deal.config
    n = len(order)
    forced = [config.small_blind, config.big_blind] + [0] * (n - 2)
    if config.straddle and n > 2:
        forced[n - 1 if config.straddle_button else 2] = config.straddle
    return game.create_state(  # type: ignore[attr-defined]
        AUTOMATIONS,
        True,
        config.ante,
        tuple(forced),
        config.big_blind,
        [stack_of[s] for s in order],
        n,
        # cash-game mode asks for run-outs at every all-in: only where the table runs twice
        mode=Mode.CASH_GAME if config.run_twice else Mode.TOURNAMENT,
        starting_board_count=config.boards,
    )


class Dealer:
    """Feeds pokerkit the cards of our layout: hole card k of player j at k*n + j, board
    card b at h*n + b, the second board's (or second run-out's) own card k at h*n + 5 + k."""

    def __init__(self, deck: list[int], n: int, hole_cards: int, boards: int) -> None:
        self.deck, self.n, self.hole_cards, self.boards = deck, n, hole_cards, boards
        self.first = 0  # first board's cards dealt
        self.second = 0  # the second board's own cards dealt
        self.street_calls = 0

    def card(self, position: int) -> str:
        return format_card(self.deck[position])

    def advance(self, state: State) -> None:
        base = self.hole_cards * self.n
        while True:
            if state.can_deal_hole():
                j = state.hole_dealee_index
                assert j is not None
                holes = (self.card(k * self.n + j) for k in range(self.hole_cards))
                state.deal_hole("".join(holes))
            elif state.can_burn_card():
                state.burn_card("??")
                self.street_calls = 0
            elif state.can_deal_board():
                count = state.board_dealing_count
                assert count is not None
                on_second = self.first >= 5 or (self.boards == 2 and self.street_calls == 1)
                if on_second:
                    start, self.second = base + 5 + self.second, self.second + count
                else:
                    start, self.first = base + self.first, self.first + count
                state.deal_board("".join(self.card(start + i) for i in range(count)))
                self.street_calls += 1
            else:
                return


def answer_runs(hand: HoldemHand, state: State, order: list[int], rng: random.Random) -> int:
    """Both engines ask the same players; each answers (mostly twice) in pokerkit's order."""
    asked = [order[i] for i in state.runout_count_selector_indices]
    assert sorted(asked) == sorted(hand.runs_pending), (asked, hand.runs_pending)
    for seat in asked:
        runs = 2 if rng.random() < 0.8 else 1
        state.select_runout_count(runs)  # pokerkit 0.7.7: the next selector, in its order
        hand.choose_runs(seat, runs)
    return hand.runs


def odd_chips(hand: HoldemHand) -> int:
    """On two boards, the chips whose owner depends on an odd-chip rule: each pot's odd chip
    of the halving and each half's remainder among its winners."""
    assert hand.result is not None
    splits = [e for e in hand.events if isinstance(e, PotSplit)]
    return sum(e.amount % len(e.winners) for e in splits) + sum(
        pot.amount % 2 for pot in hand.result.pots
    )


def play_house_hand(
    deal: Deal,
    rng: random.Random,
    tally: HouseTally,
    hand_class: type[HoldemHand],
    game: type[Poker],
) -> None:
    order = dealt_order(deal.seats, deal.button)
    n = len(order)
    hand, _ = hand_class.start(deal.config, deal.seats, deal.stacks, deal.button, deal.deck)
    state = start_state(deal, order, game)
    dealer = Dealer(deal.deck, n, hand_class.game.hole_cards, deal.config.boards)
    dealer.advance(state)
    context = f"deal {deal}"
    street, acted = hand.street, set()
    while not hand.is_over:
        if hand.runs_pending:
            tally.offered += 1
            assert state.actor_index is None, f"{context}: pokerkit expects an action"
            answer_runs(hand, state, order, rng)
            dealer.advance(state)
            continue
        assert not state.can_select_runout_count(), f"{context}: pokerkit asks, we do not"
        if hand.street != street:
            street, acted = hand.street, set()
        seat = hand.to_act
        assert seat is not None, f"{context}: our hand is not over but nobody is to act"
        legal = hand.legal_actions()
        assert state.actor_index == order.index(seat), f"{context}: actor {seat}"
        closed = spec_closes_below_big_blind(
            state, order.index(seat), seat in acted, deal.config.big_blind
        )
        assert_same_options(legal, state, context, spec_closed=closed)
        assert sum(hand.total) == state.total_pot_amount, f"{context}: pot"
        action = choose_action(legal, rng)
        acted.add(seat)
        hand.act(seat, action)
        act_in_pokerkit(state, action)
        dealer.advance(state)
        tally.decisions += 1
        if not hand.is_over and not hand.runs_pending and state.can_select_runout_count():
            raise AssertionError(f"{context}: pokerkit asks to run it twice, we do not")
    assert state.actor_index is None and not state.status, f"{context}: pokerkit not over"
    if hand.runs == 2:
        tally.run_twice += 1
        second = [repr(card) for card in state.get_board_cards(1)]
        assert second == [format_card(c) for c in hand.second_board], f"{context}: run-out"
    ours = [hand.stacks[s] for s in order]
    theirs = list(state.stacks)
    assert sum(ours) == sum(deal.stacks) == sum(theirs), f"{context}: chips not conserved"
    if not any(isinstance(e, PotSplit) for e in hand.events):
        # one board: pokerkit's odd-chip rules applied to our pots give its stacks exactly
        delta = pokerkit_payouts(hand, order)
        tally.odd_chip_hands += any(delta.values())
        explained = [hand.stacks[s] + delta[s] for s in order]
        assert explained == theirs, f"{context}: stacks ours {ours}, pokerkit {theirs}"
        return
    tally.two_board_showdowns += 1
    if ours != theirs:
        tally.odd_chip_hands += 1
        bound = odd_chips(hand)
        gaps = [abs(a - b) for a, b in zip(ours, theirs, strict=True)]
        assert bound > 0 and max(gaps) <= bound, (
            f"{context}: stacks ours {ours}, pokerkit {theirs}, odd chips {bound}"
        )


def play_house_batch(
    seed: int,
    hands: int,
    seats: tuple[int, ...],
    options: dict[str, int],
    hand_class: type[HoldemHand] = HoldemHand,
    game: type[Poker] = NoLimitTexasHoldem,
    *,
    antes: bool = False,
) -> HouseTally:
    rng = random.Random(seed)
    tally = HouseTally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about cards drawn outside its deck
        for _ in range(hands):
            deal = random_deal(rng, seats, antes=antes)
            values = dict(options)
            if "straddle" in values:
                values["straddle"] = 2 * deal.config.big_blind
            deal = replace(deal, config=replace(deal.config, **values))
            play_house_hand(deal, rng, tally, hand_class, game)
            tally.hands += 1
            tally.player_counts.add(len(deal.seats))
    assert tally.hands == hands and tally.decisions > 2 * hands
    assert tally.player_counts == set(seats)
    return tally
