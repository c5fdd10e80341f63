"""Blind schedules: R-RM-04 (fixed or doubling by hands or minutes) and R-TN-03."""

from __future__ import annotations

import pytest

from ahiko.rooms.blinds import BlindIncrease, BlindSchedule, Stakes


def test_R_RM_04_fixed_blinds_never_change() -> None:
    schedule = BlindSchedule(Stakes(small_blind=5, big_blind=10))
    assert schedule.stakes_for_next_hand(500, 99_999) == Stakes(small_blind=5, big_blind=10)


def test_R_RM_04_blinds_double_every_n_hands_from_the_next_hand() -> None:
    schedule = BlindSchedule(Stakes(small_blind=5, big_blind=10), BlindIncrease.HANDS, 3)
    bigs = [schedule.stakes_for_next_hand(dealt, 0).big_blind for dealt in range(7)]
    assert bigs == [10, 10, 10, 20, 20, 20, 40]


def test_R_RM_04_blinds_double_every_n_minutes_of_running_time() -> None:
    schedule = BlindSchedule(Stakes(small_blind=1, big_blind=2), BlindIncrease.MINUTES, 5)
    assert schedule.stakes_for_next_hand(0, 299.9).big_blind == 2
    assert schedule.stakes_for_next_hand(0, 300).big_blind == 4
    assert schedule.stakes_for_next_hand(0, 900).small_blind == 8


def test_R_TN_03_tournament_default_is_25_50_doubling_every_10_hands() -> None:
    schedule = BlindSchedule.tournament_default()
    assert schedule.stakes_for_next_hand(0, 0) == Stakes(small_blind=25, big_blind=50)
    assert schedule.stakes_for_next_hand(9, 0).big_blind == 50
    assert schedule.stakes_for_next_hand(10, 0).big_blind == 100
    assert schedule.stakes_for_next_hand(25, 0).big_blind == 200


def test_R_RM_04_draw_stakes_double_ante_and_small_bet() -> None:
    schedule = BlindSchedule(Stakes(ante=1, small_bet=2), BlindIncrease.HANDS, 1)
    assert schedule.stakes_for_next_hand(2, 0) == Stakes(ante=4, small_bet=8)
    assert schedule.stakes_for_next_hand(2, 0).draw_config().big_bet == 16


def test_R_RM_04_a_doubling_interval_must_be_positive() -> None:
    with pytest.raises(ValueError):
        BlindSchedule(Stakes(small_blind=1, big_blind=2), BlindIncrease.HANDS, 0)


def test_R_TN_03_progress_says_the_level_the_next_blinds_and_how_far_they_are() -> None:
    by_hands = BlindSchedule.tournament_default()
    assert by_hands.progress(0, 0.0) == {
        "level": 1,
        "increase": "hands",
        "every": 10,
        "next_blinds": Stakes(small_blind=50, big_blind=100).as_dict(),
        "hands_to_next": 10,
        "seconds_to_next": None,
    }
    later = by_hands.progress(13, 999.0)
    assert (later["level"], later["hands_to_next"]) == (2, 7)
    assert later["next_blinds"] == Stakes(small_blind=100, big_blind=200).as_dict()
    by_time = BlindSchedule(Stakes(small_blind=25, big_blind=50), BlindIncrease.MINUTES, 10)
    at = by_time.progress(40, 630.0)  # 10 min 30 s in: level 2, 9 min 30 s to level 3
    assert (at["level"], at["seconds_to_next"], at["hands_to_next"]) == (2, 570.0, None)
    fixed = BlindSchedule(Stakes(small_blind=1, big_blind=2)).progress(5, 60.0)
    assert (fixed["level"], fixed["next_blinds"], fixed["hands_to_next"]) == (1, None, None)
