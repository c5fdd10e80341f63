"""R-AI-06 (Draw Normal) and R-AI-07 (Draw Hard): behaviour in real five-card draw spots.

Every spot is a real ``DrawHand`` dealt from a stacked deck and driven by scripted public
actions; the bot sees ``ahiko.poker.view.view`` of its own seat, opponents' cards hidden.
Frequencies are measured over fixed rng seeds with bounds far from the expected rates.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from ahiko.bots.draw_hard import (
    FOLD_AFTER_CHECK_EXTRA,
    FOLD_AFTER_DRAW_DEFAULT,
    SNOW_RATE,
    DrawHardBot,
)
from ahiko.bots.draw_normal import DrawNormalBot
from ahiko.bots.holdem_hard import MAX_BLUFF_P, bluff_probability, bluff_share
from ahiko.bots.situation import is_legal
from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.cards import Card, format_card, parse_cards
from ahiko.poker.config import DrawConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.layout import draw_hole_position, draw_replacement_position
from ahiko.poker.view import view

NORMAL = DrawNormalBot()
HARD = DrawHardBot()


def deal(
    hands: dict[int, str],
    seats: list[int],
    button: int,
    replacements: str = "",
    ante: int = 1,
) -> DrawHand:
    """A draw hand whose deck gives ``hands[seat]`` to the listed seats and ``replacements``
    as the first cards drawn; every other card comes in a fixed order."""
    i = seats.index(button)
    dealt = seats[i + 1 :] + seats[: i + 1]
    n = len(dealt)
    fixed: dict[int, Card] = {}
    for j, seat in enumerate(dealt):
        for k, card in enumerate(parse_cards(hands.get(seat, ""))):
            fixed[draw_hole_position(n, j, k)] = card
    for r, card in enumerate(parse_cards(replacements)):
        fixed[draw_replacement_position(n, r)] = card
    rest = iter(c for c in range(52) if c not in fixed.values())
    deck = [fixed[p] if p in fixed else next(rest) for p in range(52)]
    config = DrawConfig(ante=ante, small_bet=2)
    return DrawHand.start(config, seats, [200] * n, button, deck)[0]


def decide(bot: Any, hand: DrawHand, seed: int = 0) -> Action:
    seat = hand.to_act
    assert seat is not None
    seat_view = view(hand, seat)
    action: Action = bot.decide(seat_view, random.Random(seed))
    assert is_legal(action, hand.legal_actions(), tuple(hand.hole_cards(seat)))
    return action


def kinds(bot: Any, hand: DrawHand, seeds: int) -> Counter[str]:
    return Counter(decide(bot, hand, s).kind.value for s in range(seeds))


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


# --- Draw Normal (R-AI-06) ----------------------------------------------------------------


def first_to_draw(my_cards: str) -> DrawHand:
    """Three players check the first round; seat 0 (first after the button) draws first."""
    hand = deal({0: my_cards}, seats=[0, 1, 2], button=2)
    for seat in (0, 1, 2):
        hand.act(seat, Action.check())
    assert hand.to_act == 0 and hand.legal_actions().is_draw_phase
    return hand


@pytest.mark.parametrize("made", ["5c6d7h8s9c", "2s5s8sJsKs", "9c9d9hKsKd"])
def test_R_AI_06_normal_stands_pat_with_a_made_hand(made: str) -> None:
    action = decide(NORMAL, first_to_draw(made))
    assert action.kind == ActionKind.DISCARD and action.cards == ()


@pytest.mark.parametrize(
    ("held", "thrown"),
    [
        ("JcJd2h5s9c", "2h5s9c"),  # a pair draws three
        ("2s5s8sJsKd", "Kd"),  # a four-flush draws one
        ("5c6d7h8sKd", "Kd"),  # an open-ended straight draws one
        ("QcQd4h4s9c", "9c"),  # two pair draws one
    ],
)
def test_R_AI_06_normal_keeps_its_pair_or_draw(held: str, thrown: str) -> None:
    action = decide(NORMAL, first_to_draw(held))
    assert action.kind == ActionKind.DISCARD
    assert set(action.cards) == cards(thrown)


def facing_a_bet_heads_up(my_cards: str, ante: int) -> DrawHand:
    """Heads-up before the draw: seat 0 bets, the button (seat 1) is to act."""
    hand = deal({1: my_cards}, seats=[0, 1], button=1, ante=ante)
    hand.act(0, Action.bet(2))
    return hand


def test_R_AI_06_normal_calls_a_draw_only_when_the_pot_odds_pay() -> None:
    four_flush = "2s5s8sJs9d"  # jack high: no high-card defence either
    poor = kinds(NORMAL, facing_a_bet_heads_up(four_flush, ante=1), 20)  # 2 to win 4
    good = kinds(NORMAL, facing_a_bet_heads_up(four_flush, ante=10), 20)  # 2 to win 22
    assert poor == Counter({"fold": 20})
    assert good["fold"] == 0 and good["call"] + good["raise"] == 20


@pytest.mark.parametrize("ante", [1, 10])
def test_R_AI_06_normal_folds_a_hopeless_hand_to_a_bet(ante: int) -> None:
    assert kinds(NORMAL, facing_a_bet_heads_up("2c5d7h9sJd", ante), 20) == Counter({"fold": 20})


def test_R_AI_06_normal_draws_to_a_flush_against_more_opponents() -> None:
    """The same four-flush facing the same bet folds heads-up but calls three-handed or
    more, where the pot pays for the draw."""
    heads_up = kinds(NORMAL, facing_a_bet_heads_up("2s5s8sJs9d", ante=1), 10)
    hand = deal({4: "2s5s8sJs9d"}, seats=[0, 1, 2, 3, 4], button=4)
    hand.act(0, Action.bet(2))
    for seat in (1, 2, 3):
        hand.act(seat, Action.call())
    multiway = kinds(NORMAL, hand, 10)
    assert heads_up == Counter({"fold": 10})
    assert multiway == Counter({"call": 10})


@pytest.mark.parametrize(("players", "expected"), [(4, "bet"), (6, "check")])
def test_R_AI_06_normal_opens_jacks_with_few_opponents_only(players: int, expected: str) -> None:
    seats = list(range(players))
    hand = deal({0: "JcJd2h5s9c"}, seats=seats, button=seats[-1])
    assert kinds(NORMAL, hand, 10) == Counter({expected: 10})


def test_R_AI_06_normal_opens_nines_in_late_position_only() -> None:
    early = deal({0: "9c9d2h5sKc"}, seats=[0, 1, 2], button=2)
    late = deal({2: "9c9d2h5sKc"}, seats=[0, 1, 2], button=2)
    late.act(0, Action.check())
    late.act(1, Action.check())
    assert kinds(NORMAL, early, 10) == Counter({"check": 10})
    assert kinds(NORMAL, late, 10) == Counter({"bet": 10})


def bet_into_after_draw(
    opponent_draws: int, mine: str, my_draw: str, replacements: str
) -> DrawHand:
    """Heads-up: seat 0 bets, the button calls; both draw (the opponent ``opponent_draws``
    cards, the button ``my_draw``), then seat 0 bets again with the button to act."""
    hand = deal({1: mine}, seats=[0, 1], button=1, replacements=replacements)
    hand.act(0, Action.bet(2))
    hand.act(1, Action.call())
    hand.act(0, Action.discard(tuple(hand.hole_cards(0)[:opponent_draws])))
    hand.act(1, Action.discard(tuple(parse_cards(my_draw))))
    hand.act(0, Action.bet(4))
    return hand


def test_R_AI_06_normal_respects_a_pat_hand_that_bets() -> None:
    def spot(draws: int) -> DrawHand:
        return bet_into_after_draw(draws, "QcQd4h4s9c", "9c", "2h5c9h"[: 2 * draws] + "Ts")

    assert kinds(NORMAL, spot(0), 10) == Counter({"fold": 10})
    against_three = kinds(NORMAL, spot(3), 10)
    assert against_three["fold"] == 0 and against_three["raise"] == 10


# --- Draw Hard (R-AI-07) --------------------------------------------------------------------


def queens_facing_a_bet(opponent_draws: int) -> DrawHand:
    """The button drew three to queens (no help) and faces a bet after the draw."""
    return bet_into_after_draw(
        opponent_draws, "QsQd3c4h5d", "3c4h5d", "2h5c9c"[: 2 * opponent_draws] + "8cTd3s"
    )


def test_R_AI_07_hard_reads_a_pat_bettor_as_stronger_than_a_three_card_draw() -> None:
    seeds = 60
    against_pat = kinds(HARD, queens_facing_a_bet(0), seeds)
    against_three = kinds(HARD, queens_facing_a_bet(3), seeds)
    assert against_pat["fold"] >= 0.9 * seeds
    assert against_three["fold"] <= 0.6 * seeds
    assert against_pat["fold"] - against_three["fold"] >= 0.4 * seeds


def checked_to_with_nothing() -> DrawHand:
    """Heads-up, everyone checked; the opponent drew three and checks after the draw to the
    button, who drew three to king-queen and missed (K-Q-T-8-5, no pair)."""
    hand = deal({1: "KsQd3c4h6d"}, seats=[0, 1], button=1, replacements="2h5c9c8cTd5s")
    hand.act(0, Action.check())
    hand.act(1, Action.check())
    hand.act(0, Action.discard(tuple(hand.hole_cards(0)[:3])))
    hand.act(1, Action.discard(tuple(parse_cards("3c4h6d"))))
    hand.act(0, Action.check())
    return hand


def test_R_AI_07_hard_bluffs_a_busted_hand_at_a_limited_rate() -> None:
    hand = checked_to_with_nothing()
    pot, bet = 2, 4
    balanced = bluff_share(bet, pot)  # 0.4: the share of bluffs of a balanced range
    seeds = 500
    rate = kinds(HARD, hand, seeds)["bet"] / seeds
    # A player we know nothing about who checked folds this often: the rate of a bluff priced
    # against it, under the cap a record alone can lift; 500 seeds put the bounds > 5 sd away.
    fold = FOLD_AFTER_DRAW_DEFAULT + FOLD_AFTER_CHECK_EXTRA
    expected = bluff_probability(bet, pot, fold, MAX_BLUFF_P)
    assert balanced < expected <= MAX_BLUFF_P  # they fold more than a balanced bluff asks
    assert 0.05 <= rate <= MAX_BLUFF_P + 0.05
    assert abs(rate - expected) < 0.1


def test_R_AI_07_hard_snows_rarely() -> None:
    """Heads-up, Hard raised before the draw with nothing and the opponent drew three:
    it stands pat (a snow) only at about SNOW_RATE, else draws three."""
    hand = deal({1: "KsQd3c4h8d"}, seats=[0, 1], button=1)
    hand.act(0, Action.bet(2))
    hand.act(1, Action.raise_to(4))
    hand.act(0, Action.call())
    hand.act(0, Action.discard(tuple(hand.hole_cards(0)[:3])))
    seeds = 500
    counts = Counter(len(decide(HARD, hand, s).cards) for s in range(seeds))
    assert set(counts) <= {0, 3}
    assert 0.02 <= counts[0] / seeds <= 2 * SNOW_RATE


def with_cards_revealed(seat_view: dict[str, Any], hand: DrawHand) -> dict[str, Any]:
    revealed = copy.deepcopy(seat_view)
    for seat in revealed["seats"]:
        seat["cards"] = [format_card(c) for c in hand.hole_cards(seat["seat"])]
    return revealed


@pytest.mark.parametrize("opponent", ["2c7d9hJsKc", "AcAhAsKcKh"])
def test_R_AI_07_hard_decides_without_the_opponents_hidden_cards(opponent: str) -> None:
    """The view hides the opponent's cards; swapping them for other cards leaves the view
    unchanged, and even a view that reveals them yields the same decisions."""
    hand = deal({0: opponent, 1: "QsQd3c4h5d"}, seats=[0, 1], button=1)
    hand.act(0, Action.bet(2))
    seat_view = view(hand, 1)
    assert seat_view["seats"][0]["cards"] is None
    other = deal({0: "3d6s8dTcJd", 1: "QsQd3c4h5d"}, seats=[0, 1], button=1)
    other.act(0, Action.bet(2))
    assert view(other, 1) == seat_view
    revealed = with_cards_revealed(seat_view, hand)
    for seed in range(20):
        hidden_choice = HARD.decide(seat_view, random.Random(seed))
        assert HARD.decide(revealed, random.Random(seed)) == hidden_choice


def test_R_AI_07_hard_plays_whole_four_handed_hands() -> None:
    """Four Hard bots play whole hands to the end, Monte Carlo included. How fast each
    decision is belongs to `bench/bots.py` (decision p99), not to a timing assertion here."""
    HARD.decide(view(queens_facing_a_bet(3), 1), random.Random(0))
    rng = random.Random("draw-hard-timing")
    decisions = 0
    for _ in range(6):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = DrawHand.start(DrawConfig(ante=1, small_bet=2), [0, 1, 2, 3], [200] * 4, 3, deck)[0]
        while not hand.is_over:
            action = decide(HARD, hand, decisions)
            decisions += 1
            hand.act(hand.to_act, action)  # type: ignore[arg-type]
        assert sum(hand.stacks.values()) == 800  # no chip created or lost
    assert decisions >= 30


def eights_facing_a_bet_after_the_draw(stab: bool) -> DrawHand:
    """Heads-up, Hard bet before the draw and was called; both drew three and Hard kept
    eights and missed. ``stab``: Hard (first to act) checked and the opponent bet; else Hard
    is on the button and the opponent led the bet into it."""
    me = 0 if stab else 1
    hand = deal({me: "8s8d2c4h6d"}, seats=[0, 1], button=1, replacements="2h5c9cKdTs3s")
    if not stab:
        hand.act(0, Action.check())
    hand.act(me, Action.bet(2))
    hand.act(1 - me, Action.call())
    for seat in (0, 1):
        thrown = parse_cards("2c4h6d") if seat == me else hand.hole_cards(seat)[:3]
        hand.act(seat, Action.discard(tuple(thrown)))
    if stab:
        hand.act(0, Action.check())
        hand.act(1, Action.bet(4))
    else:
        hand.act(0, Action.bet(4))
    assert hand.to_act == me
    return hand


def test_R_AI_07_hard_calls_a_heads_up_stab_wider_than_a_lead() -> None:
    """A bet made once Hard checked says less than a bet led into it: heads-up such a bettor
    bets every pair and many hands without one, so missed eights call the first and fold to
    the second (no record of the opponent: the default ranges)."""
    seeds = 20
    stab = kinds(HARD, eights_facing_a_bet_after_the_draw(stab=True), seeds)
    lead = kinds(HARD, eights_facing_a_bet_after_the_draw(stab=False), seeds)
    assert stab["fold"] <= 0.3 * seeds
    assert lead["fold"] >= 0.8 * seeds
