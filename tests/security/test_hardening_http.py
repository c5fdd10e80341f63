"""Issue 17, the HTTP side, each item attacked the way the red team found it: oversized
headers, the interpreter check, log-in guessing storms and races, concurrent password hashes,
deeply nested JSON, the error middleware under a failing socket, forwarded addresses.
(Timings are measured by ``bench/attack.py``, not asserted here.)"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import starlette.requests
from argon2 import PasswordHasher
from fastapi import APIRouter, FastAPI, WebSocket
from fastapi.testclient import TestClient
from security_app import FAST_HASHER, PASSWORD
from starlette.websockets import WebSocketDisconnect

from ahiko.server import accounts as accounts_module
from ahiko.server.accounts import HashGate
from ahiko.server.app import create_app
from ahiko.server.cli import check_interpreter
from ahiko.server.interpreter import interpreter_problem, minimum_safe
from ahiko.server.security import RateLimit, forwarded_scope, json_too_deep
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings

# The red team's header: a 48 KB cookie that makes http.cookies' unquoting quadratic.
ATTACK_COOKIE = "a=" + '"' + "\\" * 48_000 + '"'


def _app(sqlite_url: str, tmp_path: Path, **kwargs: Any) -> FastAPI:
    app = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url),
        password_hasher=kwargs.pop("hasher", FAST_HASHER),
        **kwargs,
    )
    # The per-address log-in window of the middleware is not what these tests attack.
    app.state.security = replace(
        app.state.security,
        sign_up=RateLimit(1_000_000, 1.0),
        log_in=RateLimit(1_000_000, 1.0),
        trusted_proxies=("127.0.0.1",),
    )
    return app


@pytest.fixture
def app(sqlite_url: str, tmp_path: Path) -> Iterator[FastAPI]:
    found = _app(sqlite_url, tmp_path)
    yield found
    found.state.services.engine.dispose()


def _client(app: FastAPI, address: str = "10.0.0.1") -> TestClient:
    """A client behind the trusted proxy, by default at ``address`` (``_from`` changes it per
    request)."""
    return TestClient(
        app,
        headers={CSRF_HEADER: "1", "X-Forwarded-For": address},
        client=("127.0.0.1", 50_000),
    )


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


# --- one request must not stall the process ----------------------------------------------------
def test_an_oversized_cookie_is_refused_431_before_any_cookie_is_parsed(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    real_parser = starlette.requests.cookie_parser

    def counting_parser(cookie_string: str) -> dict[str, str]:
        parsed.append(cookie_string[:10])
        return real_parser(cookie_string)

    monkeypatch.setattr(starlette.requests, "cookie_parser", counting_parser)
    with _client(app) as client:
        for path in ("/api/me", "/api/wallet", "/api/health"):
            response = client.get(path, headers={"Cookie": ATTACK_COOKIE})
            assert response.status_code == 431, path
            assert response.json()["error"] == "headers_too_large"
            assert "8192 bytes" in response.json()["message"]
        assert parsed == []  # refused before the quadratic parser ran
        assert client.get("/api/health").json()["status"] == "ok"  # the site still answers
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(
                "/ws/rooms/nowhere", headers={"Cookie": ATTACK_COOKIE}
            ) as socket,
        ):
            socket.receive_json()
        assert refused.value.code == 4403
        assert parsed == []
        ordinary = client.get("/api/me", headers={"Cookie": "ahiko_session=x" + "y" * 40})
        assert ordinary.status_code == 401 and parsed  # ordinary cookies are still read


def test_oversized_headers_are_refused_whatever_their_name(app: FastAPI) -> None:
    with _client(app) as client:
        many = {f"x-h{n}": "v" * 200 for n in range(60)}
        assert client.get("/api/health", headers=many).status_code == 431
        assert client.get("/api/health", headers={"x-one": "v" * 7_000}).status_code == 200


@pytest.mark.parametrize(
    ("version", "safe"),
    [
        ((3, 11, 7), False),
        ((3, 11, 9), False),
        ((3, 11, 10), True),
        ((3, 12, 5), False),
        ((3, 12, 6), True),
        ((3, 13, 0), True),
        ((3, 14, 1), True),
    ],
)
def test_the_minimum_safe_interpreter(version: tuple[int, int, int], safe: bool) -> None:
    problem = interpreter_problem(version)
    assert (problem is None) is safe
    if not safe:
        wanted = ".".join(map(str, minimum_safe(version) or ()))
        assert f"upgrade to {wanted}" in (problem or "")


def test_start_up_warns_on_an_unsafe_interpreter_and_refuses_a_raised_header_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ahiko.server.interpreter as interpreter

    monkeypatch.setattr(interpreter.sys, "version_info", (3, 11, 7, "final", 0))
    assert check_interpreter({}) is None
    assert "Python 3.11.7 has a quadratic cookie parser" in capsys.readouterr().err
    refusal = check_interpreter({"AHIKO_MAX_HEADER_BYTES": "65536"})
    assert refusal is not None and "AHIKO_MAX_HEADER_BYTES is 65536" in refusal
    monkeypatch.setattr(interpreter.sys, "version_info", (3, 11, 10, "final", 0))
    assert check_interpreter({"AHIKO_MAX_HEADER_BYTES": "65536"}) is None
    assert capsys.readouterr().err == ""


# --- log-in throttling protects the owner ------------------------------------------------------
def _sign_up(client: TestClient, username: str = "ana") -> None:
    response = client.post(
        "/api/accounts",
        json={"username": username, "password": PASSWORD},
        headers=_from("10.9.9.9"),
    )
    assert response.status_code == 201, response.text
    client.cookies.clear()


def _log_in(client: TestClient, address: str, password: str, username: str = "ana") -> int:
    response = client.post(
        "/api/session", json={"username": username, "password": password}, headers=_from(address)
    )
    return response.status_code


def test_the_owner_logs_in_after_a_guessing_storm_from_another_address(app: FastAPI) -> None:
    with _client(app) as client:
        _sign_up(client)
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200  # the owner's usual address
        client.cookies.clear()
        storm = [_log_in(client, "10.6.6.6", f"guess-{n:04d}") for n in range(30)]
        assert storm[:5] == [401] * 5 and set(storm[5:]) == {429}  # 5 per account
        assert _log_in(client, "10.6.6.6", PASSWORD) == 429  # the failing address stays refused
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200
        assert client.get("/api/me").json()["username"] == "ana"


def test_a_storm_spread_over_addresses_is_refused_by_the_account_limit_but_not_its_owner(
    app: FastAPI,
) -> None:
    with _client(app) as client:
        _sign_up(client)
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200  # the owner's usual address
        client.cookies.clear()
        storm = [_log_in(client, f"10.7.0.{n}", f"guess-{n}") for n in range(8)]
        assert storm == [401] * 5 + [429] * 3  # one guess each, five for the account
        refused = client.post(
            "/api/session",
            json={"username": "ana", "password": PASSWORD},
            headers=_from("10.7.0.3"),
        )
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_attempts"
        assert "too many failed logins" in refused.json()["message"]
        assert _log_in(client, "10.0.0.2", PASSWORD) == 429  # a new address waits too
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200  # the owner's does not


def test_40_concurrent_wrong_guesses_from_40_addresses_check_at_most_the_account_limit(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The red team's race: 40 wrong guesses at once, each from its own address, against a
    limit of 5 per account; 10 were checked. Each is counted before its hash, atomically,
    per account and per address: at most 5 passwords are checked."""
    checked = Counting(FAST_HASHER)
    app = _app(sqlite_url, tmp_path, hasher=checked, hash_gate=HashGate(workers=4, queue=100))
    with _client(app) as client:
        _sign_up(client)
        checked.verified = 0
        with ThreadPoolExecutor(40) as pool:
            statuses = list(
                pool.map(lambda n: _log_in(client, f"10.8.{n}.1", f"guess-{n}"), range(40))
            )
    limit = accounts_module.MAX_FAILURES_PER_USERNAME
    assert statuses.count(401) == limit and statuses.count(429) == 40 - limit, statuses
    assert checked.verified == limit
    app.state.services.engine.dispose()


