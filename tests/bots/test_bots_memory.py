"""Issue 18: the memory of the public record (ahiko.bots.memory), the arena's session mode,
the opponent styles, and Hard reading them (R-AI-04, R-AI-07)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from botviews import played_view

from ahiko.bots.arena import _start, play_session, run_match
from ahiko.bots.holdem_hard import (
    HoldemHardBot,
    bluff_probability,
    bluff_share,
    pushfold_chart,
)
from ahiko.bots.holdem_ranges import DEFAULT_READS, reads_from
from ahiko.bots.levels import HardBot, HardNoMemoryBot
from ahiko.bots.memory import OpponentStats, TableMemory, rate
from ahiko.bots.situation import is_legal, legal_from_view, situation_from_view
from ahiko.bots.styles import STYLES, AnyTwoJammer, CallingStation, JammerBestResponse
from ahiko.cli import main
from ahiko.poker.actions import Action
from ahiko.poker.view import view


def test_memory_counts_the_public_record_of_each_opponent() -> None:
    memory = TableMemory()
    # Button 0 is the small blind and acts first: seat 0 limps, seat 1 jams, seat 0 folds.
    memory.observe(played_view("holdem", ["call", "jam", "fold"]))
    # Seat 0 raises all in, seat 1 calls: a showdown, seat 1's cards are shown.
    memory.observe(played_view("holdem", ["jam", "call"], seed=2))
    rec = memory.stats[(1, "")]
    assert rec.hands == 2 and rec.vpip == 2 and rec.pfr == 1
    assert (rec.open_jams, rec.open_chances) == (1, 1)  # a limp is not a raise
    assert (rec.faced_allin, rec.calls_of_allin) == (1, 1)
    assert rec.showdowns == 1 and len(rec.shown_preflop_pct) == 1
    assert (0, "") not in memory.stats  # no record of the bot itself


def test_memory_keeps_players_apart_by_their_public_names() -> None:
    memory = TableMemory()
    v = played_view("holdem", ["call", "jam", "fold"])
    memory.observe({**v, "players": {"0": "me", "1": "Ana"}})
    memory.observe({**v, "players": {"0": "me", "1": "Bia"}})
    assert memory.stats[(1, "Ana")].hands == memory.stats[(1, "Bia")].hands == 1


def test_memory_of_draw_counts_draws_and_bets_after_the_draw() -> None:
    memory = TableMemory()
    # Seat 1, left of the button, acts first: check, call seat 0's bet; after the draw (both
    # stand pat) check and fold to seat 0's bet.
    memory.observe(played_view("draw", ["check", "bet", "call", "check", "bet", "fold"]))
    rec = memory.stats[(1, "")]
    assert rec.draws == [0] and rec.vpip == 1 and rec.pfr == 0
    assert (rec.fold_to_raise_chances, rec.folds_to_raise) == (1, 0)
    assert (rec.bet_chances, rec.bets, rec.faced_bets, rec.folds_to_bet) == (1, 0, 1, 1)


def test_memory_counts_folds_by_how_far_the_player_has_gone() -> None:
    memory = TableMemory()
    # Seat 0 (button) raises, seat 1 calls; flop: check, bet, call; turn: check, bet, seat 1
    # raises, seat 0 re-raises, seat 1 folds. The turn bet is a barrel (seat 1 had called the
    # flop bet), the re-raise faces its raise.
    line = ["bet", "call", "check", "bet", "call", "check", "bet", "bet", "bet", "fold"]
    memory.observe(played_view("holdem", line))
    # Seat 0 limps, seat 1 checks; flop: seat 1 bets, seat 0 raises, seat 1 folds.
    memory.observe(played_view("holdem", ["call", "check", "bet", "bet", "fold"], seed=3))
    rec = memory.stats[(1, "")]
    assert (rec.faced_barrels, rec.folds_to_barrel) == (1, 0)
    assert (rec.faced_reraise, rec.folds_to_reraise) == (1, 1)
    assert (rec.faced_raise_after_bet, rec.folds_to_raise_after_bet) == (1, 1)
    reads = reads_from(rec)
    assert reads.fold_to_reraise > DEFAULT_READS.fold_to_reraise
    assert reads.fold_to_barrel < DEFAULT_READS.fold_to_barrel


def test_rates_start_at_the_prior_and_follow_the_evidence() -> None:
    assert rate(0, 0, 0.2) == pytest.approx(0.2)
    assert rate(100, 100, 0.2) > 0.95
    stats = OpponentStats(hands=200, open_chances=100, opens=100, open_jams=100)
    reads = reads_from(stats)
    assert reads.open_jam > 0.9 > 0.5 > DEFAULT_READS.open_jam


def test_R_AI_04_hard_expects_fewer_folds_the_further_a_player_has_gone() -> None:
    bot = HoldemHardBot()
    spots = ("bet", "barrel", "raise", "reraise")
    unknown = [bot._fold_share(DEFAULT_READS, False, 100, 100, s) for s in spots]
    assert unknown == sorted(unknown, reverse=True) and unknown[3] < unknown[0] / 2
    # A player seen folding every bet but never a re-raise of their own raise (a TAG).
    stats = OpponentStats(hands=300, faced_bets=200, folds_to_bet=150, faced_reraise=20)
    reads = reads_from(stats)
    bet, reraise = (bot._fold_share(reads, True, 100, 100, s) for s in ("bet", "reraise"))
    assert bet > 0.6 and reraise < 0.25
    # No bluff re-raise against them: they fold less than the indifference share.
    assert bluff_probability(100, 100, reraise) == 0.0


def test_R_AI_04_bluffs_stay_controlled() -> None:
    # Balanced share b/(p+2b) against a player who folds just enough; none against one who
    # folds too little; never more than the cap however much they fold.
    assert bluff_probability(50, 100, 50 / 150) == 0.0
    assert bluff_probability(50, 100, 0.1) == 0.0
    assert bluff_probability(50, 100, 0.4) == pytest.approx(bluff_share(50, 100) * (0.4 * 3) ** 2)
    assert bluff_probability(50, 100, 0.99) == 0.6


def test_push_fold_chart_is_an_equilibrium_shape() -> None:
    chart = pushfold_chart()
    assert set(chart) == set(range(1, 21))
    for stack in range(2, 21):
        push, call = chart[stack]
        assert {"AA", "KK", "AKs"} <= push and {"AA", "KK"} <= call
        assert "72o" not in call or stack <= 2
        assert len(chart[stack][0]) <= len(chart[stack - 1][0]) + 3  # narrower when deeper


@pytest.mark.parametrize("variant", ["holdem", "draw"])
@pytest.mark.parametrize("style", list(STYLES))
def test_styles_decide_legally(style: str, variant: str) -> None:
    from botviews import random_view

    from ahiko.bots.protocol import load_bot

    bot = load_bot(STYLES[style])
    rng = random.Random(f"{style}:{variant}")
    for i in range(40):
        v = random_view(rng, variant)
        action = bot.decide(v, random.Random(i))
        assert is_legal(action, legal_from_view(v["legal"]), situation_from_view(v).hole)


def test_session_mode_keeps_memory_within_a_session_and_mirrors_it() -> None:
    made: list[HardBot] = []

    def hard() -> HardBot:
        made.append(HardBot())
        return made[-1]

    results = play_session("holdem", hard, AnyTwoJammer, 4, range(6), 100, "s")
    assert len(results) == 6 and len(made) == 2  # one bot per session and its mirror
    assert all(m.memory.hands_seen == 6 for m in made)
    seat_of_opponent = [next(iter(m.memory.stats))[0] for m in made]
    assert seat_of_opponent == [1, 0]  # the mirror session swapped the seats


def test_a_bot_against_itself_is_even_in_session_mode_too() -> None:
    r = run_match("holdem", "easy", "easy", pairs=12, seed=3, session=6, secret="x")
    assert r.pair_results == (0.0,) * 12


def test_R_AI_04_hard_learns_to_call_an_any_two_jammer() -> None:
    """Facing a 100 bb jam with a middling hand, Hard folds by default (it takes a jam for
    the top 45% of hands, Q8o is below it) and calls once its record shows the jammer shoves
    everything (equity against any two beats the odds)."""
    v = _mid_jam_view()
    assert situation_from_view(v).legal.call_cost > 0
    fresh, learnt = HardBot(), HardBot()
    for seed in range(60):
        learnt.observe(played_view("holdem", ["jam", "fold"], seed=100 + seed, viewer=1))
    assert fresh.decide(v, random.Random(0)).kind == "fold"
    assert learnt.decide(v, random.Random(0)).kind == "call"
    assert JammerBestResponse().decide(v, random.Random(0)).kind == "call"


def _mid_jam_view() -> dict[str, Any]:
    """Seat 1 (the big blind) holding Q8o facing seat 0's open jam of 100 big blinds."""
    from ahiko.poker.cards import parse_cards

    deck = list(range(52))
    random.Random(5).shuffle(deck)
    probe = _start("holdem", deck, 0, 200)
    positions = next(e.positions for e in probe.events if e.kind == "hole_dealt" and e.seat == 1)
    for pos, card in zip(positions, parse_cards("Qh8c"), strict=True):
        j = deck.index(card)
        deck[pos], deck[j] = deck[j], deck[pos]
    hand = _start("holdem", deck, 0, 200)
    hand.act(0, Action.raise_to(hand.legal_actions().max_to))
    return view(hand, 1)


def test_memory_off_hard_learns_nothing() -> None:
    bot = HardNoMemoryBot()
    bot.observe(played_view("holdem", ["jam", "fold"]))
    assert bot.memory.stats == {}


def test_arena_command_session_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--a", "hard", "--b", "ahiko.bots.styles:CallingStation",
                 "--pairs", "4", "--session", "2", "--bot-secret", "t", "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pairs"] == 4
    assert main(["arena", "--a", "easy", "--b", "easy", "--session", "-1"]) == 2
    assert CallingStation  # the style the command named is the class imported here
