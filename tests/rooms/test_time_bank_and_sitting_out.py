"""The time bank and sitting out (issue 19) on the manual clock: the bank's default, refill
and cap, the bank used by itself then R-TM-01, the button, a pause freezing it; sitting out
and coming back, the automatic sit-out after two timeouts, withdrawal at the R-TM-03 absence
deadline (chips back to the wallet in Ahiko rooms)."""

from __future__ import annotations

import pytest
from ahiko_helpers import Ahiko, to_hand
from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.house.tiers import TIERS_BY_KEY, ahiko_config
from ahiko.rooms.timebank import (
    TIME_BANK_CAP_S,
    TIME_BANK_REFILL_HANDS,
    TIME_BANK_REFILL_S,
    TIME_BANK_S,
    TimeBankPolicy,
    TimeBanks,
)
from ahiko.rooms.timing import ABSENCE_WITHDRAWAL_S

DEADLINE = 10.0


def table(**overrides: object) -> Table:
    t = Table(holdem_config(action_deadline_s=DEADLINE, **overrides), host="ana")
    t.join("ana", 0)
    t.join("bia", 1)
    t.join("caio", 2)
    t.ok(c.Start("ana"))
    t.to_deal()
    return t


def seat_entry(t: Table, pid: str) -> dict[str, object]:
    return next(s for s in t.room.summary()["seats"] if s["player_id"] == pid)


def test_time_bank_default_refill_and_cap() -> None:
    policy = TimeBankPolicy()
    assert (
        (policy.initial_s, policy.refill_s, policy.refill_every_hands, policy.cap_s)
        == (
            TIME_BANK_S,
            TIME_BANK_REFILL_S,
            TIME_BANK_REFILL_HANDS,
            TIME_BANK_CAP_S,
        )
        == (30.0, 5.0, 10, 60.0)
    )
    banks = TimeBanks(policy)
    assert banks.left("ana") == 30.0
    for n in range(1, 80):
        banks.hand_dealt("ana")
        if n == 9:
            assert banks.left("ana") == 30.0
        if n == 10:
            assert banks.left("ana") == 35.0  # +5 s every 10 hands
    assert banks.left("ana") == 60.0  # at most 60 s
    for bad in ({"initial_s": 61}, {"cap_s": 400, "initial_s": 10}, {"refill_every_hands": 0}):
        with pytest.raises(ValueError):
            TimeBankPolicy(**bad)  # type: ignore[arg-type]


def test_time_bank_refills_in_a_room_counting_the_hands_a_person_is_dealt() -> None:
    t = table()
    assert seat_entry(t, "bia")["time_bank"] == 30.0
    for _ in range(TIME_BANK_REFILL_HANDS):
        t.play_hand_passively()
        t.advance(t.room.config.timing.next_hand_delay_s + 2)
    assert t.room.dealer.hands_dealt >= TIME_BANK_REFILL_HANDS
    assert seat_entry(t, "bia")["time_bank"] == 35.0
    assert t.room.summary()["time_bank"] == TimeBankPolicy().as_dict()


def test_time_bank_starts_by_itself_when_the_deadline_runs_out_then_R_TM_01() -> None:
    t = table()
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None
    first, pid = hand.to_act, hand.players[hand.to_act]
    rec = t.conns["bia"]
    t.advance(DEADLINE)
    assert hand.to_act == first  # the bank runs
    (frame,) = rec.of("time_bank")
    assert frame["deadline"] == {
        "seat": first,
        "seconds_left": TIME_BANK_S,
        "time_bank_running": TIME_BANK_S,
        "time_bank": TIME_BANK_S,
    }
    assert frame["seq"] == t.room.broadcast.seq  # a numbered room event
    t.advance(TIME_BANK_S - 0.1)
    assert hand.to_act == first
    t.advance(0.1)
    assert hand.to_act != first  # empty: the timeout rule (a bet was pending: fold)
    seats = hand.view(None)["seats"]  # type: ignore[index]
    assert seats[hand.dealt_seats.index(first)]["status"] == "folded"
    assert t.room.time_banks.left(pid) == 0.0