def test_concurrent_guesses_are_counted_before_their_password_is_checked(
    sqlite_url: str, tmp_path: Path
) -> None:
    checked = Counting(FAST_HASHER)
    app = _app(sqlite_url, tmp_path, hasher=checked, hash_gate=HashGate(workers=4, queue=100))
    with _client(app) as client:
        _sign_up(client)
        checked.verified = 0
        with ThreadPoolExecutor(40) as pool:
            statuses = list(
                pool.map(lambda n: _log_in(client, "10.6.6.6", f"guess-{n}"), range(40))
            )
    limit = accounts_module.MAX_FAILURES_PER_USERNAME
    assert statuses.count(401) == limit and statuses.count(429) == 40 - limit
    assert checked.verified == limit  # none slipped through
    # Across accounts the address's own limit holds.
    with _client(app) as client, ThreadPoolExecutor(40) as pool:
        statuses = list(
            pool.map(lambda n: _log_in(client, "10.6.6.7", "guess", f"user{n}"), range(40))
        )
    limit = accounts_module.MAX_FAILURES_PER_IP
    assert statuses.count(401) == limit and statuses.count(429) == 40 - limit
    app.state.services.engine.dispose()


class Counting(PasswordHasher):
    """A hasher that counts its checks and the most that ran at once; ``hold`` (when set)
    keeps every check waiting until it is released."""

    def __init__(self, inner: PasswordHasher, hold: threading.Event | None = None) -> None:
        super().__init__(inner.time_cost, inner.memory_cost, inner.parallelism)
        self.verified = 0
        self.running = 0
        self.peak = 0
        self.hold = hold
        self._lock = threading.Lock()

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        with self._lock:
            self.verified += 1
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            if self.hold is not None:
                self.hold.wait(timeout=30)
            return super().verify(hash, password)
        finally:
            with self._lock:
                self.running -= 1


