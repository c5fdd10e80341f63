"""The console's API rules that the browser test does not walk through (issue 45): an operator
is nothing until it gives its one-time code; a suspension ends the account's sessions and
refuses its log-in with the reason until lifted; bad input is refused and changes nothing;
every action is one line of the audit log."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import websockets
from test_hands_api import _fast_app

from ahiko.cli import main
from ahiko.server.services import CSRF_HEADER
from ahiko.wallet.check import check_ledger
from live_server import create_account, serving

PASSWORD = "correct horse"
CSRF = {CSRF_HEADER: "1"}


@dataclass
class Site:
    base: str
    app: object
    database_url: str

    def as_(self, cookie: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.base, headers=CSRF, cookies={"ahiko_session": cookie}, timeout=20
        )


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    app = _fast_app(tmp_path)
    with serving(app) as port:
        yield Site(f"http://127.0.0.1:{port}", app, f"sqlite:///{tmp_path / 'hands.sqlite3'}")


def make_operator(site: Site, name: str) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["admin", "operator", "add", name, "--database-url", site.database_url]) == 0
    found = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", printed.getvalue())
    assert found is not None
    return found.group(0)


def test_operator_add_refuses_an_unknown_account(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["admin", "operator", "add", "ninguem", "--database-url", site.database_url]) == 1
    assert capsys.readouterr().out == "error: there is no account named 'ninguem'\n"


def test_an_operator_acts_only_after_its_one_time_code_and_suspensions_hold(site: Site) -> None:
    opera = create_account(site.base, "opera", PASSWORD).cookies["ahiko_session"]
    made = create_account(site.base, "bia", PASSWORD)
    bia, bia_id = made.cookies["ahiko_session"], made.json()["id"]
    first = make_operator(site, "opera")
    code = make_operator(site, "opera")  # again: a new code, the first one void
    with site.as_(opera) as http:
        assert http.get("/api/admin/me").json() == {"id": 1, "name": "opera", "activated": False}
        assert http.get("/api/admin/audit").json()["error"] == "code_needed"
        assert http.get("/admin").status_code == 200  # the page, which asks for the code
        assert (
            http.post("/api/admin/activate", json={"code": first}).json()["error"] == "wrong_code"
        )
        assert (
            http.post("/api/admin/activate", json={"code": code.replace("-", " ")}).status_code
            == 200
        )
        assert http.get("/api/admin/accounts", params={"q": "BI"}).json()[0]["username"] == "bia"

        refused = http.post(
            f"/api/admin/accounts/{bia_id}/grant", json={"amount": 0, "reason": "gift"}
        )
        assert refused.status_code == 422 and "amount" in refused.text
        refused = http.post(
            f"/api/admin/accounts/{bia_id}/grant", json={"amount": "10", "reason": "gift"}
        )
        assert refused.status_code == 422  # a number, not text
        assert (
            http.post("/api/admin/accounts/999/grant", json={"amount": 5, "reason": "gift"}).json()[
                "error"
            ]
            == "no_account"
        )
        assert (
            http.post("/api/admin/rooms/nope/close", json={"reason": "gone"}).json()["error"]
            == "no_room"
        )
        assert (
            http.post("/api/admin/accounts/1/suspend", json={"reason": "myself"}).json()["error"]
            == "own_account"
        )

        suspended = http.post(
            f"/api/admin/accounts/{bia_id}/suspend", json={"reason": "chip dumping"}
        )
        assert suspended.status_code == 200
        again = http.post(f"/api/admin/accounts/{bia_id}/suspend", json={"reason": "chip dumping"})
        assert again.json()["error"] == "already_suspended"
    with site.as_(bia) as http:
        assert http.get("/api/me").status_code == 401  # the session ended
        log_in = http.post("/api/session", json={"username": "bia", "password": PASSWORD})
        assert log_in.status_code == 403
        assert log_in.json()["error"] == "account_suspended"
        assert "chip dumping" in log_in.json()["message"]
        wrong = http.post("/api/session", json={"username": "bia", "password": "not it"})
        assert wrong.status_code == 401  # the reason is told only to the password's owner
    with site.as_(opera) as http:
        assert (
            http.post(
                f"/api/admin/accounts/{bia_id}/lift", json={"reason": "appeal upheld"}
            ).status_code
            == 200
        )
        assert http.get(f"/api/admin/accounts/{bia_id}").json()["suspended"] is None
        audit = http.get("/api/admin/audit").json()
    assert [(a["action"], a["reason"]) for a in audit] == [
        ("lift", "appeal upheld"),
        ("suspend", "chip dumping"),
        ("activate", "first visit, one-time code given"),
    ]
    assert all(a["operator"] == "opera" for a in audit)
    log_in = httpx.post(
        f"{site.base}/api/session", json={"username": "bia", "password": PASSWORD}, headers=CSRF
    )
    assert log_in.status_code == 200
    assert check_ledger(site.app.state.services.engine) == []  # type: ignore[attr-defined]


def test_a_notice_reaches_everyone_at_a_table_and_bad_ones_change_nothing(site: Site) -> None:
    opera = create_account(site.base, "opera", PASSWORD).cookies["ahiko_session"]
    bia = create_account(site.base, "bia", PASSWORD).cookies["ahiko_session"]
    code = make_operator(site, "opera")
    with site.as_(bia) as http:
        room_id = http.post("/api/rooms", json={"name": "Mesa da Bia"}).json()["id"]

    async def watch() -> list[str]:
        url = f"ws://{site.base.removeprefix('http://')}/ws/rooms/{room_id}"
        cookie = {"Cookie": f"ahiko_session={bia}"}
        async with (
            websockets.connect(url) as spectator,
            websockets.connect(url, additional_headers=cookie) as player,
        ):
            await player.send(json.dumps({"t": "sit", "id": "s", "seat": 0}))
            while json.loads(await player.recv())["t"] != "ack":
                pass
            with site.as_(opera) as http:
                assert http.post("/api/admin/activate", json={"code": code}).status_code == 200
                for bad in ({"text": ""}, {"text": "x" * 201}, {"text": "oi", "room_id": "r-none"}):
                    assert http.post("/api/admin/notice", json=bad).status_code in (404, 422)
                to_room = {"text": "A mesa fecha em 5 minutos", "room_id": room_id}
                assert http.post("/api/admin/notice", json=to_room).json() == {"rooms": 1}
                everyone = http.post("/api/admin/notice", json={"text": "Manutenção às 3h"})
                assert everyone.json()["rooms"] >= 1
                audit = [(a["action"], a["target"]) for a in http.get("/api/admin/audit").json()]
            assert audit[:2] == [("notice", "everyone"), ("notice", f"room:{room_id}")]
            seen = []
            for ws in (player, spectator):
                messages = []
                while len(messages) < 2:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if frame["t"] == "notice":
                        assert frame["code"] == "operator_notice"
                        messages.append(frame["message"])
                seen.append(messages)
            return [m for messages in seen for m in messages]

    assert asyncio.run(watch()) == ["A mesa fecha em 5 minutos", "Manutenção às 3h"] * 2
