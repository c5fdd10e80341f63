"""Structured logs (issue 45): ``ahiko serve`` with ``AHIKO_LOG_FORMAT=json`` writes one JSON
object a line, each naming its request or command, room, account and node; the default text
form carries the same events at the same levels; a client's mistake is one line without a
traceback, a bug keeps its traceback."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import websockets

from ahiko.cli import main
from ahiko.rooms.log_context import close_scope, open_scope
from ahiko.server.errors import ApiError
from ahiko.server.logging_setup import ScopeFilter, configure_logging
from ahiko.server.services import CSRF_HEADER
from live_server import free_port

CSRF = {CSRF_HEADER: "1"}
REQUEST_ID = "balancer-req-45"


@dataclass
class Visit:
    """What the scenario did, to find in the log."""

    account: str
    room: str
    command: str


async def _at_the_table(port: int, cookie: str, room: str) -> str:
    url = f"ws://127.0.0.1:{port}/ws/rooms/{room}"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"t": "sit", "id": "sit-1", "seat": 0}))
        while json.loads(await ws.recv())["t"] != "ack":
            pass
        await ws.send("{not json")  # malformed: an error frame, nothing logged as a bug
        command = "act-out-of-turn"
        await ws.send(json.dumps({"t": "act", "id": command, "hand_no": 1, "action": "check"}))
        while (frame := json.loads(await ws.recv()))["t"] != "error" or frame["id"] != command:
            pass
        return command


def _visit(port: int) -> Visit:
    base = f"http://127.0.0.1:{port}"
    made = httpx.post(
        f"{base}/api/accounts",
        json={"username": "ana", "password": "correct horse"},
        headers={**CSRF, "X-Request-ID": REQUEST_ID},
    )
    assert made.status_code == 201, made.text
    assert made.headers["x-request-id"] == REQUEST_ID
    cookie = f"ahiko_session={made.cookies['ahiko_session']}"
    wrong = httpx.post(
        f"{base}/api/session", json={"username": "ana", "password": "nope"}, headers=CSRF
    )
    assert wrong.status_code == 401
    room = httpx.post(
        f"{base}/api/rooms", json={"name": "Mesa logs"}, headers={**CSRF, "Cookie": cookie}
    )
    assert room.status_code == 201, room.text
    room_id = room.json()["id"]
    command = asyncio.run(_at_the_table(port, cookie, room_id))
    return Visit(str(made.json()["id"]), room_id, command)


def _serve(tmp: Path, log_format: str) -> tuple[Visit, list[str]]:
    """Migrate, serve with ``log_format``, run the visit, stop: (visit, stderr lines)."""
    data = tmp / log_format
    assert main(["admin", "migrate", "--data-dir", str(data)]) == 0
    env = {**os.environ, "AHIKO_DATA_DIR": str(data), "AHIKO_LOG_FORMAT": log_format}
    env.pop("AHIKO_DATABASE_URL", None)
    port = free_port()
    log_file = tmp / f"{log_format}.log"
    with log_file.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "ahiko.cli", "serve", "--port", str(port)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert server.poll() is None, log_file.read_text()
                assert time.monotonic() < deadline, "no answer within 60 s"
                time.sleep(0.1)
            visit = _visit(port)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    lines = [line for line in log_file.read_text().splitlines() if line.strip()]
    return visit, lines


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Visit, list[str]]]:
    tmp = tmp_path_factory.mktemp("logs")
    return {chosen: _serve(tmp, chosen) for chosen in ("json", "text")}


def test_json_lines_name_the_request_the_command_the_room_the_account_and_the_node(
    served: dict[str, tuple[Visit, list[str]]],
) -> None:
    visit, lines = served["json"]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message", "node"} <= r.keys() for r in records)
    assert all(r["node"].endswith(f":{r['node'].rsplit(':', 1)[1]}") for r in records)
    signed_up = [r for r in records if r.get("request") == REQUEST_ID]
    assert [r["message"].split()[:3] for r in signed_up] == [["POST", "/api/accounts", "201"]]
    assert signed_up[0]["logger"] == "ahiko.access"
    room_made = next(r for r in records if r["message"].startswith("POST /api/rooms 201"))
    assert room_made["account"] == visit.account  # learned from the session, off the loop
    opened = next(r for r in records if re.fullmatch(r"table socket ws-\S+ opened", r["message"]))
    assert opened["room"] == visit.room and opened["account"] == visit.account
    assert opened["request"] and opened["request"] != REQUEST_ID
    refused = next(r for r in records if r["message"].startswith("act refused"))
    assert refused["level"] == "INFO"
    assert refused["command"] == visit.command
    assert refused["room"] == visit.room and refused["account"] == visit.account
    assert refused["request"] == opened["request"]  # the same socket
    failed_log_in = next(r for r in records if r["message"].startswith("POST /api/session 401"))
    assert "account" not in failed_log_in
    assert not any("traceback" in r for r in records)
    assert not any("Traceback" in line for line in lines)


def test_text_lines_carry_the_same_events_at_the_same_levels(
    served: dict[str, tuple[Visit, list[str]]],
) -> None:
    _visit_json, json_lines = served["json"]
    visit, text_lines = served["text"]
    as_json = Counter(
        _event(r["level"], r["logger"], r["message"]) for r in map(json.loads, json_lines)
    )
    shape = re.compile(
        r"^\S+ \S+ (?P<level>[A-Z]+) (?P<logger>[\w.]+): (?P<message>.*?)( @ \S+=.*)?$"
    )
    early = re.compile(r"^(?P<level>warning|error): (?P<message>.*)$")  # before the log is set
    said = [m for line in text_lines if (m := early.match(line))]
    text_lines = [line for line in text_lines if not early.match(line)]
    matches = [shape.match(line) for line in text_lines]
    assert all(matches), [line for line, m in zip(text_lines, matches, strict=True) if not m]
    as_text = Counter(_event(m["level"], m["logger"], m["message"]) for m in matches if m)
    as_text.update(_event(m["level"].upper(), "ahiko.cli", m["message"]) for m in said)
    assert as_text == as_json
    refused = next(line for line in text_lines if " act refused" in line)
    assert f"command={visit.command}" in refused and f"room={visit.room}" in refused
    assert f"account={visit.account}" in refused
    assert not any("Traceback" in line for line in text_lines)


def _event(level: str, logger: str, message: str) -> tuple[str, str, str]:
    """A line's event without what differs between two runs (ids, timings, numbers)."""
    message = re.sub(r"ws-\S+|r-[\w-]+|\d+(\.\d+)?( ms)?|'[^']*'|\S+\.sqlite3", "#", message)
    return level, logger, message


