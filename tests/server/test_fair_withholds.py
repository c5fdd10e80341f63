"""pokerfair/2's withholds reach the operators (docs/fairness.md): over real sockets on a real
server, a person whose browser commits a secret every hand and never reveals it plays on (the
public fallback stands in), and each of those hands is counted against the account as it is
archived; the console's API lists the account with that count, and its profile shows it. The
person who reveals is not counted. The public figure of hands cancelled after their cards is
zero: nothing crashed."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import httpx
import test_admin_console
from test_admin_console import Site, make_operator

from ahiko.server.services import CSRF_HEADER
from fair_browsers import play_table
from live_server import create_account

PASSWORD = "correct horse"
CSRF = {CSRF_HEADER: "1"}
HANDS = 8
WINDOW_S = 150.0  # rule seconds of reveals: half a second of real time at the tests' speed
site = test_admin_console.site  # the fixture: a real server on a fresh database


def test_R_FD_02_a_person_who_withholds_is_counted_and_the_operator_sees_it(site: Site) -> None:
    cookies, ids = {}, {}
    for name in ("ana", "bia", "opera"):
        made = create_account(site.base, name, PASSWORD)
        cookies[name], ids[name] = made.cookies["ahiko_session"], int(made.json()["id"])
    with site.as_(cookies["ana"]) as http:
        made = http.post("/api/rooms", json={"name": "Mesa justa", "limit_hands": HANDS})
        assert made.status_code == 201, made.text
        room_id = made.json()["id"]
    room = site.app.state.room_registry.get(room_id).room
    timing = dataclasses.replace(room.config.timing, commitment_display_s=WINDOW_S)
    room.config = dataclasses.replace(room.config, timing=timing)

    ana, bia = asyncio.run(play_table(site.base, cookies, room_id))
    assert bia.fallbacks() == HANDS and ana.fallbacks() == 0

    code = make_operator(site, "opera")
    with site.as_(cookies["opera"]) as http:
        assert http.post("/api/admin/activate", json={"code": code}).status_code == 200
        deadline = time.monotonic() + 30  # the archive writes on its own thread
        while True:
            found = http.get("/api/admin/fairness").json()
            counted = {w["username"]: w["withheld"] for w in found["withholds"]}
            if counted.get("bia") == bia.fallbacks() or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert counted == {"bia": bia.fallbacks()}  # ana revealed every time: not listed
        assert found["crash_cancellations"] == 0
        assert http.get(f"/api/admin/accounts/{ids['bia']}").json()["fair_withholds"] == (
            bia.fallbacks()
        )
        assert http.get(f"/api/admin/accounts/{ids['ana']}").json()["fair_withholds"] == 0
    with site.as_(cookies["ana"]) as http:  # not an operator
        assert http.get("/api/admin/fairness").status_code == 403
    public = httpx.get(f"{site.base}/api/fairness/figures").json()
    assert public["hands_cancelled_after_deal"] == 0
    assert "queda de um servidor" in public["explained"]["pt-BR"]
