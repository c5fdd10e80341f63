"""Issue 17 for table chat: a chat report and an operator's site mute are written off the
event loop, in the chat lane of the server's ``StoreWriter``. A real SQLite write lock held
by another connection delays the report's answer, never the loop: another room's frames keep
flowing. A write that fails is answered with a clear error and files (or mutes) nothing, and
what the rooms hold in memory changes only once the write landed."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from ahiko.cli import main
from ahiko.rooms.moderation import StoredModeration
from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE
from ahiko.store import chat as chat_store
from ahiko.store import engine as store_engine
from ahiko.store.accounts import insert_user
from ahiko.store.engine import make_engine
from ahiko.store.writer import Outcome, ThreadWriter

PASSWORD = "correct horse"
MakeApp = Callable[[], FastAPI]
WriteLock = Any  # tests/hardening/conftest.py's ``write_lock`` fixture
_ids = itertools.count(1)


def _sign_up(client: TestClient, username: str) -> str:
    response = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201, response.text
    token = response.cookies[SESSION_COOKIE]
    client.cookies.clear()
    return str(token)


def _room(client: TestClient, token: str, name: str) -> str:
    cookie = {"Cookie": f"{SESSION_COOKIE}={token}"}
    response = client.post("/api/rooms", json={"name": name}, headers=cookie)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def _ask(socket: WebSocketTestSession, t: str, **fields: Any) -> dict[str, Any]:
    """Sends a frame and reads the room's frames until its answer (an ack or an error)."""
    frame_id = f"f-{next(_ids)}"
    socket.send_json({"t": t, "id": frame_id, **fields})
    while True:
        frame = socket.receive_json()
        if frame.get("id") == frame_id and frame["t"] in ("ack", "error"):
            return dict(frame)


class Table:
    """Ana and Bia seated in Ana's room, Bia said something; Carla hosts another room."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        ana, bia, carla = (_sign_up(client, name) for name in ("ana", "bia", "carla"))
        mine, other = _room(client, ana, "Mesa da Ana"), _room(client, carla, "Mesa da Carla")

        def socket(room_id: str, token: str) -> WebSocketTestSession:
            found = stack.enter_context(
                client.websocket_connect(
                    f"/ws/rooms/{room_id}", headers={"Cookie": f"{SESSION_COOKIE}={token}"}
                )
            )
            assert found.receive_json()["t"] == "snapshot"
            return found

        self.ana, self.bia = socket(mine, ana), socket(mine, bia)
        self.carla = socket(other, carla)
        for player, seat in ((self.ana, 0), (self.bia, 1), (self.carla, 0)):
            assert _ask(player, "sit", seat=seat)["t"] == "ack"
        said = _ask(self.bia, "chat", text="sua porra")
        assert said["t"] == "ack"
        self.no = int(said["data"]["no"])
        self._modes = itertools.cycle(["everyone", "seated"])

    def report(self) -> dict[str, Any]:
        return _ask(self.ana, "chat_report", no=self.no, reason="xingou")

    def other_room(self) -> None:
        """Carla changes her room's chat setting: the room's frame and the ack come back."""
        assert _ask(self.carla, "chat_setting", mode=next(self._modes))["t"] == "ack"


def _reports(app: FastAPI) -> list[chat_store.StoredReport]:
    return chat_store.reports(app.state.services.engine)


def test_a_held_write_lock_delays_a_chat_report_not_another_rooms_frames(
    make_app: MakeApp, write_lock: WriteLock
) -> None:
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client, ExitStack() as stack:
        table = Table(client, stack)
        time.sleep(0.3)  # Bia's line is written
        run = write_lock.while_held(client, table.report, table.other_room)
        assert run.result["t"] == "ack", run.result
        assert run.result["data"] == {"no": table.no, "filed": True}
        run.assert_the_loop_served()  # the report answered once its write came back
        again = table.report()
        assert again["t"] == "ack" and again["data"]["filed"] is False  # once per reporter
    ((report,),) = [_reports(app)]
    assert (report.text, report.reason, report.author_name) == ("sua *****", "xingou", "bia")


def test_a_failed_report_write_is_refused_and_files_nothing(
    make_app: MakeApp, write_lock: WriteLock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short busy timeout: the write gives up while the other connection holds the lock.
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    app = make_app()
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client, ExitStack() as stack:
        table = Table(client, stack)
        time.sleep(0.3)
        with write_lock.held():
            refused = table.report()
            table.other_room()
            lag = write_lock.loop_lag(client)
        assert refused["t"] == "error" and refused["code"] == "storage_busy", refused
        assert "could not be written" in refused["message"]
        assert "nothing was filed" in refused["message"]
        assert lag < write_lock.max_lag_s
        assert _reports(app) == []
        # Nothing was remembered: the same report now lands, once.
        assert table.report()["data"]["filed"] is True
        assert table.report()["data"]["filed"] is False
    assert len(_reports(app)) == 1


def test_a_site_mute_is_written_off_the_loop_and_applies_once_it_landed(
    sqlite_url: str, write_lock: WriteLock, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(sqlite_url)

    async def scenario() -> None:
        writer = ThreadWriter(threads=1)
        moderation = StoredModeration(engine, writer=writer)
        now_ms = int(time.time() * 1000)
        outcomes: list[Outcome[None]] = []
        assert moderation.muted_until("bia", now_ms) is False  # the first read of the mutes
        assert await writer.drain(10)
        with write_lock.held(1.0):
            started = time.perf_counter()
            moderation.site_mute("bia", None, outcomes.append)
            assert time.perf_counter() - started < 0.05  # handed to the writer, not waited
            lags = []
            while not outcomes:
                before = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append(time.perf_counter() - before - 0.01)
                if not outcomes:  # not muted in memory before the write landed
                    assert moderation.muted_until("bia", now_ms) is False
        assert outcomes[0].ok and max(lags) < write_lock.max_lag_s
        assert moderation.muted_until("bia", now_ms) is None  # muted until unmuted
        assert set(chat_store.site_mutes(engine, datetime.now(UTC)))
        # A write that fails (the busy timeout is short now) changes nothing.
        monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
        short = make_engine(sqlite_url)
        failing = StoredModeration(short, writer=writer)
        failing.muted_until("ana", now_ms)
        assert await writer.drain(10)
        outcomes.clear()
        with write_lock.held(1.0):
            failing.site_mute("ana", None, outcomes.append)
            assert await writer.drain(10)
        assert outcomes and outcomes[0].error is not None
        assert failing.muted_until("ana", now_ms) is False
        assert "ana" not in chat_store.site_mutes(engine, datetime.now(UTC))
        writer.close()
        short.dispose()

    asyncio.run(scenario())
    engine.dispose()


def test_the_operators_mute_command_says_so_when_the_database_is_busy(
    sqlite_url: str, write_lock: WriteLock, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        insert_user(conn, "bia", "x", datetime.now(UTC))
    engine.dispose()
    monkeypatch.setattr(store_engine, "SQLITE_BUSY_TIMEOUT_MS", 200)
    for command in ("mute", "unmute"):
        with write_lock.held(1.0):
            assert main(["admin", "chat", command, "bia", "--database-url", sqlite_url]) == 1
        error = capsys.readouterr().err
        assert f"the {command} could not be written, nothing changed" in error
        assert "the database is busy" in error and "Traceback" not in error
    engine = make_engine(sqlite_url)
    assert chat_store.site_mutes(engine, datetime.now(UTC)) == {}
    engine.dispose()
