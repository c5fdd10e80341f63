"""Tournament rooms on a manual clock: R-TN-01..06."""

from __future__ import annotations

import itertools

from rooms_helpers import Table, holdem_config

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule
from ahiko.rooms.config import RoomKind
from ahiko.rooms.room import RoomStatus
from ahiko.rooms.timebank import TIME_BANK_S


def tournament(people: int = 2, bots: int = 0, **overrides: object) -> Table:
    t = Table(
        holdem_config(
            kind=RoomKind.TOURNAMENT,
            starting_chips=1000,
            schedule=BlindSchedule.tournament_default(),
            **overrides,
        )
    )
    for i in range(people):
        t.join("host" if i == 0 else f"p{i}", i)
    for _ in range(bots):
        t.ok(c.AddBot("host", "random"))
    return t


def play_out(t: Table, max_hands: int = 400) -> None:
    """People shove or call; bots play their own game; until a winner."""
    for _ in range(max_hands):
        if t.room.status is not RoomStatus.RUNNING:
            return
        t.advance(8)
        t.to_deal()
        hand = t.room.dealer.hand
        while hand is not None and t.room.dealer.hand is hand and hand.to_act is not None:
            legal = hand.legal()
            t.act(
                Action.raise_to(legal.max_to)
                if legal.bet_kind is not None
                else Action.call()
                if legal.can_call
                else Action.check()
            )


def test_R_TN_02_R_TN_03_same_stack_for_all_and_blinds_25_50_doubling_every_10_hands() -> None:
    t = tournament(people=2, bots=1)
    t.ok(c.Start("host"))
    assert {o.stack for _, o in t.room.seats.items()} == {1000}
    t.to_deal()
    assert t.room.dealer.hand is not None and t.room.dealer.hand.stakes.big_blind == 50
    assert t.room.config.schedule.stakes_for_next_hand(10, 0).big_blind == 100


def test_R_TN_02_seats_close_once_the_tournament_starts() -> None:
    t = tournament(people=2)
    t.ok(c.Start("host"))
    t.connect("late")
    reply = t.submit(c.Sit("late", "Late", 5))
    assert not reply.ok and reply.rule == "R-TN-02"


def test_R_TN_01_R_TN_04_R_TN_05_play_to_one_winner_with_a_reverse_elimination_ranking() -> None:
    t = tournament(people=2, bots=2)
    t.ok(c.Start("host"))
    play_out(t)
    assert t.room.status is RoomStatus.FINISHED
    results = t.conns["host"].of("tournament_over")[-1]["results"]
    assert [r["place"] for r in results] == [1, 2, 3, 4]
    winner = results[0]["player_id"]
    assert t.stacks()[winner] == 4000  # R-TN-01: all the chips at the table
    hands = [r["eliminated_in_hand"] for r in results[1:]]
    assert hands == sorted(hands, reverse=True)  # later eliminations rank higher
    for better, worse in itertools.pairwise(results[1:]):
        if better["eliminated_in_hand"] == worse["eliminated_in_hand"]:
            assert better["chips_at_hand_start"] >= worse["chips_at_hand_start"]


def test_R_TN_05_a_player_who_leaves_is_eliminated_at_once() -> None:
    t = tournament(people=3)
    t.ok(c.Start("host"))
    t.to_deal()
    t.ok(c.Leave("p2"))
    assert t.room.ranking is not None and t.room.ranking.eliminated == ["p2"]
    assert t.room.ranking.placements()[0].place == 3


def test_R_TN_06_timeout_checks_when_possible_otherwise_folds() -> None:
    t = tournament(people=2, action_deadline_s=5.0)
    t.ok(c.Start("host"))
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None
    first = hand.to_act
    t.advance(5)  # the deadline: the fixed time bank runs first (issue 19) ...
    assert not hand.is_over
    t.advance(TIME_BANK_S)  # ... then the heads-up button, facing the big blind, folds
    assert hand.is_over
    seat = hand.dealt_seats.index(first)  # type: ignore[arg-type]
    assert hand.view(None)["seats"][seat]["status"] == "folded"  # type: ignore[index]
