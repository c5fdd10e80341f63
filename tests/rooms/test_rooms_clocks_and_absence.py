"""Clocks, absence and disconnection on a manual clock: R-TM-01..06."""

from __future__ import annotations

from rooms_helpers import Table, draw_config, holdem_config

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
    hand = t.room.dealer.hand
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
    hand = t.room.dealer.hand
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
    if t.room.dealer.hand is not None:
        t.play_hand_passively()
    t.assert_chips_conserved()


def test_R_TM_04_a_disconnection_never_cancels_an_all_in() -> None:
    t = three_handed()
    hand = t.room.dealer.hand
    assert hand is not None
    shover = hand.players[hand.to_act]  # type: ignore[index]
    t.act(Action.raise_to(hand.legal().max_to))
    t.disconnect(shover)
    t.advance(150)  # past the absence deadline: the all-in waits for the pot
    while t.room.dealer.hand is hand and hand.to_act is not None:
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
    assert t.room.dealer.hand is not None
    assert "caio" not in t.room.dealer.hand.players.values()
    t.connect("caio")  # back in time: dealt again from the next hand
    t.play_hand_passively()
    t.advance(8)
    assert "caio" in t.room.dealer.hand.players.values()  # type: ignore[union-attr]


def test_R_TM_06_an_expiring_room_deals_the_remaining_cards_and_resolves_the_pots() -> None:
    t = three_handed(limit_minutes=0.5)
    hand = t.room.dealer.hand
    assert hand is not None
    t.act(Action.raise_to(300))
    t.advance(30)
    assert hand.is_over and len(hand.view(None)["board"]) == 5  # type: ignore[index]
    assert t.room.status is RoomStatus.CLOSED
    assert sum(t.room.closed_stacks.values()) == 3000


def absentee_forfeits(t: Table, absent: str) -> None:
    """``absent`` disconnects at once and stays away past the absence deadline while the
    others check along; at its next betting turn it folds though it could check (R-TM-04)."""
    hand = t.room.dealer.hand
    assert hand is not None
    seat = hand.seat_of(absent)
    t.disconnect(absent)
    t.advance(120)  # the withdrawal begins (R-TM-03): the seat is still in the hand
    assert t.room.seats.get(seat).leave_after_hand  # type: ignore[arg-type, union-attr]
    while t.room.dealer.hand is hand and hand.to_act is not None:
        if hand.to_act == seat:
            t.advance(0)  # its answer is queued; nothing else to do
            assert hand.to_act != seat, "the absentee's turn was not answered at once"
            continue
        t.passive()
    assert hand.is_over
    view_seat = hand.view(None)["seats"][hand.dealt_seats.index(seat)]  # type: ignore[index]
    assert view_seat["status"] == "folded"
    result = hand.hand.result
    assert result is not None
    assert all(seat not in pot.eligible and seat not in pot.winners for pot in result.pots)
    assert t.room.seats.seat_of(absent) is None  # left at the end of the hand
    t.assert_chips_conserved()


def test_R_TM_04_an_absentee_still_contesting_folds_after_the_absence_deadline() -> None:
    """Hold'em, no deadline: caio (the big blind, never facing a bet) is withdrawn at 120 s;
    at his turn he folds where he could check, so he cannot reach the showdown and win."""
    t = three_handed()
    assert t.room.dealer.hand is not None and t.room.dealer.hand.hand.big_blind_seat == 2  # type: ignore[attr-defined]
    absentee_forfeits(t, "caio")


def test_R_TM_04_an_absentee_folds_in_five_card_draw_too() -> None:
    t = Table(draw_config())
    t.join("host", 0)
    t.join("bia", 1)
    t.join("caio", 2)
    t.ok(c.Start("host"))
    t.to_deal()
    absentee_forfeits(t, "bia")


