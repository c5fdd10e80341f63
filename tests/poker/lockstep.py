"""Lockstep play against pokerkit 0.7.7: the same cards, the same actions, every decision
compared. Shared by the differentials of each board game (``test_differential_*``).

pokerkit gets our deck's cards through ``deal_hole``/``deal_board`` (pokerkit indexes players
by position, index 0 the first seat after the button, which is our ``dealt_seats`` order;
heads-up that is the big blind). At every decision both engines must agree on the actor, on
whether fold, check, call and bet/raise are possible, on the call cost, on the min/max
bet-or-raise-to bounds (for pot-limit games the max is the pot-limit maximum) and on the pot
(every chip in the middle, bets of the round included). Finishing stacks must agree once our
pots are re-split by pokerkit's odd-chip rules (``pokerkit_payouts``).
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass

from pokerkit import Automation, Mode, NoLimitTexasHoldem, Poker, State

from ahiko.poker.actions import Action, ActionKind, LegalActions
from ahiko.poker.cards import format_card
from ahiko.poker.config import HoldemConfig
from ahiko.poker.holdem import HoldemHand

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class Deal:
    config: HoldemConfig
    seats: list[int]
    stacks: list[int]
    button: int
    deck: list[int]


@dataclass
class Tally:
    hands: int = 0
    decisions: int = 0
    short_all_ins: int = 0
    spec_floor_cases: int = 0  # R-HE-08 D: pokerkit offers a raise, the spec closes it
    odd_chip_hands: int = 0
    pot_limited: int = 0  # decisions where the pot-limit maximum was below the stack
    player_counts: set[int] | None = None


def random_deal(
    rng: random.Random,
    player_counts: tuple[int, ...],
    *,
    antes: bool = True,
    straddle: bool = False,
) -> Deal:
    """A random table: seats, blinds (an ante in some hands if ``antes``, a straddle of twice
    the big blind in every hand if ``straddle``), unequal stacks with many tiny ones so short
    all-ins are common, a shuffled deck."""
    n = rng.choice(player_counts)
    seats = sorted(rng.sample(range(9), n))
    small_blind = rng.choice((1, 1, 2, 5, 25))
    # bb > sb: with equal blinds heads-up pokerkit lets the big blind act first pre-flop
    big_blind = small_blind * rng.choice((2, 2, 2, 3))
    ante = rng.choice((0, 0, 0, 1, small_blind, big_blind // 2 or 1)) if antes else 0
    stacks = []
    for _ in seats:
        kind = rng.random()
        if kind < 0.3:
            stacks.append(rng.randint(1, 3 * big_blind))  # tiny: short all-ins and blinds
        elif kind < 0.7:
            stacks.append(rng.randint(3 * big_blind, 30 * big_blind))
        else:
            stacks.append(rng.randint(30 * big_blind, 200 * big_blind))
    deck = list(range(52))
    rng.shuffle(deck)
    config = HoldemConfig(small_blind, big_blind, ante, 2 * big_blind if straddle else 0)
    return Deal(config, seats, stacks, rng.choice(seats), deck)


def dealt_order(seats: list[int], button: int) -> list[int]:
    """Seats from the first after the button to the button: pokerkit's player indices."""
    start = (seats.index(button) + 1) % len(seats)
    return seats[start:] + seats[:start]


def start_pokerkit(deal: Deal, order: list[int], game: type[Poker] = NoLimitTexasHoldem) -> State:
    stack_of = dict(zip(deal.seats, deal.stacks, strict=True))
    config = deal.config
    blinds = (config.small_blind, config.big_blind)
    return game.create_state(  # type: ignore[attr-defined]
        AUTOMATIONS,
        True,
        deal.config.ante,
        (*blinds, config.straddle) if config.straddle else blinds,
        deal.config.big_blind,
        [stack_of[s] for s in order],
        len(order),
        mode=Mode.TOURNAMENT,
    )


def advance_pokerkit_dealing(state: State, deck: list[int], n: int, hole_cards: int = 2) -> None:
    """Deal pokerkit the cards our layout takes from the deck (holdem-noburn-v1,
    omaha4-noburn-v1): hole card k of player j at k*n + j, board card b at hole_cards*n + b.
    Burn cards are '??' (no card used)."""
    while True:
        if state.can_deal_hole():
            j = state.hole_dealee_index
            assert j is not None
            state.deal_hole("".join(format_card(deck[k * n + j]) for k in range(hole_cards)))
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            dealt = sum(len(b) for b in state.board_cards)
            count = state.board_dealing_count
            assert count is not None
            cards = "".join(format_card(deck[hole_cards * n + dealt + i]) for i in range(count))
            state.deal_board(cards)
        else:
            return


