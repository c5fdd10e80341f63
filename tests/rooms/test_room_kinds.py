"""R-RM-02: two kinds of rooms, through the real application — recreational rooms a host
creates for free with chips local to the room, and Ahiko rooms, opened by the server at
start with a tier's fixed blinds, where a seat is paid from the wallet (R-RM-10, R-RM-12)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ahiko.rooms.blinds import BlindIncrease
from ahiko.rooms.registry import RoomRegistry
from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT


def sign_up(client: TestClient, username: str) -> dict[str, Any]:
    response = client.post("/api/accounts", json={"username": username, "password": "pass phrase"})
    assert response.status_code == 201, response.text
    user: dict[str, Any] = response.json()
    return user


def balance(client: TestClient) -> int:
    found: int = client.get("/api/wallet").json()["balance"]
    return found


def registry(client: TestClient) -> RoomRegistry:
    found: RoomRegistry = client.app.state.room_registry  # type: ignore[attr-defined]
    return found


def answer(socket: Any, frame_id: str) -> dict[str, Any]:
    for _ in range(50):
        frame: dict[str, Any] = socket.receive_json()
        if frame.get("id") == frame_id:
            return frame
    raise AssertionError(f"no answer to {frame_id}")


def test_R_RM_02_the_lobby_lists_ahiko_rooms_with_a_tier_and_fixed_blinds(
    client: TestClient,
) -> None:
    tiers = {t["key"]: t for t in client.get("/api/ahiko/tiers").json()}
    listed = client.get("/api/rooms").json()
    ahiko = [room for room in listed if room["kind"] == "ahiko"]
    assert len(ahiko) == len(listed) == 2 * len(tiers)  # nothing else at start
    for room in ahiko:
        tier = tiers[room["tier"]]
        assert (room["blinds"]["small_blind"], room["blinds"]["big_blind"]) == (
            tier["small_blind"],
            tier["big_blind"],
        )
        assert room["host_id"] is None
        actor = registry(client).get(room["id"])
        assert actor is not None
        assert actor.room.config.schedule.increase == BlindIncrease.NEVER


def test_R_RM_02_a_signed_in_user_creates_a_recreational_room_for_free(
    client: TestClient,
) -> None:
    anonymous = client.post("/api/rooms", json={"name": "sem conta"})
    assert anonymous.status_code == 401
    ana = sign_up(client, "ana")
    assert balance(client) == SIGNUP_GRANT
    created = client.post("/api/rooms", json={"name": "mesa da ana", "starting_chips": 3000})
    assert created.status_code == 201, created.text
    room = created.json()
    assert room["kind"] == "recreational" and room["tier"] is None
    assert room["host_id"] == str(ana["id"])
    listed = {r["id"]: r for r in client.get("/api/rooms").json()}
    assert listed[room["id"]]["kind"] == "recreational"
    assert listed[room["id"]]["host_id"] == str(ana["id"])
    assert {r["kind"] for r in listed.values()} == {"ahiko", "recreational"}
    assert balance(client) == SIGNUP_GRANT
    assert client.get("/api/wallet").json()["in_seats"] == 0


def test_R_RM_02_watching_and_sitting_in_a_recreational_room_cost_nothing(
    client: TestClient,
) -> None:
    sign_up(client, "ana")
    room = client.post("/api/rooms", json={"name": "recreio", "starting_chips": 1500}).json()
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as socket:
        snapshot = socket.receive_json()
        assert snapshot["t"] == "snapshot" and snapshot["room"]["kind"] == "recreational"
        assert balance(client) == SIGNUP_GRANT  # watching
        socket.send_json({"t": "sit", "id": "s1", "seat": 4})
        sat = answer(socket, "s1")
        assert sat["t"] == "ack" and sat["data"]["seat"] == 4
    seats = client.get(f"/api/rooms/{room['id']}").json()["seats"]
    assert [s["stack"] for s in seats if s["seat"] == 4] == [1500]  # chips local to the room
    assert balance(client) == SIGNUP_GRANT
    assert client.get("/api/wallet").json()["in_seats"] == 0


def test_R_RM_02_an_ahiko_seat_needs_the_buy_in_from_the_wallet(client: TestClient) -> None:
    sign_up(client, "bia")
    tiers = {t["key"]: t for t in client.get("/api/ahiko/tiers").json()}
    room = next(r for r in client.get("/api/rooms").json() if r["tier"] == "iniciante")
    amount = tiers["iniciante"]["buy_in_max"]
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as socket:
        assert socket.receive_json()["t"] == "snapshot"
        assert balance(client) == SIGNUP_GRANT  # watching is free here too
        socket.send_json({"t": "sit", "id": "s1", "seat": 1})
        refused = answer(socket, "s1")
        assert refused["t"] == "error" and refused["code"] == "buy_in_required"
        assert balance(client) == SIGNUP_GRANT
        socket.send_json({"t": "buy_in", "id": "b1", "seat": 1, "amount": amount, "key": "k1"})
        bought = answer(socket, "b1")
        assert bought["t"] == "ack" and bought["data"]["amount"] == amount
    wallet = client.get("/api/wallet").json()
    assert wallet["balance"] == SIGNUP_GRANT - amount
    assert wallet["in_seats"] == amount
    seats = client.get(f"/api/rooms/{room['id']}").json()["seats"]
    assert [s["stack"] for s in seats if s["seat"] == 1] == [amount]
    assert check_ledger(client.app.state.services.engine) == []  # type: ignore[attr-defined]


def test_R_RM_03_room_settings_out_of_bounds_are_refused_with_a_code(client: TestClient) -> None:
    anonymous = client.post("/api/rooms", json={"name": "sem conta"})
    assert (anonymous.status_code, anonymous.json()["error"]) == (401, "not_signed_in")
    sign_up(client, "caio")
    before = len(registry(client).actors())
    for settings in (
        {"small_blind": 10**20},
        {"starting_chips": 10**8},
        {"limit_hands": 10**9},
        {"blind_increase": "hands", "blind_every": 10**9},
    ):
        refused = client.post("/api/rooms", json={"name": "grande", **settings})
        assert refused.status_code == 422, settings
        assert refused.json()["error"] == "invalid_request"
    no_room = client.post("/api/rooms", json={"name": "x", "small_blind": 20, "big_blind": 10})
    assert no_room.status_code == 422 and no_room.json()["error"] == "invalid_room"
    assert "small <= big" in no_room.json()["message"]
    assert len(registry(client).actors()) == before  # nothing was created
    missing = client.get("/api/rooms/r-nope")
    assert (missing.status_code, missing.json()["error"]) == (404, "no_room")
