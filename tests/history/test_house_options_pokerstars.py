"""PokerStars text of the house options: a hand run twice writes each run-out's streets
(``*** FIRST TURN ***`` / ``*** SECOND TURN ***``), a showdown per board, ``Hand was run
twice`` and both boards in the summary; a double board titles every street by its board;
a straddle is its own line."""

from __future__ import annotations

from ahiko.history.hand_log import VisibleCards
from ahiko.history.pokerstars import to_pokerstars
from ahiko.poker.actions import Action
from ahiko.poker.config import HoldemConfig
from ahiko.poker.holdem import HoldemHand


def lines_of(hand: HoldemHand) -> list[str]:
    return to_pokerstars(hand, VisibleCards.all_cards(hand)).splitlines()


def test_R_HE_11_a_hand_run_twice_writes_both_run_outs_and_both_boards() -> None:
    hand = HoldemHand.start_hand(
        HoldemConfig(5, 10, run_twice=1), [1, 2, 3], [500, 500, 300], 3, list(range(52))
    )
    hand.act(3, Action.call())
    hand.act(1, Action.call())
    hand.act(2, Action.check())
    hand.act(1, Action.bet(490))
    hand.act(2, Action.call())
    hand.act(3, Action.call())
    for seat in hand.runs_pending:
        hand.choose_runs(seat, 2)
    lines = lines_of(hand)
    streets = [line for line in lines if line.startswith("*** ")]
    assert streets == [
        "*** HOLE CARDS ***",
        "*** FLOP *** [3h 3s 4c]",
        "*** FIRST TURN *** [3h 3s 4c] [4d]",
        "*** FIRST RIVER *** [3h 3s 4c 4d] [4h]",
        "*** SECOND TURN *** [3h 3s 4c] [4s]",
        "*** SECOND RIVER *** [3h 3s 4c 4s] [5c]",
        "*** FIRST SHOW DOWN ***",
        "*** SECOND SHOW DOWN ***",
        "*** SUMMARY ***",
    ]
    summary = lines[lines.index("*** SUMMARY ***") :]
    assert summary[1] == "Hand was run twice"
    assert "FIRST Board [3h 3s 4c 4d 4h]" in summary
    assert "SECOND Board [3h 3s 4c 4s 5c]" in summary
    second = lines[lines.index("*** SECOND SHOW DOWN ***") + 1 : lines.index("*** SUMMARY ***")]
    # the second board's halves: a full house of fours over threes for Player3 and Player4
    assert second == [
        "Player3 collected 225 from main pot",
        "Player4 collected 225 from main pot",
        "Player3 collected 200 from side pot-1",
    ]
    won = sum(
        int(line.split(" collected ")[1].split()[0]) for line in lines if " collected " in line
    )
    assert won == 1300  # every chip of both pots, each split between the boards


def test_a_double_board_bomb_pot_titles_each_street_by_its_board() -> None:
    hand = HoldemHand.start_hand(
        HoldemConfig(5, 10, bomb_pot=20, boards=2), [1, 2], [500, 500], 2, list(range(52))
    )
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.check_or_call(seat)
    lines = lines_of(hand)
    assert "Player2: posts the ante 20" in lines and not any("blind" in x for x in lines)
    assert lines.index("*** FIRST FLOP *** [3c 3d 3h]") + 1 == lines.index(
        "*** SECOND FLOP *** [4d 4h 4s]"
    )
    assert "Hand was run twice" not in lines
    assert "SECOND Board [4d 4h 4s 5c 5d]" in lines


def test_R_HE_05_a_button_straddle_is_posted_on_its_own_line() -> None:
    config = HoldemConfig(5, 10, straddle=20, straddle_button=1)
    hand = HoldemHand.start_hand(config, [0, 1, 2, 3], [500] * 4, 3, list(range(52)))
    for _ in range(3):
        hand.act(hand.to_act or 0, Action.fold())
    assert "Player4: posts straddle 20" in lines_of(hand)