def test_time_bank_only_the_seconds_past_the_deadline_are_spent_and_an_empty_bank_adds_none() -> (
    None
):
    t = table()
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None
    pid = hand.players[hand.to_act]
    t.advance(DEADLINE + 12)
    assert t.passive().ok
    assert t.room.time_banks.left(pid) == pytest.approx(TIME_BANK_S - 12)
    assert t.room.turns.deadline()["time_bank_running"] is None  # type: ignore[index]
    t.room.time_banks._left[pid] = 0.0  # spent to the last second
    while (
        t.room.dealer.hand is hand and hand.to_act is not None and hand.players[hand.to_act] != pid
    ):
        t.passive()
    if t.room.dealer.hand is hand and hand.to_act is not None:
        seat = hand.to_act
        t.advance(DEADLINE)
        assert hand.to_act != seat  # no bank: R-TM-01 at the deadline


def test_time_bank_button_adds_the_bank_after_what_is_left_of_the_deadline() -> None:
    t = table()
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None
    pid = hand.players[hand.to_act]
    other = next(p for p in ("ana", "bia", "caio") if p != pid)
    assert t.submit(c.UseTimeBank(other)).code == "out_of_turn"
    t.advance(3)
    reply = t.ok(c.UseTimeBank(pid))
    assert reply.data == {"seconds_left": DEADLINE - 3 + TIME_BANK_S}
    assert t.submit(c.UseTimeBank(pid)).code == "time_bank_running"
    t.advance(DEADLINE - 3 + 4)  # 4 s into the bank
    assert t.passive().ok
    assert t.room.time_banks.left(pid) == pytest.approx(TIME_BANK_S - 4)


def test_time_bank_is_frozen_by_a_pause() -> None:
    t = table()
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None
    seat = hand.to_act
    t.advance(DEADLINE + 10)  # 10 s into the bank
    t.ok(c.Pause("ana"))
    t.advance(3600)
    t.ok(c.Resume("ana"))
    assert t.room.turns.deadline()["time_bank_running"] == pytest.approx(20)  # type: ignore[index]
    t.advance(19.9)
    assert hand.to_act == seat
    t.advance(0.1)
    assert hand.to_act != seat


def test_time_bank_none_without_a_deadline_and_a_disconnected_player_keeps_it() -> None:
    t = Table(holdem_config(), host="ana")  # no deadline
    t.join("ana", 0)
    t.join("bia", 1)
    t.ok(c.Start("ana"))
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None and hand.to_act is not None
    assert t.submit(c.UseTimeBank(hand.players[hand.to_act])).code == "no_time_bank"
    t2 = table()
    hand2 = t2.room.dealer.hand
    assert hand2 is not None and hand2.to_act is not None
    seat, pid = hand2.to_act, hand2.players[hand2.to_act]
    t2.disconnect(pid)
    t2.advance(DEADLINE)
    assert hand2.to_act != seat  # R-TM-07: an absent player is played by the deadline
    assert t2.room.time_banks.left(pid) == TIME_BANK_S


def test_time_bank_host_sets_it_ahiko_rooms_and_tournaments_are_fixed() -> None:
    from ahiko.server.api_rooms import CreateRoom

    body = CreateRoom(name="mesa", time_bank_s=10.0, time_bank_refill_s=2.0, time_bank_cap_s=20.0)
    assert body.to_config().time_bank == TimeBankPolicy(10.0, 2.0, 10, 20.0)
    assert CreateRoom(name="mesa").to_config().time_bank == TimeBankPolicy()
    with pytest.raises(ValueError, match="fixed time bank"):
        CreateRoom(name="t", kind="tournament", time_bank_s=5.0).to_config()
    assert CreateRoom(name="t", kind="tournament").to_config().time_bank == TimeBankPolicy()
    with pytest.raises(ValueError):
        CreateRoom(name="mesa", time_bank_s=50.0, time_bank_cap_s=20.0).to_config()
    assert ahiko_config(TIERS_BY_KEY["alta"], "Alta 1").time_bank == TimeBankPolicy()


