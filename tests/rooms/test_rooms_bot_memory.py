"""Issue 18: a bot with a memory learns from each hand's public record for as long as it sits
at the table: ``observe`` gets the bot's own final view (hidden cards stay hidden) with the
players' public names, and a bot that leaves takes its memory with it."""

from __future__ import annotations

from random import Random
from typing import Any

from rooms_helpers import Table, holdem_config

from ahiko.bots.levels import HardBot
from ahiko.bots.protocol import Bot, load_bot
from ahiko.rooms import commands as c
from ahiko.rooms.room import Room


class RecordingHard(HardBot):
    def __init__(self) -> None:
        super().__init__()
        self.observed: list[dict[str, Any]] = []

    def observe(self, view: dict[str, Any]) -> None:
        self.observed.append(view)
        super().observe(view)


def _factory(made: list[RecordingHard]) -> Any:
    def factory(level: str) -> Bot:
        if level != "hard":
            return load_bot(level)
        bot = RecordingHard()
        made.append(bot)
        return bot

    return factory


def _table(made: list[RecordingHard]) -> Table:
    t = Table(holdem_config(seats=2), host="ana")
    t.room = Room(
        "t-1",
        t.room.config,
        clock=t.clock,
        host_id="ana",
        rng=Random(3),
        bot_factory=_factory(made),
        randbelow=Random(5).randrange,  # a fixed deal: with a fair one Ana may bust early
    )
    t.join("ana", 0)
    t.ok(c.AddBot("ana", "hard", seat=1))
    t.ok(c.Start("ana"))
    return t


def _play_hands(t: Table, hands: int) -> None:
    for _ in range(hands):
        t.to_deal()
        t.play_hand_passively()
        t.advance(10)


def test_a_bot_remembers_the_public_record_while_it_sits_at_the_table() -> None:
    made: list[RecordingHard] = []
    t = _table(made)
    _play_hands(t, 3)
    (bot,) = made
    assert len(bot.observed) >= 3
    for v in bot.observed:
        assert v["street"] == "over" and v["viewer"] == 1
        assert v["players"] == {"0": "Ana", "1": "Bot 1"}
        shown = {e["seat"] for e in v["history"] if e["kind"] == "cards_shown"}
        for s in v["seats"]:
            if s["seat"] != 1 and s["seat"] not in shown:
                assert s["cards"] is None  # R-AI-01: nothing hidden reaches the memory
    record = bot.memory.stats[(0, "Ana")]
    assert record.hands == len(bot.observed)
    assert 0 < record.vpip <= record.hands  # ana called whenever she was not the big blind

    t.ok(c.RemoveBot("ana", 1))
    _play_hands(t, 1)
    t.ok(c.AddBot("ana", "hard", seat=1))
    assert len(made) == 2 and made[1].memory.stats == {}  # a new bot starts with no record
