"""Tournament finishing order: R-TN-04 (reverse elimination, same-hand ties) and R-TN-05."""

from __future__ import annotations

from random import Random

import pytest

from ahiko.rooms.ranking import TournamentRanking


def test_R_TN_04_ranking_is_reverse_order_of_elimination() -> None:
    ranking = TournamentRanking(4, Random(1))
    ranking.eliminate_in_hand(3, {"d": 100})
    ranking.eliminate_in_hand(7, {"c": 400})
    ranking.eliminate_in_hand(9, {"b": 900})
    ranking.declare_winner("a")
    assert [(p.place, p.player) for p in ranking.placements()] == [
        (1, "a"),
        (2, "b"),
        (3, "c"),
        (4, "d"),
    ]


def test_R_TN_04_same_hand_eliminations_rank_by_chips_at_the_start_of_that_hand() -> None:
    ranking = TournamentRanking(4, Random(1))
    ranking.eliminate_in_hand(5, {"small": 100, "big": 700, "mid": 300})
    ranking.declare_winner("w")
    order = [p.player for p in ranking.placements()]
    assert order == ["w", "big", "mid", "small"]
    assert not any(p.by_lot for p in ranking.placements())


def test_R_TN_04_equal_chips_in_the_same_hand_are_ranked_by_lot_from_the_injected_rng() -> None:
    outcomes = set()
    for seed in range(20):
        ranking = TournamentRanking(3, Random(seed))
        ranking.eliminate_in_hand(2, {"x": 500, "y": 500})
        ranking.declare_winner("w")
        placements = ranking.placements()
        assert [p.place for p in placements] == [1, 2, 3]
        assert placements[1].by_lot and placements[2].by_lot
        outcomes.add(placements[1].player)
    assert outcomes == {"x", "y"}  # both orders happen: it really is a lot


def test_R_TN_05_a_leaver_is_eliminated_at_once_in_the_position_of_that_moment() -> None:
    ranking = TournamentRanking(4, Random(1))
    ranking.eliminate_leaver("quitter", None, 1500)
    assert ranking.placements()[0].place == 4
    ranking.eliminate_in_hand(4, {"b": 50})
    ranking.eliminate_in_hand(6, {"c": 50})
    ranking.declare_winner("a")
    assert [p.player for p in ranking.placements()] == ["a", "c", "b", "quitter"]


def test_R_TN_04_nobody_is_eliminated_twice() -> None:
    ranking = TournamentRanking(3, Random(1))
    ranking.eliminate_in_hand(1, {"a": 10})
    with pytest.raises(ValueError):
        ranking.eliminate_leaver("a", 2, 0)
    with pytest.raises(ValueError):
        ranking.declare_winner("a")
