"""The reveal window never holds a table (R-FD-02): with the rules' two seconds run 300 times
faster (6.7 ms of real time, the window a pace bench once found a table stopped in), one
person's browser commits and never reveals, the other reveals only after the mix is out.
Every hand is dealt all the same: the late reveal is refused with ``fair_closed`` and changes
nothing, the fallback stands in for both, and both are counted as withholds.

(The stop the bench saw was its own: its sockets sent frames 300 times faster than a person
and the server's per-socket allowance closed them, leaving the table without its people;
``bench/load_server.py`` scales that allowance with the clock as the tests' server does.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from rooms_live import build_app
from test_fair_deal_v2_live import KEY, FairClient

from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.registry import RoomRegistry
from live_server import SPEED, serving

HANDS = 12


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    app = build_app()
    app.state.room_registry = RoomRegistry(clock=AsyncioClock(speed=SPEED), signing_key=KEY)
    with serving(app) as port:
        yield f"127.0.0.1:{port}", app


class LateClient(FairClient):
    """Reveals each hand's secret only once that hand's mix was broadcast."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.late: dict[str, int] = {}  # frame id of a late reveal -> its hand number
        self.refused: dict[int, str] = {}  # hand number -> the refusal's code

    async def play(self, stop_kinds: tuple[str, ...] = ("closed", "tournament_over")) -> None:
        while True:
            frame = await self.recv(30)
            kind = frame["t"]
            if kind in stop_kinds:
                return
            if kind == "error" and frame.get("id") in self.late:
                self.refused[self.late.pop(frame["id"])] = frame["code"]
            elif kind == "room":
                await self.maybe_reenter(frame["room"])
            elif kind == "commitment":
                self.hands[frame["hand_no"]] = {"frame": frame, "mix": None}
                await self.commit_for(frame["hand_no"] + 1)
            elif kind == "fair_mix" and frame["hand_no"] in self.hands:
                hand_no = frame["hand_no"]
                self.hands[hand_no]["mix"] = frame
                secret = self.secrets[hand_no].hex()
                self.late[await self.send("fair_reveal", hand_no=hand_no, secret=secret)] = hand_no
            elif kind == "hand":
                view, legal = frame["view"], frame["view"].get("legal")
                if legal is not None and view["to_act"] == view["viewer"]:
                    await self.send("act", hand_no=frame["hand_no"], **self.choose(view, legal))


def test_R_FD_02_late_and_missing_reveals_never_stop_the_table(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    created = httpx.post(
        f"http://{address}/api/rooms",
        json={"name": "janela", "limit_hands": HANDS},
        headers={"x-player": "cai"},
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["id"]
    room = app.state.room_registry.get(room_id).room
    assert room.config.timing.commitment_display_s == 2.0  # the rules' window, sped up

    async def game() -> tuple[LateClient, FairClient]:
        late = LateClient(address, room_id, "cai", 0, seat=0)
        silent = FairClient(address, room_id, "duda", 1, seat=1)
        silent.withhold = set(range(1, HANDS + 1))  # commits every hand, reveals none
        for person in (late, silent):
            await person.open()
            sit = await person.send("sit", seat=person.seat)
            await person.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
            await person.commit_for(1)
        await late.send("add_bot", level="random")
        await late.send("start")
        await asyncio.gather(late.play(), silent.play())
        for person in (late, silent):
            await person.close()
        return late, silent

    late, silent = asyncio.run(game())
    assert room.dealer.hands_dealt == HANDS
    mixed = [n for n, h in late.hands.items() if h["mix"] is not None]
    assert len(mixed) >= HANDS - 2  # a bust-out's hand aside, every hand was shaped
    for hand_no in mixed:
        reveals = {seat: kind for seat, kind, _ in late.hands[hand_no]["mix"]["reveals"]}
        assert reveals[late.seat] == reveals.get(silent.seat, "fallback") == "fallback"
    assert set(late.refused.values()) == {"fair_closed"}
    assert len(late.refused) == len(mixed)  # every late reveal refused, none taken
    assert room.seat_secrets.withholds["cai"] == len(mixed)
    assert room.seat_secrets.withholds["duda"] >= len(mixed) - 2
