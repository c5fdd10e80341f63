"""A hand on two boards (run twice; a double-board bomb pot) dealt from a committed deck,
every card dealt and shown, and the ways to tamper with its second board: shared by the
command-line and the browser verifiers' tests."""

from __future__ import annotations

from typing import Any

from fair_helpers import BUTTON, DEALT_SEATS, fixed_deal

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.positions import ROLE_BOARD2
from ahiko.fairness.release import DealState, board_slots, hole_slots, second_board_slots
from ahiko.poker.actions import Action
from ahiko.poker.config import HoldemConfig
from ahiko.poker.events import SecondBoardDealt
from ahiko.poker.holdem import HoldemHand


def played(config: HoldemConfig, deck: list[int]) -> HoldemHand:
    """All four seats all in pre-flop (run twice: everyone agrees), or checked down."""
    hand = HoldemHand.start_hand(config, sorted(DEALT_SEATS), [400] * 4, BUTTON, deck)
    while not hand.is_over:
        for seat in hand.runs_pending:
            hand.choose_runs(seat, 2)
        seat = hand.to_act
        if seat is None:
            continue
        legal = hand.legal_actions()
        if config.run_twice and legal.bet_kind is not None:
            hand.act(seat, Action(legal.bet_kind, legal.max_to))
        else:
            hand.check_or_call(seat)
    return hand


def shown_deal(config: HoldemConfig) -> tuple[DealCommitter, HoldemHand, DealState]:
    probe = fixed_deal(7)
    hand = played(config, list(probe.deck))
    deal = fixed_deal(7, layout=hand.events[0].layout, deck=list(probe.deck))
    assert tuple(hand.dealt_seats) == DEALT_SEATS
    state = DealState()
    for seat in deal.dealt_seats:
        state = state.with_dealt(hole_slots(deal, seat))
    state = state.with_dealt(board_slots(deal, range(5)))
    base = 2 * len(DEALT_SEATS) + 5
    second = [p for e in hand.events if isinstance(e, SecondBoardDealt) for p in e.positions]
    state = state.with_dealt(second_board_slots(deal, [p - base for p in second]))
    shown = [s.position for s in state.dealt if s.seat is not None]
    return deal, hand, state.with_shown(shown)


CASES = {
    "run-twice": HoldemConfig(5, 10, run_twice=1),
    "double-board-bomb-pot": HoldemConfig(5, 10, bomb_pot=20, boards=2),
}


def other_card(d: dict[str, Any]) -> None:
    card = next(c for c in d["cards"] if c["role"] == ROLE_BOARD2)
    card["card"] = "2c" if card["card"] != "2c" else "3c"


def first_board_position(d: dict[str, Any]) -> None:
    card = next(c for c in d["cards"] if c["role"] == ROLE_BOARD2)
    card["position"] -= 5  # where the first board's card sits


def plain_layout(d: dict[str, Any]) -> None:
    d["commitment"]["layout"] = "holdem-noburn-v1"


SECOND_BOARD_TAMPERINGS = (other_card, first_board_position, plain_layout)
