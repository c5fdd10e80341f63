"""Recreational rooms, driven on a manual clock: R-RM-01..09, 16, 18 and R-FD-02/06."""

from __future__ import annotations

from rooms_helpers import Table, holdem_config

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindIncrease, BlindSchedule, Stakes
from ahiko.rooms.room import RoomStatus
from ahiko.rooms.timebank import TIME_BANK_S


def started(seats: int = 8, **overrides: object) -> Table:
    t = Table(holdem_config(seats=seats, **overrides))
    t.join("host", 0)
    t.join("bia", 3)
    t.ok(c.Start("host"))
    return t


def test_R_RM_01_each_person_picks_a_seat_and_a_taken_seat_is_refused() -> None:
    t = Table(holdem_config())
    t.join("host", 5)
    t.connect("bia")
    reply = t.submit(c.Sit("bia", "Bia", 5))
    assert not reply.ok and reply.rule == "R-RM-01"
    assert t.room.seats.seat_of("host") == 5


def test_R_RM_03_start_needs_two_participants_with_chips_and_one_person() -> None:
    t = Table(holdem_config())
    t.join("host", 0)
    refused = t.submit(c.Start("host"))
    assert not refused.ok and refused.rule == "R-RM-03"
    assert not t.submit(c.Start("bia")).ok  # only the host starts
    t.ok(c.AddBot("host", "random"))
    t.ok(c.Start("host"))
    assert t.room.dealer.hand is not None and t.room.status is RoomStatus.RUNNING


def test_R_FD_02_commitment_is_broadcast_and_cards_come_two_seconds_later() -> None:
    t = Table(holdem_config())
    host = t.join("host", 0)
    t.join("bia", 1)
    spectator = t.connect(None)
    t.ok(c.Start("host"))
    for rec in (host, spectator):
        assert rec.of("commitment")[-1]["commitment"]["hand_no"] == 1
    assert not spectator.of("hand")
    t.advance(1.999)
    assert not spectator.of("hand")
    t.advance(0.001)
    assert spectator.of("hand")


def test_R_FD_06_a_participant_leaving_before_the_deal_cancels_the_hand_without_blinds() -> None:
    t = Table(holdem_config())
    t.join("host", 0)
    t.join("bia", 1)
    t.join("caio", 2)
    t.ok(c.Start("host"))
    first = t.room.dealer.hand
    assert first is not None and first.hand_no == 1
    t.ok(c.Leave("caio"))
    cancelled = t.conns["host"].of("hand_cancelled")
    assert cancelled and cancelled[0]["rule"] == "R-FD-06" and cancelled[0]["hand_no"] == 1
    assert t.stacks() == {"host": 1000, "bia": 1000}  # no blinds charged
    t.advance(t.room.config.timing.next_hand_delay_s)
    second = t.room.dealer.hand
    assert second is not None and second.hand_no == 2
    assert second.commitment()["digest"] != first.commitment()["digest"]
    assert second.commitment()["prev"] == first.commitment()["digest"]


def test_R_HE_02_R_FD_06_a_hand_cancelled_before_the_deal_does_not_move_the_button() -> None:
    """The button moves one seat every hand played: a hand cancelled before its cards is
    not one, so the next hand's button is the one after the last hand dealt. (Moving it on
    at the cancelled commitment made the seat after it skip its blinds.)"""
    t = Table(holdem_config())
    for pid, seat in (("host", 0), ("bia", 1), ("caio", 2), ("dani", 3)):
        t.join(pid, seat)
    t.ok(c.Start("host"))
    t.to_deal()
    assert t.room.dealer.hand is not None and t.room.dealer.hand.button == 0
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s)
    assert t.room.dealer.hand is not None and t.room.dealer.hand.button == 1  # committed, not dealt
    t.ok(c.Leave("dani"))
    assert t.conns["host"].of("hand_cancelled")
    t.advance(t.room.config.timing.next_hand_delay_s)
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None and hand.hand_no == 3
    assert hand.button == 1  # one seat on from hand 1's, as if hand 2 never was
    assert hand.commitment()["button_seat"] == 1


