"""The site's own bots in a live multi-table tournament (issue 20: "an MTT of 200 bots and
people"; the 200-player test plays every entrant by script). 36 entrants at four live tables
(``live_mtt.MttRooms``, real room actors, a manual clock): twelve are played by the site's
bots, easy and normal (``ahiko.bots``), each deciding every turn on its seat's own view, the
one its frames carry (R-AI-01), through the same act path as the people; the others shove or
play cautiously by script. Played to one winner holding every chip, checked after every hand
as the 200-player test checks (tables within one player, as many as the field needs), nobody
skipping a big blind by moving, every entrant ranked once."""

from __future__ import annotations

import asyncio
from collections import Counter
from random import Random
from typing import Any

from mtt_play import play
from mtt_watch import check_big_blinds
from test_mtt_live_200 import Checked

from ahiko.bots.protocol import Bot, load_bot
from ahiko.poker.actions import Action
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry

PLAYERS = 36


class Counted:
    """A bot whose every decision is counted by kind (the test checks they really played)."""

    def __init__(self, bot: Bot, decided: Counter[str]) -> None:
        self.bot = bot
        self.decided = decided

    def decide(self, view: dict[str, Any], rng: Random) -> Action:
        action = self.bot.decide(view, rng)
        self.decided[action.kind.value] += 1
        return action


def test_R_AI_01_R_TN_04_the_sites_bots_and_people_play_a_live_mtt_to_one_winner() -> None:
    clock = ManualClock()
    registry = RoomRegistry(clock=clock)
    field = [(f"{'bot' if n % 3 == 0 else 'p'}{n}", f"P{n}") for n in range(PLAYERS)]
    mtt = Checked(registry, "bots", field, rng=Random(36), level_minutes=5, paid_places=0)
    decided: Counter[str] = Counter()
    levels = {"easy": load_bot("easy"), "normal": load_bot("normal")}

    def brain(player: str) -> Bot | None:
        if not player.startswith("bot"):
            return None
        return Counted(levels["easy" if int(player[3:]) % 2 else "normal"], decided)

    async def scenario() -> None:
        await mtt.start()
        assert sorted(len(t.seats) for t in mtt.model.tables.values()) == [9, 9, 9, 9]
        await play(
            registry,
            clock,
            mtt,
            steps=200_000,
            everywhere=False,
            cautious=lambda n: n % 3 == 2,
            brain=brain,
        )
        assert mtt.finished and mtt.model.over
        _departures, arrivals = check_big_blinds(mtt)
        assert arrivals >= 1, "no move was checked"
        places = mtt.places
        assert [p.place for p in places] == list(range(1, PLAYERS + 1))
        assert sorted(p.player for p in places) == sorted(pid for pid, _name in field)
        assert sum(len(out) for out in mtt.out) == PLAYERS - 1

    asyncio.run(asyncio.wait_for(scenario(), 600))
    # the bots decided for themselves: folds, calls or checks, and bets or raises
    assert decided["fold"] > 0, decided
    assert decided["call"] + decided["check"] > 0, decided
    assert decided["bet"] + decided["raise"] > 0, decided
    print(f"bots' decisions: {dict(decided)}; hands {mtt.hands}")
