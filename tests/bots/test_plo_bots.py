"""Pot-Limit Omaha bots: the numpy Omaha evaluator against the engine's, the equity against
exact counts, and every level playing whole hands of legal pot-limit actions through the arena,
the level classes and their memory."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from ahiko.bots.arena import play_hand, run_match
from ahiko.bots.levels import EasyBot, HardBot, NormalBot
from ahiko.bots.omaha_equity import ANY_HAND, OmahaRange, omaha_equity, omaha_showdown_shares
from ahiko.bots.omaha_eval import evaluate_omaha, hand_percentile
from ahiko.bots.plo_easy import PloEasyBot
from ahiko.bots.plo_hard import PloHardBot
from ahiko.bots.plo_normal import PloNormalBot
from ahiko.bots.protocol import VARIANTS, load_bot
from ahiko.poker.actions import ActionKind
from ahiko.poker.cards import parse_card
from ahiko.poker.config import HoldemConfig
from ahiko.poker.games import POT_LIMIT_OMAHA
from ahiko.poker.holdem import OmahaHand
from ahiko.poker.ranking import hand_strength, omaha_strengths
from ahiko.poker.view import view


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))


def test_omaha_batch_values_equal_the_engines_two_plus_three() -> None:
    rng = random.Random(7)
    deals = [rng.sample(range(52), 17) for _ in range(400)]
    holes = np.array([[d[0:4], d[4:8], d[8:12]] for d in deals])
    boards = np.array([d[12:17] for d in deals])
    ours = evaluate_omaha(holes, boards)
    for row, deal in enumerate(deals):
        expected = omaha_strengths([deal[0:4], deal[4:8], deal[8:12]], deal[12:17])
        assert ours[row].tolist() == expected, deal


def test_omaha_batch_values_use_exactly_two_hole_cards() -> None:
    # Four hearts in the hand and a board of three hearts: a flush, but not with the board's
    # two low hearts alone; four aces on board and one in hand is no better than trips... of
    # two aces and three board cards.
    hole, board = cards("AhKh2c3d"), cards("QhJh4h9s8s")
    value = int(evaluate_omaha(np.array([[hole]]), np.array([board]))[0, 0])
    assert value == hand_strength(cards("AhKhQhJh4h"))
    hole, board = cards("2h2d7c8c"), cards("AsAcAdKh5s")
    value = int(evaluate_omaha(np.array([[hole]]), np.array([board]))[0, 0])
    assert value == hand_strength(cards("2h2dAsAcAd"))  # a full house, never quad aces


def test_omaha_values_on_a_flop_or_turn_are_the_hand_made_so_far() -> None:
    hole, flop = cards("AhAd7c8c"), cards("As9c2d")
    value = int(evaluate_omaha(np.array([[hole]]), np.array([flop]))[0, 0])
    assert value == hand_strength(cards("AhAdAs9c2d"))


def test_preflop_percentile_ranks_the_classic_hands() -> None:
    best = hand_percentile(cards("AsAhKsKh"))
    rundown = hand_percentile(cards("JhTh9s8s"))
    trash = hand_percentile(cards("2c2d2h7s"))
    assert best < 0.01 and rundown < 0.1 and trash > 0.9


def test_equity_of_known_hands_is_the_exact_count() -> None:
    hole, other, board = cards("AsAhKsKh"), cards("QdJdTc9c"), cards("2h7d8c3s")
    shares = omaha_showdown_shares({0: hole, 1: other}, board, random.Random(1))
    rest = [c for c in range(52) if c not in {*hole, *other, *board}]
    won = 0.0
    for (river,) in combinations(rest, 1):
        mine, theirs = omaha_strengths([hole, other], [*board, river])
        won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert shares[0] == pytest.approx(won / len(rest))
    assert shares[1] == pytest.approx(1 - won / len(rest))


def test_monte_carlo_equity_against_any_hand_and_against_a_range() -> None:
    rng = random.Random(3)
    aces = cards("AsAhKsKh")
    heads_up = omaha_equity(aces, (), [ANY_HAND], 6_000, rng)
    assert 0.62 < heads_up < 0.78  # the best start is no lock against a random hand
    three_way = omaha_equity(aces, (), [ANY_HAND, ANY_HAND], 6_000, rng)
    assert 1 / 3 < three_way < heads_up
    weak, flop = cards("7c6d3h2s"), cards("KdQd9h")
    loose = omaha_equity(weak, flop, [ANY_HAND], 6_000, rng)
    narrow = omaha_equity(weak, flop, [OmahaRange(0.25, 0.2)], 6_000, rng)
    assert narrow < loose  # a bettor's range holds more of the hands that beat ours


def test_R_AI_01_plo_views_give_the_omaha_bots_four_cards_and_nothing_hidden() -> None:
    deck = list(range(52))
    random.Random(5).shuffle(deck)
    hand = OmahaHand.start(HoldemConfig(1, 2), [0, 1, 2], [200, 200, 200], 0, deck)[0]
    seat = hand.to_act
    assert seat is not None
    seen = view(hand, seat)
    by_seat = {entry["seat"]: entry for entry in seen["seats"]}
    assert len(by_seat[seat]["cards"]) == POT_LIMIT_OMAHA.hole_cards
    assert all(not entry.get("cards") for s, entry in by_seat.items() if s != seat)
    for bot in (PloEasyBot(), PloNormalBot(), PloHardBot()):
        action = bot.decide(seen, random.Random(0))
        legal = hand.legal_actions()
        if action.kind in (ActionKind.BET, ActionKind.RAISE):
            assert legal.min_to <= action.amount <= legal.max_to  # the pot limit holds


@pytest.mark.parametrize("level", [EasyBot, NormalBot, HardBot])
def test_R_AI_02_04_each_level_plays_whole_plo_hands_and_remembers_them(level: type) -> None:
    bots = {0: level(), 1: load_bot("random")}
    rngs = {0: random.Random(1), 1: random.Random(2)}
    for deal in range(12):
        deck = list(range(52))
        random.Random(deal).shuffle(deck)
        net = play_hand(POT_LIMIT_OMAHA.name, bots, rngs, deck, deal % 2, 200)
        assert sum(net.values()) == pytest.approx(0.0)  # all-in adjusted or not, zero-sum
    memory = getattr(bots[0], "memory", None)
    if memory is not None:
        assert memory.hands_seen == 12


def test_the_arena_plays_pot_limit_omaha_between_levels() -> None:
    assert POT_LIMIT_OMAHA.name in VARIANTS
    result = run_match(POT_LIMIT_OMAHA.name, "hard", "easy", 4, 9, 100, 1, secret="plo-test")
    assert result.pairs == 4 and len(result.pair_results) == 4
