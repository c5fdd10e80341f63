"""The house options as rules of the hand (``poker/house.py``): bomb pots and seven-deuce
by property (hypothesis: chips conserved, every pot awarded, odd chips by R-PT-05), and each
option's shape: who may straddle, the run-it-twice question, the second board's positions,
the log replayed."""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ahiko.poker.actions import Action, IllegalAction
from ahiko.poker.cards import parse_card
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    BountyPaid,
    PotAwarded,
    PotSplit,
    RunoutOffered,
    SecondBoardDealt,
    StreetDealt,
    event_from_dict,
    event_to_dict,
)
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.random_play import random_action
from ahiko.poker.view import view, views

MAX_STEPS = 400


def play_out(hand: HoldemHand, rng: Random, *, twice: float = 0.7) -> None:
    """Random legal actions (and random answers to running it twice) to the end."""
    for _ in range(MAX_STEPS):
        if hand.is_over:
            return
        for seat in hand.runs_pending:
            hand.choose_runs(seat, 2 if rng.random() < twice else 1)
        seat = hand.to_act
        if seat is not None:
            legal = hand.legal_actions()
            hand.act(seat, random_action(legal, hand.hole_cards(seat), rng))
    raise AssertionError("the hand did not end")


def assert_pots_paid_by_R_PT_05(hand: HoldemHand) -> None:
    """Every chip put in is awarded; each split (a pot, or a pot's half on one board) gives
    equal shares, the odd chips one each to the first winners after the button."""
    order = list(hand.dealt_seats)
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert sum(e.amount for e in awarded) == sum(hand.total)
    for e in awarded:
        assert sum(e.shares.values()) == e.amount and set(e.shares) <= set(e.eligible)
    splits = [e for e in hand.events if isinstance(e, PotSplit)]
    for e in splits:
        assert list(e.winners) == sorted(e.winners, key=order.index)
        shares = [e.shares[s] for s in e.winners]
        assert shares == sorted(shares, reverse=True) and shares[0] - shares[-1] <= 1
    if splits:
        for k, pot in enumerate(awarded):
            halves = [s.amount for s in splits if s.index == k]
            assert sum(halves) == pot.amount and max(halves) - min(halves) <= 1


@settings(max_examples=300, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 3000), min_size=2, max_size=9),
    bomb=st.integers(1, 200),
    boards=st.sampled_from([1, 2]),
    omaha=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_R_PT_04_R_PT_05_bomb_pots_conserve_chips_and_award_every_pot(
    stacks: list[int], bomb: int, boards: int, omaha: bool, seed: int
) -> None:
    rng = Random(seed)
    if omaha:
        stacks = stacks[:6]
    deck = list(range(52))
    rng.shuffle(deck)
    seats = list(range(len(stacks)))
    cls = OmahaHand if omaha else HoldemHand
    config = HoldemConfig(5, 10, bomb_pot=bomb, boards=boards)
    hand, events = cls.start(config, seats, stacks, rng.choice(seats), deck)
    antes = [e for e in events if isinstance(e, AntePosted)]
    assert [e.amount for e in antes] == [min(bomb, hand.starting[i]) for i in range(hand.n)]
    assert not any(isinstance(e, BlindPosted) for e in events)
    play_out(hand, rng)
    log = hand.events
    first_street = next(i for i, e in enumerate(log) if isinstance(e, StreetDealt))
    assert log[first_street].name == "flop"  # no pre-flop betting: the flop comes at once
    assert not any(isinstance(e, ActionTaken) for e in log[:first_street])
    assert sum(hand.stacks.values()) == sum(stacks)
    assert hand.result is not None and sum(hand.result.net.values()) == 0
    if hand.result.showdown:
        assert_pots_paid_by_R_PT_05(hand)
        assert bool([e for e in log if isinstance(e, PotSplit)]) == (boards == 2)
    assert type(hand).from_events(log).events == log


SEVEN_DEUCE = (parse_card("7h"), parse_card("2c"))


def deck_with_seven_deuce(rng: Random, n: int, j: int) -> list[int]:
    """A shuffled deck whose j-th dealt seat (of n) holds 7h 2c (holdem-noburn-v1)."""
    rest = [c for c in range(52) if c not in SEVEN_DEUCE]
    rng.shuffle(rest)
    deck = rest[:]
    for k, card in enumerate(SEVEN_DEUCE):
        deck.insert(k * n + j, card)
    return deck


