"""A host's multi-table tournament of Pot-Limit Omaha (issue 42): the lobby keeps the game
the host chose and refuses one its nine-seat tables cannot deal with blinds, naming why;
the live tables deal Omaha at 25/50 (R-TN-03)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from random import Random

import pytest

from ahiko.competition.lifecycle import TournamentRefused
from ahiko.competition.live_mtt import MttRooms
from ahiko.competition.mtt_lobby import MttLobby
from ahiko.poker.games import POT_LIMIT_OMAHA
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def lobby() -> MttLobby:
    return MttLobby(lambda: NOW, every_minutes=30)


def test_R_TN_02_a_host_opens_an_omaha_mtt_and_its_listing_says_so() -> None:
    mtt = lobby().create(1, "Omaha de domingo", 0, 10, variant=POT_LIMIT_OMAHA.name)
    assert mtt.variant == "plo" and mtt.to_json()["variant"] == "plo"
    assert lobby().create(1, "Hold'em", 0, 10).variant == "holdem"  # the default


@pytest.mark.parametrize(
    ("variant", "said"),
    [("draw", "a game with blinds at 9 seats"), ("stud", "one of holdem, draw, plo")],
)
def test_a_game_an_mtt_cannot_deal_is_refused_naming_why(variant: str, said: str) -> None:
    with pytest.raises(TournamentRefused, match=said) as refused:
        lobby().create(1, "Noite", 0, 10, variant=variant)
    assert refused.value.code == "bad_request"


def test_R_TN_03_the_tables_of_an_omaha_mtt_deal_omaha_at_25_50() -> None:
    registry = RoomRegistry(clock=ManualClock())
    field = [(f"p{n}", f"P{n}") for n in range(12)]
    mtt = MttRooms(registry, "omaha", field, rng=Random(3), variant=POT_LIMIT_OMAHA.name)

    async def opened() -> list[dict[str, object]]:
        await mtt.start()
        return [registry.get(room_id).summary() for room_id in mtt.room_ids().values()]  # type: ignore[union-attr]

    tables = asyncio.run(opened())
    assert len(tables) == 2
    for summary in tables:
        assert summary["game"] == POT_LIMIT_OMAHA.to_json()
        assert summary["blinds"]["big_blind"] == 50  # type: ignore[index]
