"""The house options in PHH (``history/phh_options.py``): a hand with a straddle (after the
big blind or on the button), run twice, on a double board, a bomb pot or a seven-deuce
bounty is written out and read back to exactly its own events (each run-out and each board
in order); pokerkit 0.7.7 reads our straddled files back to the same stacks."""

from __future__ import annotations

from random import Random

import pytest
from pokerkit import HandHistory

from ahiko.history.hand_log import VisibleCards
from ahiko.history.phh import PhhError, dumps, loads
from ahiko.history.phh_holdem import holdem_finishing_stacks, holdem_from_phh, holdem_to_phh
from ahiko.poker.actions import Action
from ahiko.poker.config import HoldemConfig
from ahiko.poker.events import BountyPaid, PotSplit, SecondBoardDealt
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.random_play import random_action

HANDS = 80


def played(cls: type[HoldemHand], config: HoldemConfig, rng: Random) -> HoldemHand:
    n = rng.randint(3 if config.straddle else 2, 6)  # heads-up nobody straddles
    stacks = [rng.choice((rng.randint(5, 80), rng.randint(80, 3000))) for _ in range(n)]
    deck = list(range(52))
    rng.shuffle(deck)
    seats = sorted(rng.sample(range(9), n))
    hand = cls.start_hand(config, seats, stacks, rng.choice(seats), deck)
    while not hand.is_over:
        for seat in hand.runs_pending:
            hand.choose_runs(seat, rng.choice((1, 2, 2, 2)))
        seat = hand.to_act
        if seat is not None:
            legal = hand.legal_actions()
            hand.act(seat, random_action(legal, hand.hole_cards(seat), rng))
    return hand


OPTIONS = {
    "straddle": HoldemConfig(5, 10, straddle=20),
    "mississippi": HoldemConfig(5, 10, straddle=20, straddle_button=1),
    "run-twice": HoldemConfig(5, 10, run_twice=1),
    "double-board": HoldemConfig(5, 10, boards=2),
    "bomb-pot": HoldemConfig(5, 10, bomb_pot=30, boards=2),
    "seven-deuce": HoldemConfig(5, 10, seven_deuce=25),
}


@pytest.mark.parametrize("name", list(OPTIONS))
@pytest.mark.parametrize("cls", [HoldemHand, OmahaHand], ids=["holdem", "plo"])
def test_R_HE_11_a_hand_with_house_options_round_trips_through_phh(
    name: str, cls: type[HoldemHand]
) -> None:
    config = OPTIONS[name]
    if cls is OmahaHand and config.seven_deuce:
        config = HoldemConfig(5, 10, ante=2)  # seven-deuce is hold'em's alone: antes instead
    rng = Random(4300 + len(name))
    seen = set()
    for _ in range(HANDS):
        hand = played(cls, config, rng)
        text = dumps(holdem_to_phh(hand, VisibleCards.all_cards(hand)))
        back = holdem_from_phh(loads(text))
        assert back.events == hand.events, text
        assert holdem_finishing_stacks(back) == loads(text).fields["finishing_stacks"]
        seen |= {type(e) for e in hand.events}
    if name in ("run-twice", "double-board", "bomb-pot"):
        assert {SecondBoardDealt, PotSplit} <= seen
    if name == "run-twice":
        assert "_run_twice" in text


def run_all_in(second_answer: int) -> tuple[HoldemHand, VisibleCards]:
    """Heads-up, all-in pre-flop at a table that runs it twice: 2 then ``second_answer``."""
    hand = HoldemHand.start_hand(HoldemConfig(5, 10, run_twice=1), [1, 2], [100, 100], 1, range(52))
    hand.act(1, Action.raise_to(100))
    hand.act(2, Action.call())
    hand.choose_runs(1, 2)
    hand.choose_runs(2, second_answer)
    return hand, VisibleCards.all_cards(hand)


def test_each_board_is_written_in_dealing_order() -> None:
    """A double board: each street's first board, then its second; run twice: the first
    run-out whole, then the second (pokerkit's orders)."""
    hand = HoldemHand.start_hand(HoldemConfig(5, 10, boards=2), [1, 2], [100, 100], 1, range(52))
    for _ in range(4):
        hand.check_or_call(hand.to_act or 0)
        hand.check_or_call(hand.to_act or 0)
    lines = [a for a in holdem_to_phh(hand, VisibleCards.all_cards(hand)).actions if "d db" in a]
    assert lines == [
        "d db 3c3d3h",  # positions 4-6
        "d db 4d4h4s",  # 9-11
        "d db 3s",
        "d db 5c",
        "d db 4c",
        "d db 5d",
    ]
    doc = holdem_to_phh(*run_all_in(2))
    assert [a for a in doc.actions if "d db" in a] == [
        "d db 3c3d3h",
        "d db 3s",
        "d db 4c",
        "d db 4d4h4s",
        "d db 5c",
        "d db 5d",
    ]
    assert doc.fields["_run_twice"] == [2, 2]


def test_a_file_that_cannot_be_an_option_is_refused_with_its_reason() -> None:
    doc = holdem_to_phh(*run_all_in(1))
    doc.fields["_run_twice"] = [2]
    with pytest.raises(PhhError, match="one answer"):
        holdem_from_phh(loads(dumps(doc)))
    doc.fields["_run_twice"] = [2, 1]
    doc.fields["_boards"] = 3
    with pytest.raises(PhhError, match="1 or 2 boards"):
        holdem_from_phh(loads(dumps(doc)))


@pytest.mark.parametrize("name", ["straddle", "mississippi"])
def test_R_HE_05_pokerkit_reads_our_straddles_back_to_the_same_stacks(name: str) -> None:
    rng = Random(43)
    for _ in range(30):
        hand = played(HoldemHand, OPTIONS[name], rng)
        text = dumps(holdem_to_phh(hand, VisibleCards.all_cards(hand)))
        theirs = list(HandHistory.loads(text))[-1]
        assert list(theirs.stacks) == holdem_finishing_stacks(hand), text


def test_seven_deuce_bounty_is_in_the_finishing_stacks() -> None:
    """7h 2c on the button against 3x: a shown win collects 25 from the other player."""
    deck = [27, 22, 51, 0, *[c for c in range(52) if c not in (27, 22, 51, 0)]]  # 8s As, 7h 2c
    hand = HoldemHand.start_hand(HoldemConfig(5, 10, seven_deuce=25), [1, 2], [500, 500], 2, deck)
    hand.act(2, Action.raise_to(30))
    hand.act(1, Action.fold())
    hand.show(2)
    assert [e for e in hand.events if isinstance(e, BountyPaid)] == [BountyPaid(2, 25, {1: 25})]
    assert hand.stacks == {1: 465, 2: 535}
    text = dumps(holdem_to_phh(hand, VisibleCards.all_cards(hand)))
    assert holdem_from_phh(loads(text)).events == hand.events