# --- password hashing cannot exhaust memory ----------------------------------------------------
def test_40_concurrent_bad_log_ins_hash_at_most_two_at_once_and_the_rest_get_429(
    sqlite_url: str, tmp_path: Path
) -> None:
    hold = threading.Event()
    checked = Counting(FAST_HASHER, hold)
    gate = HashGate(workers=2, queue=3)
    app = _app(sqlite_url, tmp_path, hasher=checked, hash_gate=gate)
    answers: list[tuple[int, str | None]] = []
    lock = threading.Lock()

    def attempt(client: TestClient, n: int) -> None:
        response = client.post(
            "/api/session",
            json={"username": "ana", "password": f"bad-{n}"},
            headers=_from(f"10.8.0.{n}"),
        )
        with lock:
            answers.append((response.status_code, response.headers.get("retry-after")))
            if sum(1 for status, _ in answers if status == 429) == 35:
                hold.set()  # every extra attempt was shed while 5 held their places

    with _client(app) as client:
        _sign_up(client)
        checked.verified = 0
        with ThreadPoolExecutor(40) as pool:
            list(pool.map(lambda n: attempt(client, n), range(40)))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [401] * 5 + [429] * 35  # 2 hashing + 3 waiting; 35 shed at once
    assert all(int(wait or 0) >= 1 for status, wait in answers if status == 429)
    assert checked.peak <= 2 and gate.peak_in_flight <= 2 and checked.verified == 5
    assert gate.shed == 35
    app.state.services.engine.dispose()


def test_a_shed_log_in_is_not_counted_as_a_failure(sqlite_url: str, tmp_path: Path) -> None:
    gate = HashGate(workers=1, queue=0)
    app = _app(sqlite_url, tmp_path, hash_gate=gate)
    with _client(app) as client:
        _sign_up(client)
        gate.admit()  # the only place is taken
        for _ in range(10):
            busy = client.post("/api/session", json={"username": "ana", "password": PASSWORD})
            assert busy.status_code == 429 and busy.json()["error"] == "busy"
            assert int(busy.headers["retry-after"]) >= 1
        gate.release()
        assert _log_in(client, "10.0.0.1", PASSWORD) == 200
    app.state.services.engine.dispose()


# --- bad input always gets an answer -----------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/session", "/api/accounts", "/api/rooms"])
def test_deeply_nested_json_gets_a_json_400(app: FastAPI, path: str) -> None:
    body = "[" * 30_000 + "]" * 30_000
    with _client(app) as client:
        response = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"] == "too_deep"
        nested_object = '{"username": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}"
        response = client.post(path, content=nested_object)
        assert response.status_code == 400 and response.json()["error"] == "too_deep"
        assert client.get("/api/health").status_code == 200