def test_R_TM_06_D_an_expiring_room_returns_an_unanswered_raise_and_calls_for_nobody() -> None:
    """The room's time runs out while the host's raise to 600 is pending: the betting stops
    where it stands. Nobody calls it on behalf of the players who never answered: the 590
    nobody matched goes back, bia and caio stay in with their blinds, the board is dealt and
    the pots formed (15 three-way, 10 host-caio) are resolved before the balances return."""
    t = three_handed(limit_minutes=0.5)
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act == 0  # the host, on the button
    t.act(Action.raise_to(600))
    t.advance(30)
    engine = hand.hand
    assert engine.is_over and len(engine.board) == 5
    kinds = [e.kind for e in engine.events]
    stop = kinds.index("betting_stopped")
    assert [e for e in engine.events[stop:] if e.kind == "action"] == []  # nobody called
    returned = [e for e in engine.events if e.kind == "bet_returned"]
    assert [(e.seat, e.amount) for e in returned] == [(0, 590)]  # type: ignore[attr-defined]
    result = engine.result
    assert result is not None
    assert [(p.amount, set(p.eligible)) for p in result.pots] == [(15, {0, 1, 2}), (10, {0, 2})]
    assert t.room.status is RoomStatus.CLOSED
    assert sum(t.room.closed_stacks.values()) == 3000
    again = type(engine).from_events(engine.events)  # the archive replays it
    assert again.events == engine.events


def test_R_TM_06_D_an_empty_room_expiring_mid_hand_settles_the_pots_it_formed() -> None:
    """R-RM-09: everyone disconnects mid-hand; two minutes later the room expires like a
    time limit: the bets matched stay in the pots and are resolved, the unmatched go back."""
    t = three_handed()
    hand = t.room.dealer.hand
    assert hand is not None
    t.act(Action.raise_to(100))
    t.act(Action.call())  # bia calls 100
    for pid in ("host", "bia", "caio"):
        t.disconnect(pid)
    t.advance(120)
    engine = hand.hand
    assert engine.is_over and t.room.status is RoomStatus.CLOSED
    result = engine.result
    assert result is not None and sum(p.amount for p in result.pots) == 210  # 100+100+10
    # caio never answered: he stays in with his big blind, for the pot it covers only
    assert [(p.amount, set(p.eligible)) for p in result.pots] == [(30, {0, 1, 2}), (180, {0, 1})]
    assert sum(engine.stacks.values()) == 3000
    t.assert_chips_conserved()


def test_R_RM_08_the_hosts_close_mid_hand_still_returns_the_bets() -> None:
    t = three_handed()
    t.act(Action.raise_to(100))
    t.act(Action.call())
    t.ok(c.Close("host"))
    assert t.room.closed_stacks == {"host": 1000, "bia": 1000, "caio": 1000}


def test_R_TM_03_the_absence_clock_ends_with_the_seat_whichever_way_it_was_given_up() -> None:
    """Caio loses his connection mid-hand and leaves (his seat folds and stands up at the
    hand's end) without coming back. His disconnection's absence clock ended with his seat
    (every way out of a seat cancels it): two minutes later there is no one to withdraw, and
    the room goes on (before, the timer found no seat and its refusal escaped the room)."""
    t = three_handed()
    t.disconnect("caio")
    assert t.ok(c.Leave("caio")).data["after_hand"]
    t.play_hand_passively()
    assert t.room.seats.seat_of("caio") is None
    t.advance(5 * 60)
    assert t.room.seats.seat_of("caio") is None
    if t.room.dealer.hand is not None:
        t.play_hand_passively()
    t.assert_chips_conserved()


def test_R_TM_03_players_leaving_a_closed_room_are_withdrawn_by_nobody() -> None:
    """The host closes the room (R-RM-08), then the players' browsers go: the close settled
    every seat, so the absence clocks their disconnections start have nothing to withdraw
    (before, the withdrawal's refusal — the room is closed — escaped the room as an error)."""
    t = three_handed()
    t.disconnect("caio")  # away before the close, and the others after it
    t.ok(c.Close("host"))
    t.disconnect("bia")
    t.disconnect("host")
    assert t.room.status is RoomStatus.CLOSED
    t.advance(5 * 60)  # past the absence deadline: nothing is raised, nothing moves
    assert t.room.status is RoomStatus.CLOSED
    t.assert_chips_conserved()
