"""Seats and reservations: R-RM-01 (pick a seat) and R-RM-16 (reserve during a hand)."""

from __future__ import annotations

import pytest

from ahiko.rooms.seats import Occupant, SeatError, Seats


def person(pid: str) -> Occupant:
    return Occupant(pid, pid.title(), 1000)


def bot(pid: str) -> Occupant:
    return Occupant(pid, pid, 1000, is_bot=True, bot_level="easy")


def test_R_RM_01_a_person_picks_a_free_seat_and_cannot_take_a_second_or_a_taken_one() -> None:
    seats = Seats(8)
    assert seats.sit(3, person("ana"), hand_running=False, may_take_bot_place=True) is False
    assert seats.seat_of("ana") == 3
    with pytest.raises(SeatError, match="already have a seat"):
        seats.sit(4, person("ana"), hand_running=False, may_take_bot_place=True)
    with pytest.raises(SeatError, match="taken"):
        seats.sit(3, person("bia"), hand_running=False, may_take_bot_place=True)
    with pytest.raises(SeatError, match="does not exist"):
        seats.sit(8, person("bia"), hand_running=False, may_take_bot_place=True)


def test_R_RM_16_joining_during_a_hand_reserves_a_free_seat_until_the_next_hand() -> None:
    seats = Seats(4)
    seats.sit(0, person("ana"), hand_running=False, may_take_bot_place=True)
    seats.sit(1, person("bia"), hand_running=False, may_take_bot_place=True)
    assert seats.sit(2, person("caio"), hand_running=True, may_take_bot_place=True) is True
    assert seats.eligible_for_hand() == [0, 1]
    seats.between_hands()
    assert seats.get(2).waiting is False  # type: ignore[union-attr]
    assert seats.eligible_for_hand() == [0, 1, 2]


def test_R_RM_16_in_a_recreational_room_a_person_may_reserve_a_bots_place() -> None:
    seats = Seats(2)
    seats.sit(0, person("ana"), hand_running=False, may_take_bot_place=True)
    seats.sit(1, bot("bot-1"), hand_running=False, may_take_bot_place=True)
    assert seats.sit(1, person("bia"), hand_running=True, may_take_bot_place=True) is True
    assert seats.get(1).player_id == "bot-1"  # type: ignore[union-attr]
    assert seats.reservation_of("bia") == 1
    left = seats.between_hands()
    assert [o.player_id for o in left] == ["bot-1"]
    assert seats.get(1).player_id == "bia"  # type: ignore[union-attr]


def test_R_RM_16_a_bots_place_is_not_offered_outside_recreational_rooms() -> None:
    seats = Seats(2)
    seats.sit(1, bot("bot-1"), hand_running=False, may_take_bot_place=False)
    with pytest.raises(SeatError):
        seats.sit(1, person("bia"), hand_running=True, may_take_bot_place=False)


def test_R_TM_05_disconnected_people_and_empty_stacks_are_not_dealt_in() -> None:
    seats = Seats(4)
    for i, pid in enumerate(["a", "b", "c"]):
        seats.sit(i, person(pid), hand_running=False, may_take_bot_place=True)
    seats.get(1).connected = False  # type: ignore[union-attr]
    seats.get(2).stack = 0  # type: ignore[union-attr]
    seats.sit(3, bot("bot-1"), hand_running=False, may_take_bot_place=True)
    assert seats.eligible_for_hand() == [0, 3]