def spec_closes_below_big_blind(state: State, index: int, acted: bool, big_blind: int) -> bool:
    """R-HE-08 D: the seat at pokerkit index ``index`` already acted this round and the raise
    it faces since (pokerkit's bets) is below the big blind, so raising stays closed."""
    faced = max(state.bets) - state.bets[index]
    return acted and faced < big_blind


def assert_same_options(
    legal: LegalActions, state: State, context: str, *, spec_closed: bool = False
) -> bool:
    """Both engines offer the same options; returns True when they differ only by R-HE-08
    D (``spec_closed``: pokerkit offers a raise the spec closes). A fold with nothing to
    call is not an option of ours (pokerkit's cash-game mode offers it)."""
    can_raise = state.can_complete_bet_or_raise_to()
    call_amount = state.checking_or_calling_amount
    assert call_amount is not None, context
    ours = {
        "fold": legal.can_fold and legal.call_cost > 0,
        "check": legal.can_check,
        "call_cost": legal.call_cost,
        "raise": legal.bet_kind is not None,
        "min_to": legal.min_to if legal.bet_kind is not None else None,
        "max_to": legal.max_to if legal.bet_kind is not None else None,
    }
    theirs = {
        "fold": state.can_fold() and call_amount > 0,
        "check": call_amount == 0,
        "call_cost": call_amount,
        "raise": can_raise,
        "min_to": state.min_completion_betting_or_raising_to_amount if can_raise else None,
        "max_to": state.max_completion_betting_or_raising_to_amount if can_raise else None,
    }
    floor_case = spec_closed and can_raise
    if spec_closed:  # our rule, whatever pokerkit says: no raise
        assert not ours["raise"], f"{context}: R-HE-08 D closes raising, ours {ours}"
        theirs["raise"], theirs["min_to"], theirs["max_to"] = False, None, None
    assert ours == theirs, f"{context}: ours {ours} != pokerkit {theirs}"
    return floor_case


def is_short_all_in(action: Action, legal: LegalActions) -> bool:
    """An all-in that cannot be a full raise (only the all-in amount is allowed) or a call
    that takes the whole stack."""
    if action.kind in (ActionKind.BET, ActionKind.RAISE):
        return legal.min_to == legal.max_to == legal.committed + legal.stack
    return action.kind is ActionKind.CALL and legal.call_cost == legal.stack


def choose_action(legal: LegalActions, rng: random.Random) -> Action:
    """A loose random policy that produces many all-ins and min-raises."""
    roll = rng.random()
    if legal.call_cost > 0 and roll < 0.2:
        return Action.fold()
    if legal.bet_kind is not None and roll < 0.55:
        choice = rng.random()
        if choice < 0.35:
            to = legal.max_to
        elif choice < 0.7:
            to = legal.min_to
        else:
            to = rng.randint(legal.min_to, legal.max_to)
        return Action.bet(to) if legal.bet_kind is ActionKind.BET else Action.raise_to(to)
    return Action.call() if legal.call_cost > 0 else Action.check()


def act_in_pokerkit(state: State, action: Action) -> None:
    if action.kind is ActionKind.FOLD:
        state.fold()
    elif action.kind in (ActionKind.CHECK, ActionKind.CALL):
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action.amount)


def pokerkit_payouts(hand: HoldemHand, order: list[int]) -> dict[int, int]:
    """Our pots re-split the way pokerkit splits them; returns the chip change per seat
    relative to our own split.

    Two rules differ, both only in where odd chips go. R-PT-05: we give a pot's remainder
    one chip at a time to the first winners after the button; pokerkit gives all of it to
    the first winner. R-PT-04: we split every pot on its own; pokerkit first kills the hands
    that win nothing, then merges adjacent pots whose remaining contenders are the same and
    splits the merged amount once (so 36 + 45 + 3 between two winners is 42/42 there,
    18/18 + 23/22 + 2/1 here).
    """
    position = {seat: j for j, seat in enumerate(order)}
    result = hand.result
    assert result is not None
    winning = {seat for pot in result.pots for seat in pot.winners}
    merged: list[tuple[tuple[int, ...], int, list[int]]] = []  # contenders, amount, winners
    for pot in result.pots:
        contenders = tuple(sorted(set(pot.eligible) & winning, key=position.__getitem__))
        if merged and merged[-1][0] == contenders:
            merged[-1] = (contenders, merged[-1][1] + pot.amount, merged[-1][2])
        else:
            winners = sorted(pot.winners, key=position.__getitem__)
            merged.append((contenders, pot.amount, winners))
    delta = dict.fromkeys(order, 0)
    for _, amount, winners in merged:
        quotient, remainder = divmod(amount, len(winners))
        for i, seat in enumerate(winners):
            delta[seat] += quotient + (remainder if i == 0 else 0)
    for pot in result.pots:
        for seat, share in pot.shares.items():
            delta[seat] -= share
    return delta


