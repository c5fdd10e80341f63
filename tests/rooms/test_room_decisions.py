"""The decisions (D lines) this round made about rooms: the host is seated to start
(R-RM-03 D), draw rooms are configured by their host (R-DR-04 D, R-DR-09 D) and a
tournament always has an action deadline (R-TN-06 D)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from rooms_helpers import Table, draw_config, holdem_config
from test_room_kinds import registry, sign_up

from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.config import RoomKind
from ahiko.rooms.status import RoomStatus
from ahiko.rooms.timebank import TIME_BANK_S


def test_R_RM_03_D_the_host_must_be_seated_to_start() -> None:
    """A host who is not at the table cannot start a game between a person and a bot."""
    t = Table(holdem_config(seats=4))
    t.connect("host")
    t.join("ana", 0)
    t.ok(c.AddBot("host", "random", seat=1))
    refused = t.submit(c.Start("host"))
    assert not refused.ok and refused.code == "host_not_seated" and refused.rule == "R-RM-03"
    assert t.room.status is RoomStatus.WAITING and t.room.dealer.hand is None
    t.ok(c.Sit("host", "Host", 2))
    t.ok(c.Start("host"))
    assert t.room.status is RoomStatus.RUNNING


def test_R_TN_06_D_a_tournament_always_has_an_action_deadline() -> None:
    """Default 20 s; the host may change it, not remove it (no deadline given = 20 s)."""
    default = holdem_config(kind=RoomKind.TOURNAMENT)
    assert default.action_deadline_s == 20.0
    changed = holdem_config(kind=RoomKind.TOURNAMENT, action_deadline_s=45.0)
    assert changed.action_deadline_s == 45.0
    assert holdem_config().action_deadline_s is None  # a recreational room may have none
    t = Table(default)
    for pid, seat in (("host", 0), ("bia", 1), ("caio", 2)):
        t.join(pid, seat)
    t.ok(c.Start("host"))
    t.to_deal()
    hand = t.room.dealer.hand
    deadline = t.room.turns.deadline()
    assert hand is not None and deadline is not None
    assert (deadline["seat"], deadline["seconds_left"]) == (hand.to_act, 20.0)
    staller = hand.to_act
    t.advance(20)  # the deadline, then the tournament's fixed time bank (issue 19) ...
    assert deadline["time_bank"] == TIME_BANK_S
    t.advance(TIME_BANK_S)  # ... and one connected player cannot stall it for ever
    assert hand.to_act != staller


def test_R_TN_06_D_tournament_over_http_gets_20_seconds_and_keeps_a_changed_deadline(
    client: TestClient,
) -> None:
    sign_up(client, "tina")
    made = client.post("/api/rooms", json={"name": "torneio", "kind": "tournament"})
    assert made.status_code == 201 and made.json()["action_deadline_s"] == 20.0
    changed = client.post(
        "/api/rooms", json={"name": "torneio 2", "kind": "tournament", "action_deadline_s": 30}
    )
    assert changed.json()["action_deadline_s"] == 30.0
    removed = client.post(
        "/api/rooms", json={"name": "torneio 3", "kind": "tournament", "action_deadline_s": None}
    )
    assert removed.json()["action_deadline_s"] == 20.0  # cannot be removed


def test_R_DR_04_D_R_DR_09_D_a_draw_room_is_configured_by_its_host(client: TestClient) -> None:
    sign_up(client, "dario")
    default = client.post("/api/rooms", json={"name": "draw", "variant": "draw"})
    assert default.status_code == 201, default.text  # no seat count: the draw maximum
    room = default.json()
    assert room["seats_total"] == 6
    assert room["blinds"]["small_bet"] == 10 and room["blinds"]["big_bet"] == 20  # 2x
    assert room["blinds"]["raise_cap"] == 4  # a bet and 3 raises
    assert room["limit_hands"] == 100
    body = {
        "name": "draw do host",
        "variant": "draw",
        "seats": 4,
        "ante": 2,
        "small_bet": 6,
        "big_bet": 15,
        "raise_cap": 3,
        "limit_hands": "no_limit",
    }
    custom = client.post("/api/rooms", json=body).json()
    assert custom["seats_total"] == 4 and custom["limit_hands"] is None
    assert {k: custom["blinds"][k] for k in ("ante", "small_bet", "big_bet", "raise_cap")} == {
        "ante": 2,
        "small_bet": 6,
        "big_bet": 15,
        "raise_cap": 3,
    }
    config = registry(client).get(custom["id"]).room.config  # type: ignore[union-attr]
    draw = config.schedule.base.draw_config()
    assert (draw.small_bet, draw.big_bet, draw.raise_cap) == (6, 15, 3)
    assert client.post("/api/rooms", json={**body, "raise_cap": 0}).status_code == 422
    assert client.post("/api/rooms", json={**body, "seats": 7}).status_code == 422
    holdem = client.post("/api/rooms", json={"name": "nlhe"}).json()
    assert holdem["seats_total"] == 8 and holdem["limit_hands"] is None


def test_R_DR_04_D_the_hosts_big_bet_and_cap_are_what_the_hand_plays() -> None:
    t = Table(
        draw_config(schedule=BlindSchedule(Stakes(ante=1, small_bet=5, big_bet=12, raise_cap=2)))
    )
    for pid, seat in (("host", 0), ("bia", 1), ("caio", 2)):
        t.join(pid, seat)
    t.ok(c.Start("host"))
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None
    assert hand.hand.stakes() == {"ante": 1, "small_bet": 5, "big_bet": 12, "raise_cap": 2}
