"""Report item 1 on the server: "Sair após esta mão" at an Ahiko table, then sitting down
again at once. A real account plays against the Bot Ahiko over the real HTTP routes and table
WebSocket (the room clocks 300 times faster). After the hand the player is paid out and
every frame says they have no seat; the finished hand still names who played it (C-NAMES);
the routes for a seat answer ``not_seated`` with a message for people (no ids, no rule ids);
a new buy-in to the same room is accepted right away and deals them into the next hand."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import websockets
from fastapi import FastAPI

from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_NAME
from ahiko.rooms.timing import LIVE_TIMING
from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE
from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT

RULE_ID = re.compile(r"R-[A-Z]{2}-\d")


class Player:
    """A signed-in browser: HTTP with the session cookie, and the table socket."""

    def __init__(self, address: str, room_id: str) -> None:
        self.address = address
        self.room_id = room_id
        self.http = httpx.AsyncClient(base_url=f"http://{address}", headers={CSRF_HEADER: "1"})
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.user_id = ""
        self._ids = 0

    async def sign_up(self, name: str) -> None:
        response = await self.http.post(
            "/api/accounts", json={"username": name, "password": "a long pass phrase"}
        )
        assert response.status_code == 201, response.text
        self.user_id = str(response.json()["id"])

    async def open(self) -> None:
        headers = {
            "Cookie": f"{SESSION_COOKIE}={self.http.cookies[SESSION_COOKIE]}",
            "Origin": f"http://{self.address}",
        }
        self.ws = await websockets.connect(
            f"ws://{self.address}/ws/rooms/{self.room_id}", additional_headers=headers
        )

    async def post(self, route: str, body: dict[str, Any]) -> httpx.Response:
        return await self.http.post(f"/api/ahiko/rooms/{self.room_id}/{route}", json=body)

    async def send(self, t: str, **fields: Any) -> str:
        self._ids += 1
        frame_id = f"f{self._ids}"
        await self.ws.send(json.dumps({"t": t, "id": frame_id, **fields}))
        return frame_id

    async def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        self.frames.append(frame)
        return frame

    async def until(self, predicate: Any, play: bool = True) -> dict[str, Any]:
        """Frames until ``predicate``; meanwhile our turns are played (check or call)."""
        for _ in range(5000):
            frame = await self.recv()
            if predicate(frame):
                return frame
            if play and frame["t"] == "hand":
                view = frame["view"]
                legal = view.get("legal")
                if legal is not None and view["to_act"] == view["viewer"]:
                    action = "check" if legal["can_check"] else "call"
                    await self.send("act", hand_no=frame["hand_no"], action=action)
        raise AssertionError("the frame never came")

    async def snapshot(self) -> dict[str, Any]:
        await self.send("snapshot")
        return await self.until(lambda f: f["t"] == "snapshot", play=False)


def mine(room: dict[str, Any], user_id: str) -> list[dict[str, Any]]:
    """The seats and reservations of ``user_id`` in a ``room`` summary."""
    return [s for s in room["seats"] + room["reserved"] if s["player_id"] == user_id]


def for_people(body: dict[str, Any], *ids: str) -> str:
    message = str(body["message"])
    assert message and not RULE_ID.search(message), message
    assert not re.search(r"\d", message), message  # no player id (account ids are numbers)
    for internal in ids:
        assert internal not in message, message
    return message


def test_R_RM_14_leave_after_the_hand_frees_the_seat_and_the_player_may_sit_again_at_once(
    account_server: tuple[str, FastAPI],
) -> None:
    address, app = account_server
    assert app.state.ahiko_lobby.timing is LIVE_TIMING  # the Bot Ahiko pauses like people
    rooms = httpx.get(f"http://{address}/api/ahiko/rooms").json()
    lobby_room = next(r for r in rooms if r["tier"] == "iniciante")
    room_id = lobby_room["id"]
    assert lobby_room["avg_pot"] is None  # no hand yet

    async def scenario() -> int:
        ana = Player(address, room_id)
        await ana.sign_up("ana")
        await ana.open()
        first = await ana.recv()
        assert first["t"] == "snapshot" and first["you"]["seat"] is None
        bought = await ana.post("buy_in", {"seat": 0, "amount": 150, "key": "first"})
        assert bought.status_code == 200, bought.text

        # The Bot Ahiko comes; a hand is dealt to ana; she asks to leave after it.
        dealt = await ana.until(
            lambda f: f["t"] == "hand" and f["view"].get("viewer") == 0, play=False
        )
        hand_no = dealt["hand_no"]
        assert dealt["names"]["0"] == "ana" and BOT_AHIKO_NAME in dealt["names"].values()
        names = dict(dealt["names"])
        leaving = await ana.post("leave", {"after_hand": True})
        assert leaving.status_code == 200 and leaving.json()["after_hand"] is True
        paid = await ana.until(lambda f: f["t"] == "wallet")
        assert paid["event"] == "cash_out" and paid["amount"] >= 0

        # Every frame from now on says she has no seat.
        room = await ana.until(lambda f: f["t"] == "room" and not mine(f["room"], ana.user_id))
        assert room["room"]["hand_no"] is None
        snapshot = await ana.snapshot()
        assert snapshot["you"]["seat"] is None and not mine(snapshot["room"], ana.user_id)
        assert snapshot["hand"] is None
        last = snapshot["last_hand"]  # the hand she played, until the next one: names kept
        assert last["hand_no"] == hand_no and last["names"] == names
        assert snapshot["room"]["avg_pot"] is not None and snapshot["room"]["avg_pot"] > 0

        # The routes for a seat answer not_seated, for people to read.
        for route, body in (
            ("leave", {}),
            ("leave", {"after_hand": True}),
            ("reload", {"amount": 10, "key": "r"}),
        ):
            refused = await ana.post(route, body)
            assert refused.status_code == 404, refused.text
            assert refused.json()["error"] == "not_seated"
            assert for_people(refused.json(), room_id) == "you have no seat in this room"
        leave_id = await ana.send("leave")
        error = await ana.until(lambda f: f.get("id") == leave_id, play=False)
        assert error["t"] == "error" and error["code"] == "not_seated"
        assert error["rule"] == "R-RM-01"  # the rule travels apart from the message
        for_people(error, room_id)

        # She sits down again right away, at the same seat, and is dealt in again.
        again = await ana.post("buy_in", {"seat": 0, "amount": 150, "key": "second"})
        assert again.status_code == 200, again.text
        assert again.json()["applied"] is True and again.json()["seat"] == 0
        seated = await ana.until(lambda f: f["t"] == "room" and mine(f["room"], ana.user_id))
        assert mine(seated["room"], ana.user_id)[0]["seat"] == 0
        assert (await ana.snapshot())["you"]["seat"] == 0
        dealt_again = await ana.until(
            lambda f: f["t"] == "hand" and f["view"].get("viewer") == 0 and f["hand_no"] > hand_no
        )
        assert dealt_again["names"]["0"] == "ana"
        assert (await ana.post("leave", {})).status_code == 200  # folds, leaves after it
        paid_again = await ana.until(lambda f: f["t"] == "wallet")
        balance = int((await ana.http.get("/api/wallet")).json()["balance"])
        assert balance == SIGNUP_GRANT - 150 + paid["amount"] - 150 + paid_again["amount"]
        await ana.ws.close()
        await ana.http.aclose()
        return balance

    asyncio.run(asyncio.wait_for(scenario(), 60))
    assert check_ledger(app.state.services.engine) == []
    listed = httpx.get(f"http://{address}/api/ahiko/rooms").json()
    assert next(r for r in listed if r["id"] == room_id)["avg_pot"] > 0
