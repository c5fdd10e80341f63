"""R-TN-04 / R-TN-05 read back from the archive: places by reverse order of elimination, two
players out in one hand ordered by their stacks at its start and then by lot, a leaver out
after their last hand, and no places while the tournament still runs."""

from __future__ import annotations

from datetime import UTC, datetime

from ahiko.competition.tournaments import tournament_finishes
from ahiko.store.archive_reads import SeatLine

AT = datetime(2026, 11, 2, tzinfo=UTC)


def line(hand_no: int, player: str, start: int, end: int, room: str = "t1") -> SeatLine:
    return SeatLine(
        hand_id=hand_no,
        room_id=room,
        room_kind="tournament",
        room_name="Torneio",
        variant="holdem",
        hand_no=hand_no,
        seat=int(player[1:]),
        player_id=player,
        user_id=int(player[1:]),
        name=player,
        occupant="person",
        start_stack=start,
        net=end - start,
        ended_at=AT,
    )


def places(lines: list[SeatLine]) -> dict[str, int]:
    return {f.player_id: f.place for f in tournament_finishes(lines)}


def test_r_tn_04_two_out_in_one_hand_ranked_by_stack_at_its_start() -> None:
    lines = [
        line(1, "p1", 1000, 1500),
        line(1, "p2", 1000, 1300),
        line(1, "p3", 1000, 200),
        line(1, "p4", 1000, 1000),
        line(2, "p1", 1500, 2600),
        line(2, "p2", 1300, 1400),
        line(2, "p3", 200, 0),
        line(2, "p4", 1000, 0),
        line(3, "p1", 2600, 4000),
        line(3, "p2", 1400, 0),
    ]
    assert places(lines) == {"p1": 1, "p2": 2, "p4": 3, "p3": 4}
    assert all(f.entrants == 4 for f in tournament_finishes(lines))
    assert {f.player_id: f.points() for f in tournament_finishes(lines)} == {
        "p1": 4,
        "p2": 3,
        "p4": 2,
        "p3": 1,
    }


def test_r_tn_04_equal_stacks_out_together_are_ordered_by_lot_and_stay_a_pair() -> None:
    lines = [
        line(1, "p1", 1000, 3000),
        line(1, "p2", 1000, 0),
        line(1, "p3", 1000, 0),
    ]
    got = places(lines)
    assert got["p1"] == 1 and {got["p2"], got["p3"]} == {2, 3}
    assert places(lines) == got  # the same lot every time it is read


def test_r_tn_05_a_leaver_is_out_after_their_last_hand_above_those_busted_in_it() -> None:
    lines = [
        line(1, "p1", 1000, 1400),
        line(1, "p2", 1000, 900),
        line(1, "p3", 1000, 0),
        line(1, "p4", 1000, 700),
        # p4 left after hand 1 with 700 chips
        line(2, "p1", 1400, 2300),
        line(2, "p2", 900, 0),
    ]
    assert places(lines) == {"p1": 1, "p2": 2, "p4": 3, "p3": 4}


def test_a_tournament_still_running_has_no_places_yet() -> None:
    lines = [line(1, "p1", 1000, 1500), line(1, "p2", 1000, 500)]
    assert tournament_finishes(lines) == []