# --- sitting out ----------------------------------------------------------------------------
def test_sit_out_keeps_the_seat_skips_the_next_hands_and_coming_back_deals_in() -> None:
    t = table()
    hand = t.room.dealer.hand
    assert hand is not None
    assert t.ok(c.SitOut("caio")).data == {"seat": 2, "sitting_out": True, "changed": True}
    assert seat_entry(t, "caio")["sitting_out"] is True
    assert "caio" in hand.players.values()  # the hand in play goes on with caio in it
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s + 2)
    second = t.room.dealer.hand
    assert second is not None and second is not hand
    assert "caio" not in second.players.values()  # not dealt in; the seat is kept
    assert t.room.seats.seat_of("caio") == 2
    assert second.button in (0, 1)  # the button moves past a sitting player
    assert t.ok(c.SitOut("caio", on=True)).data["changed"] is False
    t.ok(c.SitOut("caio", on=False))
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s + 2)
    third = t.room.dealer.hand
    assert third is not None and "caio" in third.players.values()
    assert t.submit(c.SitOut("nobody")).code == "not_seated"


def test_sit_out_withdrawal_at_the_absence_deadline() -> None:
    t = table()
    t.play_hand_passively()
    t.ok(c.SitOut("caio"))
    stack = t.room.seats.get(2).stack  # type: ignore[union-attr]
    t.advance(ABSENCE_WITHDRAWAL_S - 1)
    assert t.room.seats.seat_of("caio") == 2
    t.play_hand_passively()
    t.advance(1)
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s + 2)
    assert t.room.seats.seat_of("caio") is None  # R-TM-03: withdrawn
    assert t.room.chips_out == stack  # with the chips they had (not dealt in meanwhile)


def run_out_clock(t: Table) -> None:
    """Let the seat to act's clock (and time bank) run out, and not a second more."""
    hand = t.room.dealer.hand
    assert hand is not None
    seat = hand.to_act
    while t.room.dealer.hand is hand and hand.to_act == seat:
        left = t.room.timers.left("deadline")
        assert left is not None
        t.advance(left)


def test_sit_out_after_two_consecutive_timeouts_at_the_next_hand_boundary_and_told() -> None:
    t = table()
    rec = t.conns["caio"]

    def play_hand_caio_times_out() -> None:
        hand = t.room.dealer.hand
        assert hand is not None
        while t.room.dealer.hand is hand and hand.to_act is not None:
            if hand.players[hand.to_act] == "caio":
                run_out_clock(t)  # the deadline, then the bank, both run out
            else:
                t.passive()
        t.advance(t.room.config.timing.next_hand_delay_s + 2)

    play_hand_caio_times_out()
    assert not t.room.seats.get(2).sitting_out  # type: ignore[union-attr]
    play_hand_caio_times_out()
    assert t.room.seats.get(2).sitting_out  # type: ignore[union-attr]
    (notice,) = [f for f in rec.of("notice") if f["code"] == "sat_out_timeouts"]
    assert notice["rule"] == "R-TM-01" and "two hands in a row" in notice["message"]
    hand = t.room.dealer.hand
    assert hand is not None and "caio" not in hand.players.values()


def test_sit_out_one_timeout_then_a_decision_resets_the_count() -> None:
    t = table()
    hand = t.room.dealer.hand
    assert hand is not None
    for n in range(2):
        current = t.room.dealer.hand
        assert current is not None
        while t.room.dealer.hand is current and current.to_act is not None:
            if current.players[current.to_act] == "caio" and n == 0:
                run_out_clock(t)
            else:
                t.passive()
        t.advance(t.room.config.timing.next_hand_delay_s + 2)
    assert not t.room.seats.get(2).sitting_out  # type: ignore[union-attr]


def test_sit_out_in_an_ahiko_room_withdraws_with_the_chips_back_to_the_wallet(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia, caio = ahiko.person("ana"), ahiko.person("bia"), ahiko.person("caio")
    for pid, seat in ((ana, 0), (bia, 2), (caio, 4)):
        assert ahiko.sit(room, pid, seat, 100).ok
    before = ahiko.wallet_of(caio)
    assert room.submit(c.SitOut(caio)).ok
    to_hand(ahiko, room)
    hand = room.dealer.hand
    assert hand is not None and caio not in hand.players.values()
    ahiko.advance(ABSENCE_WITHDRAWAL_S)
    assert room.seats.seat_of(caio) is None
    assert ahiko.wallet_of(caio) == before + 100  # the chips went back
    ahiko.check()
    assert room.dealer.hand is not None  # the table plays on between ana and bia
