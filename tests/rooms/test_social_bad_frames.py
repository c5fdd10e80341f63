"""Bad social-table frames over the real WebSocket (issue 19): oversized, empty, control characters,
flooding, wrong types, for every new frame (chat, chat_mute, chat_report, chat_setting,
sit_out, time_bank).
Each gets an error frame naming the problem and changes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from rooms_live import Client, live_server


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    with live_server() as running:
        yield running


async def error_code(client: Client, raw: str | None = None, **frame: Any) -> str:
    """Send a frame (or ``raw`` text); the answer must be an error with a message."""
    if raw is not None:
        await client.ws.send(raw)
    else:
        await client.send(frame.pop("t"), **frame)
    answer = await client.until(lambda f: f["t"] in ("error", "ack"))
    assert answer["t"] == "error", answer
    assert answer["message"]
    return str(answer["code"])


def chat_state(room: Any) -> tuple[Any, ...]:
    chat = room.chat
    return (
        room.broadcast.seq,
        chat.mode,
        len(chat.moderation.kept),
        len(chat.moderation.reported),
        {p: sorted(chat.moderation.mutes_of(p)) for p in ("ana", "bia")},
    )


def test_chat_bad_frames_get_errors_and_change_nothing(server: tuple[str, FastAPI]) -> None:
    address, app = server
    response = httpx.post(
        f"http://{address}/api/rooms", json={"name": "chat"}, headers={"x-player": "ana"}
    )
    room_id = response.json()["id"]
    room = app.state.room_registry.get(room_id).room

    async def scenario() -> list[str]:
        ana, bia = Client(address, room_id, "ana", 0), Client(address, room_id, "bia", 1)
        anon = Client(address, room_id, None, 2)
        for client in (ana, bia, anon):
            await client.open()
            await client.recv()
        for client, seat in ((ana, 0), (bia, 1)):
            sit = await client.send("sit", seat=seat)
            await client.until(lambda f, sit=sit: f.get("id") == sit)
        said = await bia.send("chat", text="oi")
        no = (await bia.until(lambda f, said=said: f.get("id") == said))["data"]["no"]
        before = chat_state(room)
        codes: list[str] = []

        async def expect_error(client: Client, raw: str | None = None, **frame: Any) -> None:
            codes.append(await error_code(client, raw, **frame))

        # chat
        await expect_error(ana, t="chat", text="x" * 201)  # oversized
        await expect_error(ana, raw=json.dumps({"t": "chat", "id": "big", "text": "x" * 5000}))
        await expect_error(ana, t="chat", text="")  # empty
        await expect_error(ana, t="chat", text="   ")  # nothing but spaces
        await expect_error(ana, t="chat", text="oi\x07bia")  # control characters
        await expect_error(ana, t="chat", text="linha\nnova")
        await expect_error(ana, t="chat", text=42)  # not text
        await expect_error(ana, t="chat", preset="")
        await expect_error(ana, t="chat", preset="x" * 33)
        await expect_error(ana, t="chat", preset="i_have_aces")
        await expect_error(ana, t="chat", text="oi", preset="gg")
        await expect_error(ana, t="chat", text="oi", color="red")  # unknown field
        await expect_error(anon, t="chat", text="oi")  # not signed in
        # chat_mute
        await expect_error(ana, t="chat_mute", player_id="")
        await expect_error(ana, t="chat_mute", player_id="x" * 65)
        await expect_error(ana, t="chat_mute", player_id="ana")
        await expect_error(ana, t="chat_mute", player_id="nobody\x00")
        await expect_error(ana, t="chat_mute", player_id="bia", on="yes")
        # chat_report
        await expect_error(ana, t="chat_report", no=0)
        await expect_error(ana, t="chat_report", no="1")
        await expect_error(ana, t="chat_report", no=no + 50)
        await expect_error(ana, t="chat_report", no=no, reason="r" * 201)
        await expect_error(ana, t="chat_report", no=no, reason="a\x1bb")
        await expect_error(bia, t="chat_report", no=no)  # one's own message
        # chat_setting
        await expect_error(ana, t="chat_setting", mode="")
        await expect_error(ana, t="chat_setting", mode="LOUD")
        await expect_error(ana, t="chat_setting", mode="off\n")
        await expect_error(bia, t="chat_setting", mode="off")  # not the host
        assert chat_state(room) == before
        # flooding, sent all at once: this server's clock runs SPEED times faster, so the
        # window is short here (the manual-clock test pins the exact limit); whatever is
        # refused is the rate limit and goes nowhere
        kept = len(room.chat.moderation.kept)
        ids = [await ana.send("chat", text="flood") for _ in range(40)]
        answers = [await ana.until(lambda f, i=i: f.get("id") == i) for i in ids]
        refused = [a for a in answers if a["t"] == "error"]
        assert refused and {a["code"] for a in refused} == {"chat_rate_limited"}
        assert len(room.chat.moderation.kept) == kept + len(answers) - len(refused)
        for client in (ana, bia, anon):
            await client.close()
        return codes

    codes = asyncio.run(scenario())
    assert codes[:28] == [
        "malformed",
        "malformed",
        "chat_empty",
        "chat_empty",
        "chat_control_chars",
        "chat_control_chars",
        "malformed",
        "malformed",
        "malformed",
        "chat_unknown_preset",
        "chat_malformed",
        "malformed",
        "not_signed_in",
        "malformed",
        "malformed",
        "chat_mute_self",
        "chat_unknown_player",
        "malformed",
        "malformed",
        "malformed",
        "chat_unknown_message",
        "malformed",
        "chat_control_chars",
        "chat_report_self",
        "malformed",
        "malformed",
        "malformed",
        "not_host",
    ]
    assert len(codes) == 28


def test_sit_out_and_time_bank_bad_frames_get_errors_and_change_nothing(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    response = httpx.post(
        f"http://{address}/api/rooms",
        json={"name": "bank"},  # no deadline: no clock moves the table during the test
        headers={"x-player": "ana"},
    )
    room_id = response.json()["id"]
    room = app.state.room_registry.get(room_id).room

    def state() -> tuple[Any, ...]:
        return (
            room.broadcast.seq,
            [(s, o.sitting_out) for s, o in room.seats.items()],
            room.time_banks.running,
            dict(room.time_banks._left),
        )

    async def scenario() -> list[str]:
        ana, bia = Client(address, room_id, "ana", 0), Client(address, room_id, "bia", 1)
        caio = Client(address, room_id, "caio", 2)  # a spectator
        for client in (ana, bia, caio):
            await client.open()
            await client.recv()
        for client, seat in ((ana, 0), (bia, 1)):
            sit = await client.send("sit", seat=seat)
            await client.until(lambda f, sit=sit: f.get("id") == sit)
        await ana.send("start")
        frame = await ana.until(lambda f: f["t"] == "hand" and f["view"]["to_act"] is not None)
        mover, waiter = (ana, bia) if frame["view"]["to_act"] == 0 else (bia, ana)
        before = state()
        codes: list[str] = []

        async def expect_error(client: Client, raw: str | None = None, **frame: Any) -> None:
            codes.append(await error_code(client, raw, **frame))

        big = json.dumps({"t": "sit_out", "id": "x", "on": True, "pad": "x" * 5000})
        await expect_error(ana, raw=big)  # oversized
        await expect_error(ana, raw=json.dumps({"t": "sit_out", "id": ""}))  # empty id
        await expect_error(ana, raw=json.dumps({"t": "time_bank", "id": "t", "on": "\x00"}))
        await expect_error(ana, raw=json.dumps({"t": "sit_out", "id": "s", "on": "\x07"}))
        await expect_error(ana, t="sit_out", on=1)  # not a flag
        await expect_error(ana, t="time_bank", seconds=60)  # no such field
        await expect_error(caio, t="sit_out")  # no seat
        await expect_error(caio, t="time_bank")  # not in the hand
        for _ in range(20):  # flooding the button out of turn
            await expect_error(waiter, t="time_bank")
        for _ in range(5):  # and in turn, where this table has no bank
            await expect_error(mover, t="time_bank")
        assert state() == before
        for client in (ana, bia, caio):
            await client.close()
        return codes

    codes = asyncio.run(scenario())
    assert (
        codes
        == [
            "malformed",
            "malformed",
            "malformed",
            "malformed",
            "malformed",
            "malformed",
            "not_seated",
            "no_hand",
        ]
        + ["out_of_turn"] * 20
        + ["no_time_bank"] * 5
    )


def test_wait_list_bad_frames_get_errors_and_change_nothing(server: tuple[str, FastAPI]) -> None:
    address, app = server
    response = httpx.post(
        f"http://{address}/api/rooms",
        json={"name": "fila", "seats": 2},
        headers={"x-player": "ana"},
    )
    room_id = response.json()["id"]
    room = app.state.room_registry.get(room_id).room

    async def scenario() -> list[str]:
        ana, caio = Client(address, room_id, "ana", 0), Client(address, room_id, "caio", 1)
        anon = Client(address, room_id, None, 2)
        for client in (ana, caio, anon):
            await client.open()
            await client.recv()
        sit = await ana.send("sit", seat=0)
        await ana.until(lambda f: f.get("id") == sit)
        before = (room.broadcast.seq, room.waitlist.summary())
        codes = [
            await error_code(
                caio, raw=json.dumps({"t": "wait_list", "id": "w", "pad": "x" * 5000})
            ),
            await error_code(caio, raw=json.dumps({"t": "wait_list", "id": ""})),
            await error_code(caio, raw=json.dumps({"t": "wait_list", "id": "w", "on": "\x07"})),
            await error_code(caio, t="wait_list", seat=1),
            await error_code(anon, t="wait_list"),
            await error_code(ana, t="wait_list"),  # seated already
            await error_code(caio, t="wait_list", on=False),  # not on the list
        ]
        for _ in range(20):  # flooding a room with a free seat
            codes.append(await error_code(caio, t="wait_list"))
        assert (room.broadcast.seq, room.waitlist.summary()) == before
        for client in (ana, caio, anon):
            await client.close()
        return codes

    codes = asyncio.run(scenario())
    assert (
        codes
        == [
            "malformed",
            "malformed",
            "malformed",
            "malformed",
            "not_signed_in",
            "seat",
            "not_waiting",
        ]
        + ["seat_free"] * 20
    )
