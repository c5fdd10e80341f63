"""The same request twice at once is applied once; the Ahiko routes and frames through the
real application, authenticated by the session cookie (R-RM-10, R-RM-12, R-RM-13)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ahiko_helpers import Ahiko, to_hand
from fastapi.testclient import TestClient

from ahiko.rooms import commands as c
from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT


def test_R_RM_12_the_same_buy_in_sent_twice_at_once_is_applied_once(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    actor = ahiko.registry.get(room.room_id)
    assert actor is not None
    ana = ahiko.person("ana")
    command = c.BuyIn(ana, "Ana", 1, 180, "same-key")

    async def twice() -> list[c.Reply]:
        replies = await asyncio.gather(actor.ask(command), actor.ask(command))
        await actor.stop()
        return list(replies)

    replies = asyncio.run(twice())
    assert all(r.ok for r in replies)
    assert sorted(r.data["applied"] for r in replies) == [False, True]
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT - 180
    ahiko.check()


def test_R_RM_13_the_same_reload_sent_twice_at_once_is_applied_once(ahiko: Ahiko) -> None:
    room = ahiko.room("alta")
    actor = ahiko.registry.get(room.room_id)
    assert actor is not None
    ana = ahiko.person("ana")
    assert ahiko.sit(room, ana, 0, 1000).ok
    command = c.Reload(ana, 500, "reload-key")

    async def twice() -> list[c.Reply]:
        replies = await asyncio.gather(actor.ask(command), actor.ask(command))
        await actor.stop()
        return list(replies)

    replies = asyncio.run(twice())
    assert sorted(r.data["applied"] for r in replies) == [False, True]
    assert room.seats.get(0).stack == 1500  # type: ignore[union-attr]
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT - 1500
    ahiko.check()


def test_R_RM_13_a_reload_during_a_hand_is_refused_with_a_clear_message(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, 100).ok and ahiko.sit(room, bia, 1, 100).ok
    to_hand(ahiko, room)
    reply = room.submit(c.Reload(ana, 50, "during"))
    assert not reply.ok and (reply.code, reply.rule) == ("in_hand", "R-RM-13")
    assert reply.message.startswith("reloads happen between hands")
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT - 100


def _sign_up(client: TestClient, name: str) -> dict[str, Any]:
    response = client.post("/api/accounts", json={"username": name, "password": "correct horse"})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_R_RM_10_the_server_opens_two_ahiko_rooms_per_tier_at_start(client: TestClient) -> None:
    rooms = client.get("/api/ahiko/rooms").json()
    by_tier: dict[str, int] = {}
    for room in rooms:
        by_tier[room["tier"]] = by_tier.get(room["tier"], 0) + 1
        assert room["kind"] == "ahiko" and room["seats_total"] == 8 and room["people"] == 0
    assert by_tier == {"iniciante": 2, "classica": 2, "alta": 2}
    tiers = client.get("/api/ahiko/tiers").json()
    assert [(t["buy_in_min"], t["buy_in_max"]) for t in tiers] == [
        (100, 200),
        (500, 1000),
        (1000, 2000),
    ]


def test_R_RM_12_buy_in_over_http_twice_at_once_is_applied_once(client: TestClient) -> None:
    _sign_up(client, "ana")
    room = next(r for r in client.get("/api/ahiko/rooms").json() if r["tier"] == "classica")
    url = f"/api/ahiko/rooms/{room['id']}/buy_in"
    body = {"seat": 3, "amount": 800, "key": "confirm-1"}
    with ThreadPoolExecutor(2) as pool:
        responses = list(pool.map(lambda _: client.post(url, json=body), range(2)))
    assert [r.status_code for r in responses] == [200, 200]
    assert sorted(r.json()["applied"] for r in responses) == [False, True]
    assert client.get("/api/wallet").json()["balance"] == SIGNUP_GRANT - 800
    refused = client.post(url, json={"seat": 4, "amount": 300, "key": "confirm-2"})
    assert refused.status_code == 409 and refused.json()["error"] == "amount_out_of_range"
    assert client.post(f"/api/ahiko/rooms/{room['id']}/leave", json={}).status_code == 200
    stays = client.get("/api/ahiko/participations").json()
    assert stays[0]["entry"] == 800 and stays[0]["exit"] == 800 and stays[0]["net"] == 0
    assert client.get("/api/wallet").json()["balance"] == SIGNUP_GRANT
    assert check_ledger(client.app.state.services.engine) == []  # type: ignore[attr-defined]


def test_R_RM_13_reload_and_leave_after_hand_over_the_table_socket(client: TestClient) -> None:
    _sign_up(client, "ana")
    room = next(r for r in client.get("/api/ahiko/rooms").json() if r["tier"] == "iniciante")
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as socket:
        assert socket.receive_json()["t"] == "snapshot"
        socket.send_json({"t": "sit", "id": "s0", "seat": 2})
        frame = _answer(socket, "s0")
        assert frame["t"] == "error" and frame["code"] == "buy_in_required"
        socket.send_json({"t": "buy_in", "id": "s1", "seat": 2, "amount": 100, "key": "b1"})
        assert _answer(socket, "s1")["data"]["amount"] == 100
        socket.send_json({"t": "reload", "id": "r1", "amount": 150, "key": "r1"})
        frame = _answer(socket, "r1")
        assert frame["t"] == "error" and frame["rule"] == "R-RM-13"
        socket.send_json({"t": "reload", "id": "r2", "amount": 100, "key": "r2"})
        assert _answer(socket, "r2")["data"]["stack"] == 200
        socket.send_json({"t": "leave_after_hand", "id": "l1"})
        assert _answer(socket, "l1")["data"]["after_hand"] is False  # no hand: at once
    assert client.get("/api/wallet").json()["balance"] == SIGNUP_GRANT


def _answer(socket: Any, frame_id: str) -> dict[str, Any]:
    for _ in range(50):
        frame: dict[str, Any] = socket.receive_json()
        if frame.get("id") == frame_id:
            return frame
    raise AssertionError(f"no answer to {frame_id}")