def test_json_depth_ignores_brackets_inside_strings() -> None:
    assert not json_too_deep('{"name": "' + "[" * 500 + '"}')
    assert not json_too_deep('{"a": "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert json_too_deep("[" * 33 + "]" * 33)
    assert not json_too_deep("[" * 32 + "]" * 32)


def test_deeply_nested_json_over_the_socket_gets_an_error_frame(app: FastAPI) -> None:
    with _client(app) as client:
        room_id = client.get("/api/ahiko/rooms").json()[0]["id"]
        _nested_frame_gets_an_error(client, room_id)


def _nested_frame_gets_an_error(client: TestClient, room_id: str) -> None:
    with client.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        socket.receive_json()  # the room's first frame
        socket.send_text("[" * 2_000 + "]" * 2_000)
        frame = _next_error(socket)
        assert frame["code"] == "malformed" and "nests at most 32" in frame["message"]
        socket.send_json({"t": "snapshot", "id": "after"})
        assert _next_of(socket, "ack")["id"] == "after"  # the connection is still there


def _next_error(socket: Any) -> dict[str, Any]:
    return _next_of(socket, "error")


def _next_of(socket: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        frame: dict[str, Any] = socket.receive_json()
        if frame.get("t") == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def test_the_error_middleware_survives_a_failing_socket(
    sqlite_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    router = APIRouter()

    @router.websocket("/ws/boom")
    async def boom(websocket: WebSocket) -> None:
        await websocket.accept()
        raise RuntimeError("secret card Ah")

    @router.websocket("/ws/early-boom")
    async def early_boom(websocket: WebSocket) -> None:
        raise RuntimeError("before the accept")

    app = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url),
        routers=[router],
        password_hasher=FAST_HASHER,
    )
    caplog.set_level(logging.ERROR, logger="ahiko.server.errors")
    with TestClient(app) as client:
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect("/ws/boom") as s,
        ):
            s.receive_text()
        assert closed.value.code == 1011 and "Ah" not in (closed.value.reason or "")
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws/early-boom") as s,
        ):
            s.receive_text()
        assert refused.value.code == 1008
        assert client.get("/api/health").status_code == 200
    logged = [r for r in caplog.records if r.name == "ahiko.server.errors"]
    assert len(logged) == 2 and all(r.exc_info for r in logged)
    app.state.services.engine.dispose()


# --- X-Forwarded-For only from configured proxies ---------------------------------------------
def test_forwarded_for_is_believed_only_from_a_configured_proxy() -> None:
    scope = {
        "type": "http",
        "client": ("127.0.0.1", 5000),
        "headers": [(b"x-forwarded-for", b"6.6.6.6, 10.0.0.2"), (b"x-forwarded-proto", b"https")],
        "scheme": "http",
    }
    assert forwarded_scope(scope, ("10.0.0.0/8",)) is scope  # 127.0.0.1 is not a proxy here
    through = forwarded_scope(scope, ("127.0.0.1", "10.0.0.0/8"))
    assert through["client"] == ("6.6.6.6", 0) and through["scheme"] == "https"
    direct = forwarded_scope({**scope, "client": ("6.6.6.6", 1)}, ("127.0.0.1",))
    assert direct["client"] == ("6.6.6.6", 1) and direct["scheme"] == "http"


def test_a_spoofed_forwarded_for_does_not_escape_the_per_address_limit(
    sqlite_url: str, tmp_path: Path
) -> None:
    app = create_app(
        Settings(data_dir=tmp_path / "data", database_url=sqlite_url),
        password_hasher=FAST_HASHER,
    )
    app.state.security = replace(app.state.security, log_in=RateLimit(3, 300))
    assert app.state.security.trusted_proxies == ()  # the default: nobody is a proxy
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        statuses = [
            client.post(
                "/api/session",
                json={"username": "ana", "password": "x" * 8},
                headers={"X-Forwarded-For": f"10.1.1.{n}"},
            ).status_code
            for n in range(5)
        ]
    assert statuses == [401, 401, 401, 429, 429]
    app.state.services.engine.dispose()


# --- /docs and /redoc --------------------------------------------------------------------------
def test_the_api_pages_are_off_unless_configured_and_load_no_foreign_script(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(sqlite_url, tmp_path)
    with _client(app) as client:
        for path in ("/docs", "/redoc"):
            response = client.get(path)
            assert response.status_code == 404
            assert "cdn." not in response.text and "<script" not in response.text
            assert "script-src 'self'" in response.headers["content-security-policy"]
        assert client.get("/openapi.json").json()["info"]["title"] == "Ahiko"
    app.state.services.engine.dispose()
    monkeypatch.setenv("AHIKO_API_DOCS", "1")  # a developer's opt-in
    app = create_app(
        Settings(data_dir=tmp_path / "data2", database_url=sqlite_url),
        password_hasher=FAST_HASHER,
    )
    with TestClient(app) as client:
        assert client.get("/docs").status_code == 200
        assert "content-security-policy" not in client.get("/docs").headers
        assert "script-src 'self'" in client.get("/api/health").headers["content-security-policy"]
    app.state.services.engine.dispose()