def play_one(
    deal: Deal,
    rng: random.Random,
    tally: Tally,
    hand_class: type[HoldemHand] = HoldemHand,
    game: type[Poker] = NoLimitTexasHoldem,
) -> None:
    order = dealt_order(deal.seats, deal.button)
    n = len(order)
    holes = hand_class.game.hole_cards
    hand, _ = hand_class.start(deal.config, deal.seats, deal.stacks, deal.button, deal.deck)
    state = start_pokerkit(deal, order, game)
    advance_pokerkit_dealing(state, deal.deck, n, holes)
    context = f"deal {deal}"
    step = 0
    street, acted = hand.street, set()  # seats that acted in this betting round
    while not hand.is_over:
        if hand.street != street:
            street, acted = hand.street, set()
        seat = hand.to_act
        assert seat is not None, f"{context}: our hand is not over but nobody is to act"
        legal = hand.legal_actions()
        assert state.actor_index == order.index(seat), (
            f"{context} step {step}: actor ours seat {seat} (index {order.index(seat)}), "
            f"pokerkit index {state.actor_index}"
        )
        closed = spec_closes_below_big_blind(
            state, order.index(seat), seat in acted, deal.config.big_blind
        )
        if assert_same_options(legal, state, f"{context} step {step}", spec_closed=closed):
            tally.spec_floor_cases += 1
        assert sum(hand.total) == state.total_pot_amount, (
            f"{context} step {step}: pot ours {sum(hand.total)}, pokerkit {state.total_pot_amount}"
        )
        if legal.bet_kind is not None and legal.max_to < legal.committed + legal.stack:
            tally.pot_limited += 1  # the pot, not the stack, capped the bet
        action = choose_action(legal, rng)
        acted.add(seat)
        if is_short_all_in(action, legal):
            tally.short_all_ins += 1
        hand.act(seat, action)
        act_in_pokerkit(state, action)
        advance_pokerkit_dealing(state, deal.deck, n, holes)
        tally.decisions += 1
        step += 1
    assert state.actor_index is None, f"{context}: pokerkit still expects an action"
    ours = [hand.stacks[s] for s in order]
    delta = pokerkit_payouts(hand, order)
    if any(delta.values()):
        tally.odd_chip_hands += 1
    explained = [hand.stacks[s] + delta[s] for s in order]
    assert explained == list(state.stacks), (
        f"{context}: stacks ours {ours}, ours re-split by pokerkit's odd-chip rule {explained}, "
        f"pokerkit {list(state.stacks)}"
    )
    assert sum(ours) == sum(deal.stacks), f"{context}: chips not conserved"


def play_batch(
    seed: int,
    hands: int,
    seats: tuple[int, ...],
    hand_class: type[HoldemHand] = HoldemHand,
    game: type[Poker] = NoLimitTexasHoldem,
    *,
    antes: bool = True,
    straddle: bool = False,
) -> Tally:
    """``hands`` random hands in lockstep; the tally of what they met. Checks that the hands
    were played, with every table size of ``seats`` and enough short all-ins."""
    rng = random.Random(seed)
    tally = Tally(player_counts=set())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about cards drawn outside its deck
        for _ in range(hands):
            deal = random_deal(rng, seats, antes=antes, straddle=straddle)
            play_one(deal, rng, tally, hand_class, game)
            tally.hands += 1
            assert tally.player_counts is not None
            tally.player_counts.add(len(deal.seats))
    assert tally.hands == hands
    assert tally.decisions > 4 * hands
    assert tally.short_all_ins > hands // 20  # the interesting cases do occur
    assert tally.player_counts == set(seats)
    return tally
