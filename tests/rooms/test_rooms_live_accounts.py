"""R-RM-01/R-RM-03 with real accounts: two people sign up and log in over HTTP, one hosts a
recreational hold'em table with two bots, and both play 50 hands over real WebSockets
(session cookie, same-site Origin) against the real application on a loopback port, the
room clocks 2000 times faster. Their "my hands" lists then hold every hand they were dealt
(R-RM-18)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import websockets
from fastapi import FastAPI
from rooms_live import Client

from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE
from live_server import create_account

HANDS = 50


class Account:
    """A person's browser: HTTP with the session cookie and the CSRF header."""

    def __init__(self, address: str, username: str) -> None:
        self.address = address
        self.username = username
        self.http = httpx.Client(base_url=f"http://{address}", headers={CSRF_HEADER: "1"})
        self.user_id = ""

    def sign_up_and_log_in(self) -> None:
        credentials = {"username": self.username, "password": "a long pass phrase"}
        create_account(f"http://{self.address}", self.username, credentials["password"])
        logged_in = self.http.post("/api/session", json=credentials)
        assert logged_in.status_code == 200, logged_in.text
        self.user_id = str(logged_in.json()["id"])
        assert self.http.cookies.get(SESSION_COOKIE)

    @property
    def cookie(self) -> str:
        return f"{SESSION_COOKIE}={self.http.cookies[SESSION_COOKIE]}"

    def my_hands(self) -> list[dict[str, Any]]:
        body = self.http.get("/api/hands", params={"per_page": 100}).json()
        assert body["total"] == len(body["hands"])
        found: list[dict[str, Any]] = body["hands"]
        return found


class AccountClient(Client):
    """The table socket of a signed-in account, opened as the site's own page would."""

    def __init__(self, account: Account, room_id: str, seed: int) -> None:
        super().__init__(account.address, room_id, account.user_id, seed)
        self.headers = {"Cookie": account.cookie, "Origin": f"http://{account.address}"}

    async def open(self) -> None:
        self.ws = await websockets.connect(self.url, additional_headers=self.headers)

    def dealt_hands(self) -> set[int]:
        """Hand numbers whose deal included this client's seat."""
        return {
            f["hand_no"]
            for f in self.frames
            if f["t"] == "hand"
            for e in f["events"]
            if e["kind"] == "hand_started" and self.seat in e["dealt_seats"]
        }


def hands_conserve_chips(frames: list[dict[str, Any]]) -> int:
    """Every finished hand ends with the chips it started with; returns how many ended."""
    started: dict[int, int] = {}
    ended = 0
    for frame in frames:
        if frame["t"] != "hand":
            continue
        for event in frame["events"]:
            if event["kind"] == "hand_started":
                started[frame["hand_no"]] = sum(event["stacks"])
            elif event["kind"] == "hand_ended":
                assert sum(event["stacks"].values()) == started[frame["hand_no"]]
                ended += 1
    return ended


def test_R_RM_01_R_RM_18_two_accounts_play_50_holdem_hands_and_list_them(
    account_server: tuple[str, FastAPI],
) -> None:
    address, app = account_server
    ana, bia = Account(address, "ana"), Account(address, "bia")
    for account in (ana, bia):
        account.sign_up_and_log_in()
    created = ana.http.post("/api/rooms", json={"name": "contas reais", "limit_hands": HANDS})
    assert created.status_code == 201, created.text
    room_id = created.json()["id"]
    assert created.json()["host_id"] == ana.user_id

    async def game() -> tuple[AccountClient, AccountClient]:
        clients = (AccountClient(ana, room_id, 1), AccountClient(bia, room_id, 2))
        for seat, client in enumerate(clients):
            await client.open()
            snapshot = await client.recv()
            assert snapshot["t"] == "snapshot"
            assert snapshot["you"]["player_id"] == client.pid
            sit = await client.send("sit", seat=seat)
            await client.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
            client.seat = seat
        host = clients[0]
        for level in ("random", "easy"):
            added = await host.send("add_bot", level=level)
            await host.until(lambda f, added=added: f.get("id") == added and f["t"] == "ack")
        started = await host.send("start")
        await host.until(lambda f: f.get("id") == started and f["t"] == "ack")
        await asyncio.gather(*(client.play() for client in clients))
        for client in clients:
            await client.close()
        return clients

    ana_client, bia_client = asyncio.run(asyncio.wait_for(game(), 50))
    room = app.state.room_registry.get(room_id).room
    assert room.dealer.hands_dealt == HANDS
    for client in (ana_client, bia_client):
        closed = client.frames[-1]
        assert closed["t"] == "closed" and closed["reason"] == "limit"
        assert sum(closed["stacks"].values()) == room.chips_in - room.chips_out
        assert hands_conserve_chips(client.frames) == HANDS
    held = sum(occupant.stack for _, occupant in room.seats.items())
    assert room.chips_in == held + room.chips_out

    for account, client in ((ana, ana_client), (bia, bia_client)):
        dealt = client.dealt_hands()
        assert len(dealt) >= HANDS // 2
        listed = account.my_hands()
        assert {h["hand_no"] for h in listed} == dealt
        assert {(h["room_id"], h["seat"], h["room_kind"]) for h in listed} == {
            (room_id, client.seat, "recreational")
        }
