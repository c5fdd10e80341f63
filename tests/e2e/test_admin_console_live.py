"""The operators' console in Chromium (issue 45), against a real server: an operator made by
``ahiko admin operator add`` gives its one-time code, finds a reported chat line with the
lines around it, mutes its author, grants coins with a reason, resolves the report and closes
a room; each action is in the audit log, which the database refuses to change, and the ledger
is clean. A non-operator, signed in or not, gets 403 on every console route, API and page."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from ahiko.cli import main
from ahiko.server import admin_console, admin_page
from ahiko.server.app import archiving_registry
from ahiko.server.services import CSRF_HEADER
from ahiko.store.chat import reports, site_mutes
from ahiko.wallet.check import check_ledger
from live_server import create_account

from .conftest import DESKTOP, PHONE, open_page, screenshot
from .live import live_app

pytestmark = pytest.mark.browser
PASSWORD = "correct horse"
RUDE_LINE = "vocês jogam muito mal, desistam"
CSRF = {CSRF_HEADER: "1"}


@dataclass
class Scene:
    url: str
    app: Any
    data_dir: Path
    code: str
    cookies: dict[str, str]  # username -> session token
    ids: dict[str, int]
    room_id: str


async def _chat_and_report(url: str, cookies: dict[str, str], room_id: str) -> None:
    """rude says a line at the table, ana (beside) reports it: the report the console shows."""
    ws_url = url.replace("http", "ws") + f"/ws/rooms/{room_id}"

    async def connect(name: str) -> Any:
        return await websockets.connect(
            ws_url, additional_headers={"Cookie": f"ahiko_session={cookies[name]}"}
        )

    async def ask(ws: Any, frame: dict[str, Any]) -> None:
        await ws.send(json.dumps(frame))
        while (answer := json.loads(await ws.recv()))["t"] not in ("ack", "error"):
            pass
        assert answer["t"] == "ack", answer

    rude, ana = await connect("rude"), await connect("ana")
    try:
        await ask(rude, {"t": "sit", "id": "s1", "seat": 0})
        await ask(ana, {"t": "sit", "id": "s2", "seat": 1})  # spectators do not chat
        await ask(rude, {"t": "chat", "id": "c0", "text": "boa noite a todos"})
        await ask(rude, {"t": "chat", "id": "c1", "text": RUDE_LINE})
        await ask(ana, {"t": "chat", "id": "c2", "text": "que isso?"})
        await ask(ana, {"t": "chat_report", "id": "r1", "no": 2, "reason": "ofensa"})
    finally:
        await rude.close()
        await ana.close()


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scene]:
    data_dir = tmp_path_factory.mktemp("console")
    with live_app(data_dir) as (url, app):
        # Rooms that keep their chat and its reports, as `ahiko serve`'s do.
        app.state.room_registry = archiving_registry(app)
        cookies, ids = {}, {}
        for name in ("opera", "rude", "ana"):
            made = create_account(url, name, PASSWORD)
            cookies[name] = made.cookies["ahiko_session"]
            ids[name] = int(made.json()["id"])
        room = httpx.post(
            f"{url}/api/rooms",
            json={"name": "Mesa do rude"},
            headers=CSRF,
            cookies={"ahiko_session": cookies["rude"]},
        )
        assert room.status_code == 201, room.text
        room_id = room.json()["id"]
        # The sockets' own event loop, in a thread: the module's Playwright holds this one.
        failure: list[BaseException] = []
        worker = threading.Thread(
            target=lambda: _run_catching(_chat_and_report(url, cookies, room_id), failure)
        )
        worker.start()
        worker.join(60)
        assert not failure, failure
        engine = app.state.services.engine
        while not reports(engine):  # the chat's writes land off the event loop
            time.sleep(0.05)
        yield Scene(url, app, data_dir, _operator_code(data_dir), cookies, ids, room_id)


def _run_catching(coroutine: Any, failure: list[BaseException]) -> None:
    try:
        asyncio.run(coroutine)
    except BaseException as error:  # handed to the test's thread
        failure.append(error)


def _operator_code(data_dir: Path) -> str:
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["admin", "operator", "add", "opera", "--data-dir", str(data_dir)]) == 0
    found = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", printed.getvalue())
    assert found, printed.getvalue()
    return found.group(0)


def _operator_page(browser: Any, scene: Scene, viewport: dict[str, int] = DESKTOP) -> Any:
    page = open_page(browser, viewport=viewport)
    page.context.add_cookies(
        [{"name": "ahiko_session", "value": scene.cookies["opera"], "url": scene.url}]
    )
    return page


def test_an_operator_finds_a_report_mutes_grants_closes_and_each_is_audited(
    scene: Scene, browser: Any
) -> None:
    page = _operator_page(browser, scene)
    page.goto(f"{scene.url}/admin")
    page.get_by_test_id("operator-code").fill("AAAA-BBBB-CCCC")  # a wrong code first
    page.get_by_test_id("operator-code-submit").click()
    page.get_by_text("Esse não é o código impresso para você.").wait_for()
    page.get_by_test_id("operator-code").fill(scene.code.lower())  # as typed by hand
    page.get_by_test_id("operator-code-submit").click()
    reports = page.get_by_test_id("reports")
    reports.wait_for()
    report = reports.locator("tr", has_text=RUDE_LINE)
    assert report.locator("li.reported").inner_text() == f"rude: {RUDE_LINE}"
    assert report.locator("li").all_inner_texts() == [
        "rude: boa noite a todos",
        f"rude: {RUDE_LINE}",
        "ana: que isso?",
    ]
    screenshot(page, "admin-console-reports-desktop")

    report.get_by_role("button", name="rude").click()  # the author's account
    account = page.get_by_test_id("account")
    account.wait_for()
    before = int(page.get_by_test_id("account-balance").inner_text())
    page.get_by_test_id("account-reason").fill("ofensa na mesa")
    page.get_by_test_id("mute-minutes").fill("60")
    page.get_by_test_id("mute").click()
    page.get_by_test_id("account-muted").wait_for()
    page.get_by_test_id("grant-reason").fill("x")  # too short: refused, nothing changes
    page.get_by_test_id("grant-amount").fill("500")
    page.get_by_test_id("grant").click()
    page.get_by_text("Verifique os campos").wait_for()
    assert int(page.get_by_test_id("account-balance").inner_text()) == before
    page.get_by_test_id("grant-reason").fill("compensação pelo torneio cancelado")
    page.get_by_test_id("grant-amount").fill("500")
    page.get_by_test_id("grant").click()
    page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=account-balance]')?.textContent) === n",
        arg=before + 500,
    )
    screenshot(page, "admin-console-account-desktop")

    page.get_by_test_id("tab-reports").click()
    row = page.get_by_test_id("reports").locator("tr", has_text=RUDE_LINE)
    report_id = (row.get_attribute("data-testid") or "").removeprefix("report-")
    page.get_by_test_id(f"resolve-action-{report_id}").select_option("muted")
    page.get_by_test_id(f"resolve-note-{report_id}").fill("silenciado por 1 h")
    page.get_by_test_id(f"resolve-{report_id}").click()
    page.get_by_test_id("reports").locator("tr", has_text="Resolvida").wait_for()

    page.get_by_test_id("tab-rooms").click()
    page.get_by_test_id(f"room-{scene.room_id}").wait_for()
    page.get_by_test_id("notice-text").fill("Manutenção às 3h")
    page.get_by_test_id("notice-all").click()
    page.get_by_text("Feito.").wait_for()
    page.get_by_test_id("room-reason").fill("sala usada para ofensas")
    page.get_by_test_id(f"close-{scene.room_id}").click()
    page.get_by_test_id(f"room-{scene.room_id}").wait_for(state="detached")

    page.get_by_test_id("tab-signals").click()  # rude and ana sat down from one address
    shared = page.get_by_test_id("signal-shared_address")
    shared.wait_for()
    assert "rude, ana" in shared.inner_text() and scene.room_id in shared.inner_text()

    page.get_by_test_id("tab-audit").click()
    audit = page.get_by_test_id("audit")
    audit.wait_for()
    for action, reason in (
        ("activate", "first visit"),
        ("mute", "ofensa na mesa"),
        ("grant", "compensação pelo torneio cancelado"),
        ("resolve_report", "silenciado por 1 h"),
        ("close_room", "sala usada para ofensas"),
        ("notice", "Manutenção às 3h"),
    ):
        line = audit.get_by_test_id(f"audit-{action}")
        assert line.count() == 1, action
        assert reason in line.inner_text() and "opera" in line.inner_text()
    screenshot(page, "admin-console-audit-desktop")
    page.get_by_test_id("tab-ledger").click()
    page.get_by_test_id("ledger-ok").wait_for()
    page.get_by_test_id("lang").click()  # English
    page.get_by_text("The ledger balances: no violation.").wait_for()
    refused = "Failed to load resource: the server responded with a status of"
    assert page.console_errors == [  # the wrong code and the short reason, nothing else
        f"{refused} 400 (Bad Request)",
        f"{refused} 422 (Unprocessable Entity)",
    ]
    page.context.close()

    engine = scene.app.state.services.engine
    assert check_ledger(engine) == []
    muted = site_mutes(engine, scene.app.state.services.clock())
    assert muted[str(scene.ids["rude"])].reason == "ofensa na mesa"
    assert scene.app.state.room_registry.get(scene.room_id) is None
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(text("UPDATE operator_audit SET reason = 'nothing happened'"))
    with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
        conn.execute(text("DELETE FROM operator_audit"))


def test_the_console_fits_a_phone(scene: Scene, browser: Any) -> None:
    page = _operator_page(browser, scene, PHONE)
    page.goto(f"{scene.url}/admin")
    # On a worker of its own this test meets the console before its first visit: the code first.
    code, tab = page.get_by_test_id("operator-code"), page.get_by_test_id("tab-audit")
    code.or_(tab).wait_for()
    if code.is_visible():
        code.fill(scene.code)
        page.get_by_test_id("operator-code-submit").click()
    tab.wait_for()
    tab.click()
    page.get_by_test_id("audit").wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, "admin-console-audit-phone")
    assert page.console_errors == []
    page.context.close()
    assert width <= PHONE["width"]  # the tabs wrap; a wide table scrolls in its own panel


BODIES = {
    "/api/admin/activate": {"code": "AAAA-BBBB-CCCC"},
    "/api/admin/accounts/{user_id}/grant": {"amount": 1, "reason": "a gift"},
    "/api/admin/accounts/{user_id}/mute": {"reason": "a reason"},
    "/api/admin/reports/{report_id}/resolve": {"action": "none"},
}


@pytest.mark.parametrize("who", ["ana", None])
def test_a_non_operator_gets_403_on_every_console_route(scene: Scene, who: str | None) -> None:
    cookies = {} if who is None else {"ahiko_session": scene.cookies[who]}
    routes = [
        (method, route.path)
        for route in [*admin_console.router.routes, *admin_page.router.routes]
        for method in getattr(route, "methods", ())
    ]
    assert len(routes) >= 18  # the API and the page's three files
    for method, path in routes:
        url = scene.url + path.format(user_id=scene.ids["rude"], report_id=1, room_id=scene.room_id)
        body = BODIES.get(path, {"reason": "a reason"}) if method == "POST" else None
        answer = httpx.request(
            method, url, json=body, headers=CSRF, cookies=cookies, params={"q": "a"}
        )
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["error"] == "not_an_operator", (method, path)
