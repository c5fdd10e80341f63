"""The MTT routes through the real app (issue 20): the lobby lists the site's scheduled MTT;
registering moves the buy-in into the pool (the same key again changes nothing),
unregistering refunds it; an unknown MTT, double registration, a short wallet, a bad host
request, a non-host's start and signed-out requests are refused with nothing changed; a
host's MTT started by its host answers each player's table."""

from __future__ import annotations

from app_site import balance, sign_up
from fastapi.testclient import TestClient

from ahiko.rooms.blinds import BlindIncrease
from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT


def test_mtt_routes_register_unregister_refuse_and_start(site: TestClient) -> None:
    ana, bia = sign_up(site, "ana"), sign_up(site, "bia")
    engine = site.app.state.services.engine  # type: ignore[attr-defined]
    (scheduled,) = site.get("/api/mtt").json()["mtts"]
    assert scheduled["status"] == "registering" and scheduled["buy_in"] == 0
    assert scheduled["scheduled"] and scheduled["registered"] == 0
    sid = scheduled["id"]
    assert site.post(f"/api/mtt/{sid}/register", json={"key": "a"}).status_code == 401
    unknown = site.post("/api/mtt/nope/register", json={"key": "a"}, cookies=ana)
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_mtt"
    first = site.post(f"/api/mtt/{sid}/register", json={"key": "a"}, cookies=ana)
    assert first.status_code == 201 and first.json()["applied"] is True
    assert first.json()["mtt"]["registered_me"] is True
    again = site.post(f"/api/mtt/{sid}/register", json={"key": "a"}, cookies=ana)
    assert again.status_code == 201 and again.json()["applied"] is False
    twice = site.post(f"/api/mtt/{sid}/register", json={"key": "b"}, cookies=ana)
    assert twice.status_code == 409 and twice.json()["error"] == "already_registered"
    assert site.get("/api/mtt", cookies=ana).json()["mtts"][0]["registered"] == 1

    # a host's paid MTT
    bad = site.post("/api/mtt", json={"name": "", "buy_in": 100}, cookies=ana)
    assert bad.status_code == 422
    made = site.post(
        "/api/mtt", json={"name": "Noite", "buy_in": 100, "starts_in_minutes": 30}, cookies=ana
    )
    assert made.status_code == 201, made.text
    mid = made.json()["mtt"]["id"]
    assert made.json()["mtt"]["host"] is not None
    rich = site.post(
        "/api/mtt", json={"name": "Alta", "buy_in": SIGNUP_GRANT + 1}, cookies=ana
    ).json()["mtt"]["id"]
    short = site.post(f"/api/mtt/{rich}/register", json={"key": "r"}, cookies=bia)
    assert short.status_code == 409 and short.json()["error"] == "insufficient_funds"
    assert balance(site, bia) == SIGNUP_GRANT
    assert site.post(f"/api/mtt/{mid}/register", json={"key": "m"}, cookies=ana).status_code == 201
    assert balance(site, ana) == SIGNUP_GRANT - 100
    assert site.post(f"/api/mtt/{mid}/unregister", cookies=ana).status_code == 200
    assert balance(site, ana) == SIGNUP_GRANT
    gone = site.post(f"/api/mtt/{mid}/unregister", cookies=ana)
    assert gone.status_code == 409 and gone.json()["error"] == "not_registered"
    early = site.post(f"/api/mtt/{mid}/start", cookies=ana)
    assert early.status_code == 409 and early.json()["error"] == "not_ready"
    for who, key in ((ana, "m2"), (bia, "m3")):
        assert (
            site.post(f"/api/mtt/{mid}/register", json={"key": key}, cookies=who).status_code == 201
        )
    assert site.post(f"/api/mtt/{mid}/start", cookies=bia).json()["error"] == "not_host"
    started = site.post(f"/api/mtt/{mid}/start", cookies=ana)
    assert started.status_code == 200, started.text
    assert started.json()["mtt"]["status"] == "running"
    room_id = started.json()["mtt"]["room_id"]
    assert room_id and room_id.startswith(f"mtt-{mid}-")
    mine = next(m for m in site.get("/api/mtt", cookies=bia).json()["mtts"] if m["id"] == mid)
    assert mine["room_id"] == room_id and mine["pool"] == 200
    room = site.get(f"/api/rooms/{room_id}").json()
    # R-TN-07 D: players not connected yet are dealt in and their hands folded, so the
    # first hands may already have moved the blinds; the chips are the field's 2 x 1,000
    stacks = [s["stack"] for s in room["seats"] if s]
    assert len(stacks) == 2 and sum(stacks) == 2000
    left = site.post(f"/api/mtt/{mid}/unregister", cookies=bia)
    assert left.status_code == 409 and left.json()["error"] == "already_started"
    assert check_ledger(engine) == []


def test_R_TN_03_a_host_sets_blind_levels_by_hands(site: TestClient) -> None:
    ana = sign_up(site, "ana")
    for bad in (0, 101, "5"):
        body = {"name": "Mãos", "level_hands": bad}
        assert site.post("/api/mtt", json=body, cookies=ana).status_code == 422, bad
    by_hands = site.post("/api/mtt", json={"name": "Mãos", "level_hands": 15}, cookies=ana)
    assert by_hands.status_code == 201 and by_hands.json()["mtt"]["level_hands"] == 15
    by_time = site.post("/api/mtt", json={"name": "Relógio"}, cookies=ana).json()["mtt"]
    assert by_time["level_hands"] is None
    listed = {m["name"]: m["level_hands"] for m in site.get("/api/mtt").json()["mtts"]}
    assert listed["Mãos"] == 15 and listed["Relógio"] is None
    mid = by_hands.json()["mtt"]["id"]
    bia = sign_up(site, "bia")
    for who, key in ((ana, "a"), (bia, "b")):
        assert site.post(f"/api/mtt/{mid}/register", json={"key": key}, cookies=who).is_success
    assert site.post(f"/api/mtt/{mid}/start", cookies=ana).status_code == 200
    schedule = site.app.state.mtt.rooms[mid].schedule  # type: ignore[attr-defined]
    assert (schedule.increase, schedule.every) == (BlindIncrease.HANDS, 15)
