"""Cancelling an MTT through the real app (issue 20): signed out 401, an unknown MTT 404, a
player who is not the host and the site's scheduled MTT 403, the host's cancel refunds every
registered wallet and the lobby shows it cancelled; registering in it afterwards, and
cancelling it again, are refused (409 with a code); a started MTT is not cancelled."""

from __future__ import annotations

from app_site import balance, sign_up
from fastapi.testclient import TestClient

from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT


def test_mtt_cancel_route(site: TestClient) -> None:
    ana, bia, caio = sign_up(site, "ana"), sign_up(site, "bia"), sign_up(site, "caio")
    engine = site.app.state.services.engine  # type: ignore[attr-defined]
    (scheduled,) = site.get("/api/mtt").json()["mtts"]
    made = site.post("/api/mtt", json={"name": "Sábado", "buy_in": 200}, cookies=ana)
    mid = made.json()["mtt"]["id"]
    assert made.json()["mtt"]["host_me"] is True
    for n, who in enumerate((ana, bia)):
        answer = site.post(f"/api/mtt/{mid}/register", json={"key": f"k{n}"}, cookies=who)
        assert answer.status_code == 201, answer.text
    assert balance(site, bia) == SIGNUP_GRANT - 200

    assert site.post(f"/api/mtt/{mid}/cancel").status_code == 401
    unknown = site.post("/api/mtt/nope/cancel", cookies=ana)
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_mtt"
    stranger = site.post(f"/api/mtt/{mid}/cancel", cookies=bia)
    assert stranger.status_code == 403 and stranger.json()["error"] == "not_host"
    site_own = site.post(f"/api/mtt/{scheduled['id']}/cancel", cookies=ana)
    assert site_own.status_code == 403 and site_own.json()["error"] == "not_host"
    assert balance(site, bia) == SIGNUP_GRANT - 200

    done = site.post(f"/api/mtt/{mid}/cancel", cookies=ana)
    assert done.status_code == 200, done.text
    assert done.json()["applied"] is True and done.json()["refunded"] == 2
    assert done.json()["mtt"]["status"] == "cancelled" and done.json()["mtt"]["pool"] == 0
    assert balance(site, ana) == SIGNUP_GRANT and balance(site, bia) == SIGNUP_GRANT
    shown = next(m for m in site.get("/api/mtt", cookies=bia).json()["mtts"] if m["id"] == mid)
    assert shown["status"] == "cancelled" and shown["registered_me"] is False
    late = site.post(f"/api/mtt/{mid}/register", json={"key": "c"}, cookies=caio)
    assert late.status_code == 409 and late.json()["error"] == "cancelled"
    again = site.post(f"/api/mtt/{mid}/cancel", cookies=ana)
    assert again.status_code == 409 and again.json()["error"] == "already_cancelled"
    assert balance(site, ana) == SIGNUP_GRANT and balance(site, caio) == SIGNUP_GRANT

    running = site.post("/api/mtt", json={"name": "Agora", "buy_in": 0}, cookies=ana)
    rid = running.json()["mtt"]["id"]
    for n, who in enumerate((ana, bia)):
        site.post(f"/api/mtt/{rid}/register", json={"key": f"r{n}"}, cookies=who)
    assert site.post(f"/api/mtt/{rid}/start", cookies=ana).status_code == 200
    started = site.post(f"/api/mtt/{rid}/cancel", cookies=ana)
    assert started.status_code == 409 and started.json()["error"] == "already_started"
    assert check_ledger(engine) == []
