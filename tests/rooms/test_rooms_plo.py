"""Pot-Limit Omaha in the rooms (issue 42), over real WebSockets: a recreational table the
host sets up (2-9 seats, their blinds), four cards each, pot-limit raises, the room summary
saying what the game is, and a bot level without an Omaha bot refused in both languages'
terms (its code); a tournament and a sit & go queue of the game."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from rooms_live import Client, live_server
from test_rooms_live_games import conserved, create, seat_people

import ahiko
from ahiko.bots.protocol import Bot, load_bot
from ahiko.competition.live_sitgo import sitgo_config
from ahiko.competition.sitgo import QUEUES
from ahiko.poker.games import HOLDEM, POT_LIMIT_OMAHA
from ahiko.rooms.commands import Refusal
from ahiko.rooms.config import Variant
from ahiko.rooms.table_bots import TableBots, plays
from pot_limit import pot_limit_max

WEB = Path(ahiko.__file__).parent / "web" / "js"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    with live_server() as running:
        yield running


def test_R_RM_03_a_pot_limit_omaha_table_deals_four_cards_and_raises_to_the_pot(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    room_id = create(
        address, "ana", name="omaha", variant="plo", seats=6, small_blind=10, big_blind=20,
        limit_hands=12,
    )  # fmt: skip
    summary = httpx.get(f"http://{address}/api/rooms/{room_id}").json()
    assert summary["variant"] == "plo" and summary["blinds"]["big_blind"] == 20
    assert summary["game"]["hole_cards"] == 4 and summary["game"]["betting"] == "pot-limit"
    assert summary["game"]["title"] == {"en": "Pot-Limit Omaha", "pt-BR": "Omaha Pot-Limit"}
    raises_checked: list[tuple[int, int]] = []

    class Checking(Client):
        def choose(self, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
            mine = next(s for s in view["seats"] if s["seat"] == view["viewer"])
            assert len(mine["cards"]) == POT_LIMIT_OMAHA.hole_cards
            if legal["bet_kind"]:
                raises_checked.append((legal["max_to"], pot_limit_max(view)))
            return super().choose(view, legal)

    async def game() -> list[Client]:
        people = [Checking(address, room_id, pid, seed=i) for i, pid in enumerate(["ana", "bia"])]
        for i, client in enumerate(people):
            await client.open()
            await client.recv()
            sit = await client.send("sit", seat=i)
            await client.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
        ana, bia = people
        await ana.send("add_bot", level="random")
        started = await ana.send("start")
        await ana.until(lambda f: f.get("id") == started)
        await asyncio.gather(ana.play(), bia.play())
        for client in people:
            await client.close()
        return people

    ana, _ = asyncio.run(game())
    assert ana.frames[-1]["t"] == "closed"
    assert app.state.room_registry.get(room_id).room.dealer.hands_dealt == 12
    conserved(app, room_id)
    assert raises_checked and all(offered == expected for offered, expected in raises_checked)
    shown = [
        e["cards"] for f in ana.frames if f["t"] == "hand" for e in f["events"]
        if e.get("kind") == "cards_shown" and e.get("cards")
    ]  # fmt: skip
    assert all(len(cards) == 4 for cards in shown)


def test_R_RM_05_a_bot_level_without_an_omaha_bot_is_refused_and_nothing_changes(
    server: tuple[str, FastAPI],
) -> None:
    """Until ``ahiko.bots.levels`` holds an Omaha bot for a level, that level is refused at
    an Omaha table with its own code (the client words it in pt-BR and English)."""
    address, _ = server
    room_id = create(address, "ana", name="omaha bots", variant="plo")
    levels = ["easy", "normal", "hard"]
    without_omaha = [level for level in levels if not plays(load_bot(level), POT_LIMIT_OMAHA)]

    async def scene() -> list[dict[str, Any]]:
        (ana,) = await seat_people(address, room_id, ["ana"])
        replies = []
        for level in levels:
            asked = await ana.send("add_bot", level=level)
            replies.append(await ana.until(lambda f, asked=asked: f.get("id") == asked))
        await ana.close()
        return replies

    replies = dict(zip(levels, asyncio.run(scene()), strict=True))
    for level in without_omaha:
        reply = replies[level]
        assert reply["t"] == "error" and reply["code"] == "bot_not_for_game", reply
        assert reply["message"] == f"the {level} bot does not play Pot-Limit Omaha yet"
    assert all(replies[level]["t"] == "ack" for level in levels if level not in without_omaha)
    seats = httpx.get(f"http://{address}/api/rooms/{room_id}").json()["seats"]
    assert len(seats) == 1 + len(levels) - len(without_omaha)  # a refused bot never sat
    for locale in ("en", "pt-BR"):
        words = (WEB / "locales" / f"{locale}.js").read_text(encoding="utf-8")
        assert '"error.bot_not_for_game"' in words


@pytest.mark.parametrize("seats, status", [(1, 422), (2, 201), (9, 201), (10, 422)])
def test_R_HE_01_a_pot_limit_omaha_table_seats_2_to_9(
    server: tuple[str, FastAPI], seats: int, status: int
) -> None:
    address, _ = server
    response = httpx.post(
        f"http://{address}/api/rooms",
        json={"name": "omaha", "variant": "plo", "seats": seats},
        headers={"x-player": "ana"},
    )
    assert response.status_code == status, response.text


def test_an_unknown_game_is_refused_naming_the_games(server: tuple[str, FastAPI]) -> None:
    address, _ = server
    response = httpx.post(
        f"http://{address}/api/rooms",
        json={"name": "stud", "variant": "stud"},
        headers={"x-player": "ana"},
    )
    assert response.status_code == 422
    assert "holdem, draw, plo" in response.text


def test_R_TN_03_an_omaha_tournament_and_sit_and_go_start_at_25_50(
    server: tuple[str, FastAPI],
) -> None:
    address, _ = server
    room_id = create(address, "ana", name="omaha cup", variant="plo", kind="tournament", seats=6)
    summary = httpx.get(f"http://{address}/api/rooms/{room_id}").json()
    assert summary["kind"] == "tournament" and summary["game"]["name"] == "plo"
    assert (summary["blinds"]["small_blind"], summary["blinds"]["big_blind"]) == (25, 50)
    queues = [spec for spec in QUEUES if Variant(spec.variant).game is POT_LIMIT_OMAHA]
    assert {spec.buy_in for spec in queues} == {0, 100}
    config = sitgo_config(queues[0], 1)
    assert config.variant is Variant.PLO and config.schedule.base.big_blind == 50


def test_R_RM_05_a_level_whose_omaha_bot_is_missing_is_refused_and_no_bot_is_kept() -> None:
    """The refusal itself, whatever ``ahiko.bots.levels`` holds today: a level bot without
    its Omaha part (taken away here) sits at a hold'em table, not at an Omaha one."""

    def without_omaha(level: str) -> Bot:
        bot = load_bot(level)
        vars(bot).pop("omaha", None)
        vars(bot).pop("plo", None)
        return bot

    bots = TableBots(without_omaha)
    with pytest.raises(Refusal) as refused:
        bots.new("easy", 1000, POT_LIMIT_OMAHA)
    reply = refused.value.reply
    assert (reply.code, reply.rule) == ("bot_not_for_game", "R-RM-05")
    assert reply.message == "the easy bot does not play Pot-Limit Omaha yet"
    assert not bots  # nothing changed: no bot kept for the refused seat
    assert bots.new("easy", 1000, HOLDEM).is_bot
