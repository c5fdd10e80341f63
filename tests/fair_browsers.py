"""A table's browsers doing what ``web/js/fairseed.js`` does for pokerfair/2, over a real
table socket: commit a secret for the next hand during each one (and at sit-down), reveal it
when the hand's commitment frame lists it; a withholding browser commits and never reveals.
They check when they may and fold otherwise, so nobody busts out in a few hands."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import websockets

from ahiko.fairness.contribution import seat_commitment


class Browser:
    """A seated person's table socket doing what web/js/fairseed.js does, except that a
    withholding one never sends its reveals."""

    def __init__(self, ws: Any, room_id: str, seat: int, reveals: bool) -> None:
        self.ws, self.room_id, self.seat, self.reveals = ws, room_id, seat, reveals
        self.secrets: dict[int, bytes] = {}
        self.mixes: dict[int, dict[str, Any]] = {}  # hand number -> its fair_mix frame
        self.sent = 0

    async def send(self, t: str, **fields: Any) -> None:
        self.sent += 1
        await self.ws.send(json.dumps({"t": t, "id": f"{self.seat}-{self.sent}", **fields}))

    async def commit_for(self, hand_no: int) -> None:
        secret = self.secrets.setdefault(hand_no, secrets.token_bytes(32))
        commitment = seat_commitment(self.room_id, hand_no, self.seat, secret)
        await self.send("fair_commit", hand_no=hand_no, commitment=commitment.hex())

    async def play(self) -> None:
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            kind = frame["t"]
            if kind == "closed":
                return
            if kind == "commitment":
                hand_no = frame["hand_no"]
                listed = [s for s, _ in (frame.get("contributors") or {}).get("seats", [])]
                if self.reveals and self.seat in listed:
                    await self.send(
                        "fair_reveal", hand_no=hand_no, secret=self.secrets[hand_no].hex()
                    )
                await self.commit_for(hand_no + 1)
            elif kind == "fair_mix":
                self.mixes[frame["hand_no"]] = frame
            elif kind == "hand":
                view, legal = frame["view"], frame["view"].get("legal")
                if legal is not None and view["to_act"] == view["viewer"]:
                    # never a chip more than the blinds: nobody busts out in HANDS hands
                    action = "check" if legal["can_check"] else "fold"
                    await self.send("act", hand_no=frame["hand_no"], action=action)

    def fallbacks(self) -> int:
        """The hands whose mix replaced this seat's secret by its fallback."""
        return sum(
            1
            for mix in self.mixes.values()
            for seat, kind, _ in mix["reveals"]
            if seat == self.seat and kind == "fallback"
        )


async def play_table(base: str, cookies: dict[str, str], room_id: str) -> list[Browser]:
    """``ana`` (seat 0, reveals) and ``bia`` (seat 1, withholds) and a bot play until the
    room closes; their browsers."""
    url = f"ws://{base.removeprefix('http://')}/ws/rooms/{room_id}"
    people = []
    for seat, (name, reveals) in enumerate((("ana", True), ("bia", False))):
        cookie = {"Cookie": f"ahiko_session={cookies[name]}"}
        ws = await websockets.connect(url, additional_headers=cookie)
        browser = Browser(ws, room_id, seat, reveals)
        await browser.send("sit", seat=seat)
        while json.loads(await ws.recv())["t"] != "ack":
            pass
        await browser.commit_for(1)  # at sit-down: the secret for the first hand
        people.append(browser)
    await people[0].send("add_bot", level="random")
    await people[0].send("start")
    try:
        await asyncio.gather(*(p.play() for p in people))
    finally:
        for person in people:
            await person.ws.close()
    return people