def test_R_FD_06_a_leave_told_at_the_instant_the_cards_are_due_comes_before_them() -> None:
    """A command told to a room (``Room.tell``, as a tournament tells a table to move a
    player out) is handled before any of the room's timers that fire after it, even one due
    at the same instant and set earlier: here the leave cancels the committed hand instead
    of the cards coming first with the leaver dealt in."""
    t = Table(holdem_config())
    for pid, seat in (("host", 0), ("bia", 1), ("caio", 2)):
        t.join(pid, seat)
    delay = t.room.config.timing.commitment_display_s
    # set before the cards' timer, at the same instant: fires first, and tells the leave
    t.clock.call_later(delay, lambda: t.room.tell(lambda: t.ok(c.Leave("caio"))))
    t.ok(c.Start("host"))
    t.to_deal()
    assert [f["hand_no"] for f in t.conns["host"].of("hand_cancelled")] == [1]
    assert all(f["hand_no"] != 1 for f in t.conns["host"].of("hand"))  # no card of it came


def test_R_RM_04_blind_increase_applies_from_the_next_hand_never_mid_hand() -> None:
    schedule = BlindSchedule(Stakes(small_blind=5, big_blind=10), BlindIncrease.HANDS, 1)
    t = started(schedule=schedule)
    t.to_deal()
    assert t.room.dealer.hand is not None and t.room.dealer.hand.stakes.big_blind == 10
    t.play_hand_passively()
    t.advance(8)
    t.to_deal()
    assert t.room.dealer.hand is not None and t.room.dealer.hand.stakes.big_blind == 20


def test_R_RM_05_a_bot_added_during_a_hand_plays_from_the_next_one() -> None:
    t = started()
    t.to_deal()
    reply = t.ok(c.AddBot("host", "random"))
    assert reply.data["reserved"] is True
    assert reply.data["player_id"] not in t.room.dealer.hand.players.values()  # type: ignore[union-attr]
    t.play_hand_passively()
    t.advance(8)
    assert reply.data["player_id"] in t.room.dealer.hand.players.values()  # type: ignore[union-attr]


def test_R_RM_05_a_bot_removed_during_its_hand_finishes_it_then_leaves() -> None:
    t = Table(holdem_config())
    t.join("host", 0)
    bot_seat = t.ok(c.AddBot("host", "random", seat=4)).data["seat"]
    t.ok(c.Start("host"))
    t.to_deal()
    reply = t.ok(c.RemoveBot("host", bot_seat))
    assert reply.data["after_hand"] is True
    if t.room.dealer.hand is not None:
        assert t.room.seats.get(bot_seat) is not None
        t.play_hand_passively()
    assert t.room.seats.get(bot_seat) is None
    t.assert_chips_conserved()


def test_R_RM_06_a_bot_without_chips_leaves_and_a_person_without_chips_may_re_enter() -> None:
    t = Table(holdem_config(starting_chips=20))
    t.join("host", 0)
    bot_seat = t.ok(c.AddBot("host", "random", seat=1)).data["seat"]
    t.ok(c.Start("host"))
    for _ in range(60):
        if t.room.seats.get(bot_seat) is None or t.stacks().get("host") == 0:
            break
        t.to_deal()
        hand = t.room.dealer.hand
        while hand is not None and hand.to_act is not None:
            t.act(
                Action.raise_to(hand.legal().max_to)
                if hand.legal().bet_kind
                else Action.call()
                if hand.legal().can_call
                else Action.check()
            )
            hand = t.room.dealer.hand
        t.advance(8)
    if t.room.seats.get(bot_seat) is None:
        assert t.stacks()["host"] == 40  # R-RM-06: the broke bot left with nothing
        assert not t.submit(c.NewEntry("host")).ok  # has chips: no new entry
    else:
        assert t.stacks()["host"] == 0
        assert t.room.dealer.hand is None
        reply = t.ok(c.NewEntry("host"))
        assert reply.data["stack"] == 20
    t.assert_chips_conserved()


def test_R_RM_06_new_entry_is_refused_with_chips_or_outside_recreational_rooms() -> None:
    t = started()
    reply = t.submit(c.NewEntry("bia"))
    assert not reply.ok and reply.rule == "R-RM-06"


def test_R_RM_07_pause_freezes_the_action_clock_and_resume_restores_what_was_left() -> None:
    t = started(action_deadline_s=15.0)
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None
    first = hand.to_act
    t.advance(10)
    t.ok(c.Pause("host"))
    t.advance(600)
    assert t.room.dealer.hand is hand and hand.to_act == first  # nothing timed out while paused
    refused = t.act(Action.call())
    assert not refused.ok and (refused.code, refused.rule) == ("paused", "R-RM-07")
    t.ok(c.Resume("host"))
    t.advance(4.9)
    assert hand.to_act == first
    t.advance(0.2)  # the remaining 5 s are over: the time bank runs (issue 19) ...
    assert hand.to_act == first and t.room.turns.deadline()["time_bank_running"] is not None  # type: ignore[index]
    t.advance(TIME_BANK_S)
    assert hand.to_act != first  # ... then R-TM-01