def test_a_clients_mistake_has_no_traceback_a_bug_keeps_its_own() -> None:
    stream = io.StringIO()
    handler = configure_logging("json", "node-a", stream=stream)
    log = logging.getLogger("ahiko.test_logs")
    token = open_scope(request="r-9", room="room-1", account="7")
    try:
        try:
            raise ApiError(422, "bad_amount", "the amount must be a whole number")
        except ApiError:
            log.exception("a request was refused")
        try:
            raise RuntimeError("a bug")
        except RuntimeError:
            log.exception("a request failed")
    finally:
        close_scope(token)
        logging.getLogger().removeHandler(handler)
    mistake, bug = (json.loads(line) for line in stream.getvalue().splitlines())
    assert mistake["level"] == bug["level"] == "ERROR"  # the level is the caller's choice
    assert "traceback" not in mistake
    assert mistake["mistake"] == "ApiError: the amount must be a whole number"
    assert (mistake["request"], mistake["room"], mistake["account"]) == ("r-9", "room-1", "7")
    assert "RuntimeError: a bug" in bug["traceback"] and "Traceback" in bug["traceback"]
    assert any(isinstance(f, ScopeFilter) for f in handler.filters)


def test_an_unknown_log_format_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AHIKO_LOG_FORMAT", "xml")
    assert main(["serve", "--data-dir", str(tmp_path), "--port", str(free_port())]) == 2
    assert capsys.readouterr().err == (
        "error: AHIKO_LOG_FORMAT must be one of text, json, not 'xml'\n"
    )
