"""Clocks, absence and disconnection on a manual clock: R-TM-01..06."""

from __future__ import annotations

from rooms_helpers import Table, holdem_config

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.room import RoomStatus
from ahiko.rooms.timebank import TIME_BANK_S


def three_handed(**overrides: object) -> Table:
    t = Table(holdem_config(**overrides))
    t.join("host", 0)
    t.join("bia", 1)
    t.join("caio", 2)
    t.ok(c.Start("host"))
    t.to_deal()
    return t


def test_R_TM_01_deadline_folds_when_a_bet_is_pending_and_checks_otherwise() -> None:
    t = three_handed(action_deadline_s=10.0)
    hand = t.room.hand
    assert hand is not None
    first = hand.to_act
    assert first is not None and hand.legal().can_call  # facing the big blind
    t.advance(10)  # the deadline: the time bank starts by itself (issue 19) ...
    assert hand.to_act == first
    t.advance(TIME_BANK_S)  # ... and when it is empty too, the timeout rule answers
    assert hand.view(None)["seats"][hand.dealt_seats.index(first)]["status"] == "folded"  # type: ignore[index]
    while hand.to_act is not None and not hand.legal().can_check:
        t.passive()
    checker = hand.to_act
    t.advance(10 + TIME_BANK_S)
    history = hand.view(None)["history"]  # type: ignore[index]
    assert any(
        e["kind"] == "action" and e["seat"] == checker and e["action"] == "check" for e in history
    )


def test_R_TM_02_without_a_deadline_a_disconnected_player_has_30_seconds() -> None:
    t = three_handed()
    hand = t.room.hand
    assert hand is not None
    t.advance(3600)
    first = hand.to_act
    assert first is not None  # no deadline: a connected player may think for ever
    t.disconnect(hand.players[first])
    t.advance(29.9)
    assert hand.to_act == first
    t.advance(0.1)
    assert hand.to_act != first


def test_R_TM_03_after_two_minutes_disconnected_the_withdrawal_begins() -> None:
    t = three_handed()
    t.play_hand_passively()
    t.disconnect("caio")
    t.advance(119)
    assert t.room.seats.seat_of("caio") == 2
    t.advance(1 + 30 * 10)
    assert t.room.seats.seat_of("caio") is None
    if t.room.hand is not None:
        t.play_hand_passively()
    t.assert_chips_conserved()


def test_R_TM_04_a_disconnection_never_cancels_an_all_in() -> None:
    t = three_handed()
    hand = t.room.hand
    assert hand is not None
    shover = hand.players[hand.to_act]  # type: ignore[index]
    t.act(Action.raise_to(hand.legal().max_to))
    t.disconnect(shover)
    t.advance(150)  # past the absence deadline: the all-in waits for the pot
    while t.room.hand is hand and hand.to_act is not None:
        t.passive()
    assert hand.is_over
    seat = hand.seat_of(shover)
    assert hand.view(None)["seats"][hand.dealt_seats.index(seat)]["status"] != "folded"  # type: ignore[index, arg-type]


def test_R_TM_05_disconnected_players_are_not_dealt_into_new_hands() -> None:
    t = three_handed()
    t.play_hand_passively()
    t.disconnect("caio")
    t.advance(8)
    t.to_deal()
    assert t.room.hand is not None
    assert "caio" not in t.room.hand.players.values()
    t.connect("caio")  # back in time: dealt again from the next hand
    t.play_hand_passively()
    t.advance(8)
    assert "caio" in t.room.hand.players.values()  # type: ignore[union-attr]


def test_R_TM_06_an_expiring_room_deals_the_remaining_cards_and_resolves_the_pots() -> None:
    t = three_handed(limit_minutes=0.5)
    hand = t.room.hand
    assert hand is not None
    t.act(Action.raise_to(300))
    t.advance(30)
    assert hand.is_over and len(hand.view(None)["board"]) == 5  # type: ignore[index]
    assert t.room.status is RoomStatus.CLOSED
    assert sum(t.room.closed_stacks.values()) == 3000