def test_R_RM_07_pause_freezes_minute_blinds() -> None:
    schedule = BlindSchedule(Stakes(small_blind=5, big_blind=10), BlindIncrease.MINUTES, 1)
    t = started(schedule=schedule)
    t.ok(c.Pause("host"))
    t.advance(3600)
    assert t.room.running_seconds < 1
    assert t.room.summary()["blinds"]["big_blind"] == 10


def test_R_RM_08_closing_during_a_hand_returns_the_bets() -> None:
    t = started()
    t.to_deal()
    t.act(Action.raise_to(100))
    reply = t.ok(c.Close("host"))
    assert reply.data["stacks"] == {"host": 1000, "bia": 1000}
    assert t.room.status is RoomStatus.CLOSED
    assert t.conns["bia"].of("closed")[-1]["stacks"] == {"host": 1000, "bia": 1000}
    t.assert_chips_conserved()


def test_R_RM_09_an_empty_room_pauses_then_closes_after_two_minutes() -> None:
    t = started()
    t.disconnect("host")
    t.disconnect("bia")
    assert t.room.status is RoomStatus.PAUSED
    t.advance(119)
    assert t.room.status is RoomStatus.PAUSED
    t.advance(1)
    assert t.room.status is RoomStatus.CLOSED


def test_R_RM_09_someone_arriving_in_time_resumes_the_empty_room() -> None:
    t = started()
    t.disconnect("host")
    t.disconnect("bia")
    t.advance(60)
    t.connect("host")
    assert t.room.status is RoomStatus.RUNNING
    t.advance(300)
    assert t.room.status is not RoomStatus.CLOSED


def test_R_RM_16_joining_during_a_hand_reserves_a_seat_and_watches_until_the_next() -> None:
    t = started()
    t.to_deal()
    caio = t.connect("caio")
    reply = t.ok(c.Sit("caio", "Caio", 5))
    assert reply.data["reserved"] is True
    assert "caio" not in t.room.dealer.hand.players.values()  # type: ignore[union-attr]
    watched = caio.of("snapshot")[0]["hand"]["view"]  # watching the running hand
    assert watched["viewer"] is None and all(s["cards"] is None for s in watched["seats"])
    t.passive()
    assert caio.of("hand")
    t.play_hand_passively()
    t.advance(8)
    assert "caio" in t.room.dealer.hand.players.values()  # type: ignore[union-attr]


def test_R_RM_16_a_person_may_take_a_bots_place_during_a_hand() -> None:
    t = Table(holdem_config(seats=2))
    t.join("host", 0)
    t.ok(c.AddBot("host", "random", seat=1))
    t.ok(c.Start("host"))
    t.to_deal()
    t.connect("bia")
    if t.room.dealer.hand is not None:
        assert t.ok(c.Sit("bia", "Bia", 1)).data["reserved"] is True
        t.play_hand_passively()
    else:
        t.ok(c.Sit("bia", "Bia", 1))
    assert t.room.seats.get(1).player_id == "bia"  # type: ignore[union-attr]
    t.assert_chips_conserved()


def test_R_RM_18_a_hand_limit_closes_the_room_after_that_many_hands() -> None:
    t = started(limit_hands=2)
    for _ in range(2):
        t.to_deal()
        t.play_hand_passively()
        t.advance(8)
    assert t.room.status is RoomStatus.CLOSED
    assert t.room.dealer.hands_dealt == 2
    t.assert_chips_conserved()


def test_R_RM_18_R_TM_06_time_limit_runs_out_the_board_and_settles_before_closing() -> None:
    t = started(limit_minutes=1.0)
    t.to_deal()
    t.act(Action.raise_to(50))  # a bet pending when time runs out
    t.advance(60)
    assert t.room.status is RoomStatus.CLOSED
    last = t.room.dealer.last_hand
    assert last is not None and last.is_over
    assert last.view(None)["board"].__len__() == 5  # type: ignore[index]
    assert sum(t.room.closed_stacks.values()) == 2000
    t.assert_chips_conserved()
