"""The sit & go routes through the real app (issue 20): the lobby lists one open queue per
kind; registering moves the buy-in into the pool (the same key again changes nothing),
unregistering refunds it; double registration, unknown queues, short wallets and signed-out
requests are refused; a full heads-up starts its tournament room, whose id comes back."""

from __future__ import annotations

from app_site import balance, sign_up
from fastapi.testclient import TestClient

from ahiko.competition.live_sitgo import SitGoRooms
from ahiko.competition.sitgo import QUEUES, SitGoSpec
from ahiko.wallet.check import check_ledger
from ahiko.wallet.policy import SIGNUP_GRANT


def test_sitgo_lobby_register_unregister_and_start_through_the_app(site: TestClient) -> None:
    ana, bia = sign_up(site, "ana"), sign_up(site, "bia")
    engine = site.app.state.services.engine  # type: ignore[attr-defined]
    lobby = site.get("/api/sitgo").json()
    assert [q["queue"] for q in lobby["queues"]] == [s.key for s in QUEUES]
    assert lobby["running"] == [] and lobby["mine"] is None
    assert all(q["status"] == "registering" and q["registered"] == 0 for q in lobby["queues"])

    assert site.post("/api/sitgo/queues/hu-100/register", json={"key": "a"}).status_code == 401
    first = site.post("/api/sitgo/queues/hu-100/register", json={"key": "a"}, cookies=ana)
    assert first.status_code == 201 and first.json()["applied"] is True
    sng = first.json()["sitgo"]
    assert sng["registered"] == 1 and sng["pool"] == 100 and sng["room_id"] is None
    assert balance(site, ana) == SIGNUP_GRANT - 100
    again = site.post("/api/sitgo/queues/hu-100/register", json={"key": "a"}, cookies=ana)
    assert again.status_code == 201 and again.json()["applied"] is False
    assert balance(site, ana) == SIGNUP_GRANT - 100
    other = site.post("/api/sitgo/queues/6max-free/register", json={"key": "b"}, cookies=ana)
    assert other.status_code == 409 and other.json()["error"] == "already_registered"
    unknown = site.post("/api/sitgo/queues/nope/register", json={"key": "b"}, cookies=bia)
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_queue"
    assert site.get("/api/sitgo", cookies=ana).json()["mine"]["id"] == sng["id"]

    gone = site.post(f"/api/sitgo/{sng['id']}/unregister", cookies=ana)
    assert gone.status_code == 200 and gone.json()["sitgo"]["registered"] == 0
    assert balance(site, ana) == SIGNUP_GRANT
    twice = site.post(f"/api/sitgo/{sng['id']}/unregister", cookies=ana)
    assert twice.status_code == 409 and twice.json()["error"] == "not_registered"
    assert site.post("/api/sitgo/nope-1/unregister", cookies=ana).status_code == 404
    assert check_ledger(engine) == []

    # a full heads-up starts at once: the answer carries the tournament room
    site.post("/api/sitgo/queues/hu-100/register", json={"key": "a2"}, cookies=ana)
    full = site.post("/api/sitgo/queues/hu-100/register", json={"key": "b"}, cookies=bia)
    started = full.json()["sitgo"]
    assert started["status"] == "running" and started["room_id"]
    room = site.get(f"/api/rooms/{started['room_id']}").json()
    assert room["kind"] == "tournament" and room["status"] == "running"
    listing = site.get("/api/sitgo", cookies=bia).json()
    assert [r["id"] for r in listing["running"]] == [started["id"]]
    assert listing["mine"]["room_id"] == started["room_id"]
    hu = next(q for q in listing["queues"] if q["queue"] == "hu-100")
    assert hu["id"] != started["id"] and hu["registered"] == 0  # the next one opened
    late = site.post(f"/api/sitgo/{started['id']}/unregister", cookies=bia)
    assert late.status_code == 409 and late.json()["error"] == "already_started"
    assert check_ledger(engine) == []


def test_a_wallet_short_of_the_buy_in_is_refused(site: TestClient) -> None:
    poor = sign_up(site, "poor")
    app = site.app
    engine = app.state.services.engine  # type: ignore[attr-defined]
    big = SitGoSpec("big", "Big", "holdem", 2, SIGNUP_GRANT + 1)
    app.state.sitgo = SitGoRooms(app.state.room_registry, engine, specs=(big,))  # type: ignore[attr-defined]
    short = site.post("/api/sitgo/queues/big/register", json={"key": "p"}, cookies=poor)
    assert short.status_code == 409 and short.json()["error"] == "insufficient_funds"
    assert balance(site, poor) == SIGNUP_GRANT
    listing = site.get("/api/sitgo", cookies=poor).json()
    assert listing["mine"] is None and listing["queues"][0]["registered"] == 0
    assert check_ledger(engine) == []