@settings(max_examples=300, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 2000), min_size=2, max_size=9),
    bounty=st.integers(1, 300),
    seed=st.integers(0, 2**32),
    show=st.booleans(),
)
def test_R_PT_05_seven_deuce_bounty_conserves_chips(
    stacks: list[int], bounty: int, seed: int, show: bool
) -> None:
    """A shown 7-2 that wins a pot collects the bounty (or what each has left) from every
    other player dealt in; chips are conserved; nobody else collects."""
    rng = Random(seed)
    n = len(stacks)
    holder = rng.randrange(n)
    seats = list(range(n))
    config = HoldemConfig(5, 10, seven_deuce=bounty)
    hand = HoldemHand.start_hand(
        config, seats, stacks, seats[-1], deck_with_seven_deuce(rng, n, holder)
    )
    seat = hand.dealt_seats[holder]
    assert sorted(hand.hole_cards(seat)) == sorted(SEVEN_DEUCE)
    play_out(hand, rng)
    result = hand.result
    assert result is not None
    before = dict(result.stacks)
    if show and not result.showdown and seat in result.pots[0].winners:
        hand.show(seat)  # the uncontested winner shows the 7-2 after the hand
    paid = [e for e in hand.events if isinstance(e, BountyPaid)]
    assert sum(hand.stacks.values()) == sum(stacks)
    assert hand.result is not None and sum(hand.result.net.values()) == 0
    winners = {s for p in result.pots for s, chips in p.shares.items() if chips > 0}
    collectors = {
        hand.dealt_seats[i]
        for i, cards in hand.shown.items()
        if sorted(c // 4 for c in cards) == [0, 5] and hand.dealt_seats[i] in winners
    }  # the dealt 7h 2c, and any other 7-2 that won a pot and was shown
    unpaid = {  # each stack before any bounty moved
        s: hand.stacks[s] + sum(e.payers.get(s, 0) - (e.amount if e.seat == s else 0) for e in paid)
        for s in hand.dealt_seats
    }
    owing = [s for s in hand.dealt_seats if s not in collectors and unpaid[s] > 0]
    # collectors' bounties to each other cancel: one with nobody else to pay them gets nothing
    assert sorted(e.seat for e in paid) == (sorted(collectors) if owing else [])
    shown = hand.dealt_seats.index(seat) in hand.shown
    assert (seat in collectors) == (seat in winners and shown)
    for e in paid:
        assert e.seat not in e.payers and sum(e.payers.values()) == e.amount
        assert sorted(e.payers) == owing
        for payer, amount in e.payers.items():
            assert 0 < amount <= bounty
            assert amount == bounty or hand.stacks[payer] == 0  # short: all they had, split
        if e in hand.events[hand.events.index(e) :] and not result.showdown:
            assert hand.stacks[seat] == before[seat] + e.amount
    assert HoldemHand.from_events(hand.events).events == hand.events


def test_R_HE_05_a_voluntary_straddle_is_offered_after_the_big_blind_or_to_the_button() -> None:
    seats, button = [1, 3, 4, 6, 8], 4
    assert HoldemHand.straddler_seat(seats, button, button_straddle=False) == 1  # 6 sb, 8 bb
    assert HoldemHand.straddler_seat(seats, button, button_straddle=True) == 4
    assert HoldemHand.straddler_seat([1, 3], 3, button_straddle=False) is None  # heads-up


def test_R_HE_05_mississippi_straddle_the_small_blind_opens_and_the_button_speaks_last() -> None:
    config = HoldemConfig(10, 20, straddle=40, straddle_button=1)
    hand, events = HoldemHand.start(config, [1, 2, 3, 4], [1000] * 4, 4, list(range(52)))
    posted = [(e.seat, e.amount, e.blind) for e in events if isinstance(e, BlindPosted)]
    assert posted == [(1, 10, "sb"), (2, 20, "bb"), (4, 40, "straddle")]
    assert hand.to_act == 1
    for seat in (1, 2, 3):
        hand.act(seat, Action.call())
    assert hand.to_act == 4 and hand.legal_actions().can_check
    assert events[0].config["straddle_button"] == 1


def all_in_preflop(config: HoldemConfig) -> HoldemHand:
    hand = HoldemHand.start_hand(config, [1, 2, 3], [100, 300, 300], 3, list(range(52)))
    hand.act(3, Action.raise_to(300))
    hand.act(1, Action.call())
    hand.act(2, Action.call())
    return hand


def test_R_HE_11_run_it_twice_asks_everyone_still_in_and_deals_the_next_positions() -> None:
    hand = all_in_preflop(HoldemConfig(10, 20, run_twice=1))
    assert isinstance(hand.events[-1], RunoutOffered) and set(hand.runs_pending) == {1, 2, 3}
    assert hand.to_act is None and not hand.is_over
    with pytest.raises(IllegalAction, match="run-outs are 1 or 2"):
        hand.choose_runs(1, 3)
    hand.choose_runs(2, 2)
    with pytest.raises(IllegalAction, match="not asked"):
        hand.choose_runs(2, 2)
    hand.choose_runs(1, 2)
    hand.choose_runs(3, 2)
    assert hand.is_over and hand.runs == 2
    assert hand.events[0].layout == "holdem-noburn-2board-v1"
    second = [e for e in hand.events if isinstance(e, SecondBoardDealt)]
    assert [p for e in second for p in e.positions] == [11, 12, 13, 14, 15]  # 2n + 5 on
    assert hand.second_board == tuple(range(11, 16))
    assert_pots_paid_by_R_PT_05(hand)
    assert HoldemHand.from_events(hand.events).events == hand.events
    dicts = [event_to_dict(e) for e in hand.events]
    assert [event_from_dict(d) for d in dicts] == list(hand.events)


def test_R_HE_11_one_refusal_runs_it_once() -> None:
    hand = all_in_preflop(HoldemConfig(10, 20, run_twice=1))
    for seat, runs in ((1, 2), (2, 1), (3, 2)):
        hand.choose_runs(seat, runs)
    assert hand.is_over and hand.runs == 1 and hand.second_board == ()
    assert not any(isinstance(e, PotSplit | SecondBoardDealt) for e in hand.events)


def test_R_HE_11_the_shared_flop_stays_and_only_turn_and_river_are_run_again() -> None:
    hand = HoldemHand.start_hand(
        HoldemConfig(10, 20, run_twice=1), [1, 2], [500, 500], 1, list(range(52))
    )
    hand.act(1, Action.call())
    hand.act(2, Action.check())
    hand.act(2, Action.bet(480))
    hand.act(1, Action.call())
    assert hand.board == (4, 5, 6) and set(hand.runs_pending) == {1, 2}
    hand.choose_runs(1, 2)
    hand.choose_runs(2, 2)
    assert hand.board == (4, 5, 6, 7, 8) and hand.second_board == (4, 5, 6, 9, 10)


def test_double_board_deals_the_second_board_five_positions_on() -> None:
    config = HoldemConfig(10, 20, boards=2)
    hand = HoldemHand.start_hand(config, [1, 2, 3], [500] * 3, 3, list(range(52)))
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(seat, Action.call() if hand.legal_actions().call_cost else Action.check())
    assert hand.board == (6, 7, 8, 9, 10) and hand.second_board == (11, 12, 13, 14, 15)
    assert_pots_paid_by_R_PT_05(hand)


def test_house_options_are_checked_with_a_reason() -> None:
    with pytest.raises(ValueError, match="1 or 2 boards"):
        HoldemConfig(10, 20, boards=3)
    with pytest.raises(ValueError, match="not run twice"):
        HoldemConfig(10, 20, boards=2, run_twice=1)
    with pytest.raises(ValueError, match="button straddle needs"):
        HoldemConfig(10, 20, straddle_button=1)
    with pytest.raises(ValueError, match="whole number"):
        HoldemConfig(10, 20, seven_deuce=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="hold'em option"):
        OmahaHand.start(HoldemConfig(10, 20, seven_deuce=5), [1, 2], [100, 100], 1, range(52))
    draw, _ = DrawHand.start(DrawConfig(1, 2), [1, 2], [100, 100], 1, list(range(52)))
    with pytest.raises(IllegalAction, match="not run twice"):
        draw.choose_runs(1, 2)


def test_a_plain_hand_logs_its_stakes_as_before() -> None:
    hand = HoldemHand.start_hand(HoldemConfig(10, 20), [1, 2], [100, 100], 1, list(range(52)))
    assert hand.events[0].config == {"small_blind": 10, "big_blind": 20, "ante": 0}
    assert hand.events[0].layout == "holdem-noburn-v1"


def test_R_HE_11_the_view_shows_who_is_asked_and_both_boards() -> None:
    hand = all_in_preflop(HoldemConfig(10, 20, run_twice=1))
    shown = view(hand, 1)
    assert shown["runs_pending"] == [1, 2, 3] and "second_board" not in shown
    assert views(hand, [1, None])[None]["runs_pending"] == [1, 2, 3]
    for seat in (1, 2, 3):
        hand.choose_runs(seat, 2)
    for seen in (view(hand, None), views(hand, [None])[None]):
        assert seen["second_board"] == ["4s", "5c", "5d", "5h", "5s"]  # positions 11-15
        assert "runs_pending" not in seen
    plain = HoldemHand.start_hand(HoldemConfig(10, 20), [1, 2], [100, 100], 1, list(range(52)))
    assert "second_board" not in view(plain, 1) and "runs_pending" not in view(plain, 1)


def test_R_HE_11_a_pot_won_on_the_second_run_out_names_the_hand_that_won_it() -> None:
    """Two run-outs with different winners: each winner's hand in the pot's award (what the
    table's result line says) is the one that won on its board, not its first board's hand."""
    found = 0
    for seed in range(400):
        deck = list(range(52))
        Random(seed).shuffle(deck)
        hand = HoldemHand.start_hand(HoldemConfig(5, 10, run_twice=1), [1, 2], [300, 300], 1, deck)
        hand.act(hand.to_act, Action.raise_to(300))  # type: ignore[arg-type]
        hand.act(hand.to_act, Action.call())  # type: ignore[arg-type]
        for seat in (1, 2):
            hand.choose_runs(seat, 2)
        splits = [e for e in hand.events if isinstance(e, PotSplit)]
        if len(splits) != 2 or splits[0].winners == splits[1].winners:
            continue
        if len(splits[0].winners) != 1 or len(splits[1].winners) != 1:
            continue
        found += 1
        award = next(e for e in hand.events if isinstance(e, PotAwarded))
        for split in splits:
            (winner,) = split.winners
            assert award.hands[winner] == split.hands[winner], (seed, split.board)
    assert found >= 5


@pytest.mark.parametrize(
    ("stacks", "bounty", "seed", "bounties", "final"),
    [
        # heads-up, both dealt a 7-2, the pot split: each owes the other 5, the debts cancel
        ([3, 2], 5, 2207110147, [], {0: 3, 1: 2}),
        # two 7-2 winners, the third player has 3 chips for two bounties of 10: 2 and 1, the
        # odd chip to the first collector from the button's left
        ([5, 5, 3], 10, 4090257888, [(0, 2, {2: 2}), (1, 1, {2: 1})], {0: 7, 1: 6, 2: 0}),
    ],
)
def test_R_PT_05_two_seven_deuce_winners_cancel_out_and_share_a_short_payer(
    stacks: list[int],
    bounty: int,
    seed: int,
    bounties: list[tuple[int, int, dict[int, int]]],
    final: dict[int, int],
) -> None:
    """Every debt is reckoned on the stacks before any bounty moves: the order in which
    the 7-2 winners are found changes nothing."""
    rng = Random(seed)
    n = len(stacks)
    holder = rng.randrange(n)
    config = HoldemConfig(5, 10, seven_deuce=bounty)
    hand = HoldemHand.start_hand(
        config, list(range(n)), stacks, n - 1, deck_with_seven_deuce(rng, n, holder)
    )
    play_out(hand, rng)
    paid = [(e.seat, e.amount, e.payers) for e in hand.events if isinstance(e, BountyPaid)]
    assert paid == bounties
    assert hand.stacks == final and sum(final.values()) == sum(stacks)
