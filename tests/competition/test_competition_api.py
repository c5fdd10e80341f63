"""Issue 20's routes through the real app: a player's profile and table line, leaderboards
with the requester's own rank, a share link opened without signing in (its downloads, and
``ahiko verify`` on its proof file), a rabbit hunt, and the refusals (a hand not yours, a
forged link, a rabbit after the river)."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from app_site import PeopleSite
from fastapi.testclient import TestClient

from ahiko.fairness.keys import load_or_create_signing_key
from ahiko.rooms.blinds import Stakes
from ahiko.server.figure_reads import FigureReads
from ahiko.server.security import RateLimit
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.store.hand_archive import ArchivedHand
from archive_factory import START, Sitter, cash_session
from live_server import fast_app

PASSWORD = "correct horse"


@pytest.fixture
def site(sqlite_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = fast_app(Settings(data_dir=tmp_path / "data", database_url=sqlite_url))
    app.state.services = app.state.services.__class__(
        **{**app.state.services.__dict__, "clock": lambda: START + timedelta(days=1)}
    )
    with PeopleSite(app, headers={CSRF_HEADER: "1"}) as client:
        yield client


def sign_up(site: TestClient, name: str) -> tuple[int, dict[str, str]]:
    answer = site.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"]), {"ahiko_session": answer.cookies["ahiko_session"]}


def test_profiles_boards_shared_hands_and_rabbit_through_the_app(
    site: TestClient, tmp_path: Path
) -> None:
    ana_id, ana = sign_up(site, "ana")
    bia_id, bia = sign_up(site, "bia")
    _caio_id, caio = sign_up(site, "caio")
    engine = site.app.state.services.engine  # type: ignore[attr-defined]
    hands: list[ArchivedHand] = cash_session(
        engine,
        random.Random(3),
        room_id="ahiko-ini-1",
        room_kind="ahiko",
        variant="holdem",
        sitters={0: Sitter("ana", ana_id), 3: Sitter("bia", bia_id), 5: Sitter("robo")},
        hands=30,
        stakes=Stakes(small_blind=1, big_blind=2),
        stack=200,
        every=timedelta(minutes=5),
        signing_key=load_or_create_signing_key(tmp_path / "data"),
    )
    site.cookies.clear()

    profile = site.get("/api/players/ana/profile", cookies=caio)
    assert profile.status_code == 200
    assert profile.json()["hands"] == 30 and profile.json()["tiers"][0]["tier"] == "Iniciante"
    assert site.get("/api/players/nobody/profile", cookies=caio).status_code == 404
    line = site.get(f"/api/players/by-id/{bia_id}/line", cookies=ana).json()
    assert line["hands"] == 30 and set(line) >= {"vpip", "pfr", "name"}
    assert site.get("/api/players/ana/profile").status_code == 401

    board = site.get("/api/leaderboards?board=ahiko&period=week", cookies=bia).json()
    assert [r["name"] for r in board["rows"]] and board["me"]["user_id"] == bia_id
    assert board["me"]["score"] == sum(
        p.net for h in hands for p in h.players if p.user_id == bia_id
    )
    assert site.get("/api/leaderboards?board=ahiko&period=week", cookies=caio).json()["me"] is None
    assert site.get("/api/leaderboards?board=poker", cookies=caio).status_code == 422

    early = next(h for h in hands if len(_board(h)) < 5)
    full = next(h for h in hands if len(_board(h)) == 5)
    assert site.post(f"/api/hands/{early.id}/share", json={}, cookies=caio).status_code == 404
    link = site.post(
        f"/api/hands/{early.id}/share", json={"show_own": True, "rabbit": True}, cookies=ana
    )
    assert link.status_code == 201, link.text
    token = link.json()["token"]
    assert link.json()["url"] == f"/#/shared/{token}"
    public = site.get(f"/api/shared/{token}")  # no cookie: anyone may open it
    assert public.status_code == 200
    document = public.json()
    assert document["viewer"] == 0 and document["sharer"]["name"] == "ana"
    assert len(document["rabbit"]) == 5 - len(_board(early))
    mine = next(e for e in document["events"] if e["kind"] == "hole_dealt" and e["seat"] == 0)
    others = [e for e in document["events"] if e["kind"] == "hole_dealt" and e["seat"] != 0]
    assert len(mine["cards"]) == 2 and all("cards" not in e for e in others)
    for fmt in ("pokerstars", "phh"):
        got = site.get(f"/api/shared/{token}/download", params={"format": fmt})
        assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
    proof = site.get(f"/api/shared/{token}/download", params={"format": "proof"})
    path = tmp_path / "shared-proof.json"
    path.write_bytes(proof.content)
    key = load_or_create_signing_key(tmp_path / "data").public_key().public_bytes_raw().hex()
    verified = subprocess.run(
        [str(Path(sys.executable).with_name("ahiko")), "verify", str(path), "--pubkey", key],
        capture_output=True,
        text=True,
        check=False,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "consistent" in verified.stdout.lower()

    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    assert site.get(f"/api/shared/{forged}").status_code == 404
    assert site.get("/api/shared/not-a-token").json()["error"] == "no_shared_hand"

    rabbit = site.get(f"/api/hands/{early.id}/rabbit", cookies=bia)
    assert rabbit.status_code == 200
    assert rabbit.json()["rabbit"] == document["rabbit"]
    assert site.get(f"/api/hands/{full.id}/rabbit", cookies=bia).json()["error"] == "no_rabbit"
    assert site.get(f"/api/hands/{early.id}/rabbit", cookies=caio).status_code == 404
    refused = site.post(f"/api/hands/{full.id}/share", json={"rabbit": True}, cookies=ana)
    assert refused.status_code == 409


def _board(hand: ArchivedHand) -> list[int]:
    return [c for e in hand.events if e.get("kind") == "street" for c in e["cards"]]


def test_player_pages_are_rate_limited_per_account(site: TestClient) -> None:
    """Issue 40: what is left of a profile's cost (the tournament places) is bounded by a
    per-account rate; another account is not affected, and nothing is read when refused."""
    site.app.state.figure_reads = FigureReads(RateLimit(3, 60.0))  # type: ignore[attr-defined]
    ana_id, ana = sign_up(site, "ana")
    _bia_id, bia = sign_up(site, "bia")
    site.cookies.clear()
    pages = [
        site.get("/api/players/ana/profile", cookies=bia),
        site.get(f"/api/players/by-id/{ana_id}/line", cookies=bia),
        site.get("/api/players/ana/profile", cookies=bia),
    ]
    assert [page.status_code for page in pages] == [200] * 3
    refused = site.get("/api/players/ana/profile", cookies=bia)
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests"
    assert "at most 3 player pages every 60 s" in refused.json()["message"]
    assert int(refused.headers["retry-after"]) >= 1
    assert site.get("/api/players/ana/profile", cookies=ana).status_code == 200
