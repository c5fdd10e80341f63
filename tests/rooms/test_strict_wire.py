"""Chip amounts and seats on the wire are JSON integers (R-HE-07, R-RM-12): the HTTP bodies
and the WebSocket frames are validated strictly, so ``"150"``, ``150.0`` and ``true`` are not
amounts or seats. Each is refused with a clear error and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from test_room_kinds import answer, balance, registry, sign_up

from ahiko.server.protocol import CLIENT_FRAME

NOT_INTEGERS = ["150", 150.0, True]


@pytest.mark.parametrize("value", NOT_INTEGERS)
@pytest.mark.parametrize(
    ("frame", "field"),
    [
        ({"t": "act", "id": "a", "hand_no": 1, "action": "raise"}, "amount"),
        ({"t": "act", "id": "a", "action": "call", "amount": 0}, "hand_no"),
        ({"t": "act", "id": "a", "hand_no": 1, "action": "call"}, "seat"),
        ({"t": "sit", "id": "a"}, "seat"),
        ({"t": "buy_in", "id": "a", "seat": 1, "key": "k"}, "amount"),
        ({"t": "buy_in", "id": "a", "amount": 150, "key": "k"}, "seat"),
        ({"t": "reload", "id": "a", "key": "k"}, "amount"),
        ({"t": "remove_bot", "id": "a"}, "seat"),
        ({"t": "host_change", "id": "a"}, "big_blind"),
        ({"t": "host_chips", "id": "a", "seat": 1}, "amount"),
        ({"t": "host_chips", "id": "a", "amount": 150}, "seat"),
        ({"t": "remove_player", "id": "a"}, "seat"),
    ],
)
def test_R_HE_07_ws_frames_take_amounts_and_seats_as_json_integers_only(
    frame: dict[str, Any], field: str, value: Any
) -> None:
    good = {**frame, field: 150 if field == "amount" else 1}
    CLIENT_FRAME.validate_python(good)  # the same frame with an integer is fine
    with pytest.raises(ValidationError) as err:
        CLIENT_FRAME.validate_python({**frame, field: value})
    assert field in str(err.value) and "valid integer" in str(err.value)


def test_R_HE_06_ws_action_kinds_are_names_and_flags_are_booleans() -> None:
    frame = {"t": "act", "id": "a", "hand_no": 1, "action": "call"}
    assert CLIENT_FRAME.validate_python(frame).action.value == "call"  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        CLIENT_FRAME.validate_python({**frame, "action": "shove"})
    with pytest.raises(ValidationError):
        CLIENT_FRAME.validate_python({"t": "leave_after_hand", "id": "a", "on": 1})


def test_R_RM_12_http_and_ws_refuse_string_float_and_boolean_amounts_and_seats(
    client: TestClient,
) -> None:
    sign_up(client, "dora")
    before = len(registry(client).actors())
    for field in ("starting_chips", "small_blind", "seats", "limit_hands"):
        for value in NOT_INTEGERS:
            refused = client.post("/api/rooms", json={"name": "estrita", field: value})
            assert refused.status_code == 422, (field, value)
            assert refused.json()["error"] == "invalid_request"
            assert field in refused.json()["message"]
    assert len(registry(client).actors()) == before  # nothing was created
    room = next(r for r in client.get("/api/rooms").json() if r["tier"] == "iniciante")
    start = balance(client)
    for body in (
        {"seat": 1, "amount": "150", "key": "k1"},
        {"seat": 1, "amount": 150.0, "key": "k2"},
        {"seat": True, "amount": 150, "key": "k3"},
        {"seat": "1", "amount": 150, "key": "k4"},
    ):
        refused = client.post(f"/api/ahiko/rooms/{room['id']}/buy_in", json=body)
        assert refused.status_code == 422, (body, refused.text)
    with client.websocket_connect(f"/ws/rooms/{room['id']}") as socket:
        assert socket.receive_json()["t"] == "snapshot"
        for k, (seat, amount) in enumerate([(1, "150"), (1, 150.0), (True, 150), ("1", 150)]):
            frame_id = f"b{k}"
            socket.send_json(
                {"t": "buy_in", "id": frame_id, "seat": seat, "amount": amount, "key": frame_id}
            )
            refused = answer(socket, frame_id)
            assert refused["t"] == "error" and refused["code"] == "malformed", refused
    assert balance(client) == start  # no coin moved
    seats = client.get(f"/api/rooms/{room['id']}").json()["seats"]
    assert all(s["seat"] != 1 or s.get("player") is None for s in seats)
