"""The HTTP wall (issue 9): sessions on every write, CSRF, origins, cookies, rate limits,
security headers and the Content-Security-Policy, body and display-text limits."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from security_app import PASSWORD, make_app

from ahiko.rooms.names import display_text_problem
from ahiko.server.security import (
    UNSAFE_METHODS,
    RateLimit,
    SecurityPolicy,
    SlidingWindow,
    harden_cookie,
)
from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE

WEB_DIR = Path(__file__).resolve().parents[2] / "src" / "ahiko" / "web"
# Routes that exist to obtain or drop a session.
SESSION_ROUTES = {("POST", "/api/accounts"), ("POST", "/api/session"), ("DELETE", "/api/session")}
# A valid body for each write route that takes one, so the 401 cannot hide behind a 422.
VALID_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/api/rooms"): {"name": "Mesa"},
    ("POST", "/api/mtt"): {"name": "Noite"},
}


def _write_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every documented write (the OpenAPI schema lists each route of every router)."""
    found = []
    for path, operations in app.openapi()["paths"].items():
        for method in sorted(m.upper() for m in operations):
            if method in UNSAFE_METHODS and (method, path) not in SESSION_ROUTES:
                found.append((method, path))
    return found


def _recreational_rooms(client: TestClient) -> list[dict[str, Any]]:
    return [room for room in client.get("/api/rooms").json() if room["kind"] != "ahiko"]


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "r-nobody", path)


def test_every_state_changing_route_requires_a_session(app: FastAPI, client: TestClient) -> None:
    routes = _write_routes(app)
    assert ("POST", "/api/wallet/claim") in routes and ("POST", "/api/rooms") in routes
    for method, path in routes:
        body = VALID_BODIES.get((method, path))
        response = client.request(method, _concrete(path), json=body)
        if body is not None or "{" not in path:
            assert response.status_code == 401, (method, path, response.text)
        else:  # the session check may come after the lookup of a room that does not exist
            assert response.status_code in (401, 404, 422), (method, path, response.text)
        assert response.json()["error"], (method, path)


def test_claim_without_session_changes_no_balance(
    client: TestClient, sign_up: Callable[[str], dict[str, Any]]
) -> None:
    before = sign_up("ana")["wallet"]
    client.cookies.clear()
    assert client.post("/api/wallet/claim").status_code == 401
    client.post("/api/session", json={"username": "ana", "password": PASSWORD})
    assert client.get("/api/me").json()["wallet"] == before


def test_csrf_header_is_required_on_writes(
    app: FastAPI, client: TestClient, sign_up: Callable[[str], dict[str, Any]]
) -> None:
    sign_up("ana")
    token = client.cookies[SESSION_COOKIE]
    with TestClient(app, cookies={SESSION_COOKIE: token}) as bare:
        response = bare.post("/api/rooms", json={"name": "Mesa"})
        assert response.status_code == 403 and response.json()["error"] == "csrf"
        # A cross-site HTML form: urlencoded, no custom header.
        form = bare.post("/api/session", data={"username": "ana", "password": PASSWORD})
        assert form.status_code == 403
        assert bare.get("/api/me").status_code == 200  # reads need no header


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://testserver.evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_writes_from_a_foreign_origin_are_refused(
    client: TestClient, sign_up: Callable[[str], dict[str, Any]], headers: dict[str, str]
) -> None:
    sign_up("ana")
    response = client.post("/api/rooms", json={"name": "Mesa"}, headers=headers)
    assert response.status_code == 403 and response.json()["error"] == "bad_origin"
    assert _recreational_rooms(client) == []


def test_writes_from_our_own_origin_pass(
    client: TestClient, sign_up: Callable[[str], dict[str, Any]]
) -> None:
    sign_up("ana")
    headers = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/rooms", json={"name": "Mesa"}, headers=headers).status_code == 201


def test_extra_allowed_origins_come_from_the_environment() -> None:
    policy = SecurityPolicy.from_env({"AHIKO_ALLOWED_ORIGINS": "https://play.example/, x"})
    assert policy.extra_origins == frozenset({"https://play.example", "x"})


def _cookie_attributes(set_cookie: str) -> dict[str, str]:
    parts = [part.strip() for part in set_cookie.split(";")]
    return {p.split("=", 1)[0].lower(): [*p.split("=", 1), ""][1] for p in parts[1:]}


def test_session_cookie_is_httponly_and_samesite_and_not_secure_over_http(
    client: TestClient,
) -> None:
    response = client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
    attributes = _cookie_attributes(response.headers["set-cookie"])
    assert "httponly" in attributes
    assert attributes["samesite"].lower() in ("lax", "strict")
    assert "secure" not in attributes


@pytest.mark.parametrize(
    ("settings", "client_options", "headers"),
    [
        ({"secure_cookies": True}, {}, {}),
        ({}, {"base_url": "https://testserver"}, {}),
        ({}, {"client": ("127.0.0.1", 40000)}, {"X-Forwarded-Proto": "https"}),
    ],
    ids=["setting", "https", "trusted-proxy"],
)
def test_session_cookie_is_secure_behind_https(
    sqlite_url: str,
    tmp_path: Path,
    settings: dict[str, Any],
    client_options: dict[str, Any],
    headers: dict[str, str],
) -> None:
    app = make_app(sqlite_url, tmp_path, **settings)
    if headers:  # only a proxy listed in AHIKO_TRUSTED_PROXIES is believed
        app.state.security = replace(app.state.security, trusted_proxies=("127.0.0.1",))
    with TestClient(app, headers={CSRF_HEADER: "1", **headers}, **client_options) as client:
        response = client.post("/api/accounts", json={"username": "ana", "password": PASSWORD})
        assert response.status_code == 201
        assert "secure" in _cookie_attributes(response.headers["set-cookie"])
        if settings or client_options.get("base_url"):
            assert "max-age" in response.headers["strict-transport-security"]


def test_forwarded_proto_from_an_untrusted_address_does_not_make_cookies_secure(
    client: TestClient,
) -> None:
    response = client.post(
        "/api/accounts",
        json={"username": "ana", "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert "secure" not in _cookie_attributes(response.headers["set-cookie"])


def test_harden_cookie_adds_missing_attributes_only() -> None:
    assert harden_cookie("a=1", secure=True) == "a=1; HttpOnly; SameSite=lax; Secure"
    assert harden_cookie("a=1; httponly; samesite=strict", secure=False) == (
        "a=1; httponly; samesite=strict"
    )


def test_sign_up_is_rate_limited_per_address(app: FastAPI, client: TestClient) -> None:
    app.state.security = SecurityPolicy(sign_up=RateLimit(3, 3600))
    codes = [
        client.post("/api/accounts", json={"username": f"u{k}x", "password": PASSWORD}).status_code
        for k in range(4)
    ]
    assert codes == [201, 201, 201, 429]
    blocked = client.post("/api/accounts", json={"username": "late", "password": PASSWORD})
    assert blocked.json()["error"] == "rate_limited"
    assert int(blocked.headers["retry-after"]) > 0
    assert (
        client.post("/api/session", json={"username": "late", "password": PASSWORD}).status_code
        == 401
    )


def test_log_in_is_rate_limited_per_address_even_when_it_succeeds(
    app: FastAPI, client: TestClient, sign_up: Callable[[str], dict[str, Any]]
) -> None:
    app.state.security = SecurityPolicy(log_in=RateLimit(2, 300))
    sign_up("ana")
    credentials = {"username": "ana", "password": PASSWORD}
    codes = [client.post("/api/session", json=credentials).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_sliding_window_forgets_old_attempts_and_bounds_its_memory() -> None:
    now = [0.0]
    window = SlidingWindow(RateLimit(2, 10), lambda: now[0], max_keys=3)
    assert window.allow("a") and window.allow("a") and not window.allow("a")
    now[0] = 10.5
    assert window.allow("a")
    for key in "bcdef":
        window.allow(key)
    assert len(window._events) == 3


def test_security_headers_and_csp_without_inline_scripts(client: TestClient) -> None:
    for path in ("/", "/api/health", "/api/nothing-here"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["script-src"] == "'self'", path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "ws://testserver" in directives["connect-src"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "same-origin"
    assert client.get("/api/health").headers["cache-control"] == "no-store"


def test_a_forged_host_header_cannot_inject_into_the_csp(client: TestClient) -> None:
    csp = client.get("/", headers={"Host": "evil; script-src *"}).headers["content-security-policy"]
    assert "*" not in csp and csp.count("script-src") == 1


def test_served_index_html_has_no_inline_script_or_handler(client: TestClient) -> None:
    html = client.get("/").text
    assert "<script" in html
    for tag in re.findall(r"<script\b[^>]*>", html, re.IGNORECASE):
        assert re.search(r"\bsrc=", tag), tag
    bodies = re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.IGNORECASE | re.DOTALL)
    assert bodies and all(not body.strip() for body in bodies)
    assert not re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE)
    assert not re.search(r"\sstyle\s*=", html, re.IGNORECASE)
    assert "javascript:" not in html.lower()


def test_web_client_never_parses_strings_as_html() -> None:
    """User text (names, room names) reaches the page only as text nodes: no innerHTML and
    friends anywhere in the client, no string evaluation."""
    sinks = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function"
    )
    files = sorted(WEB_DIR.rglob("*.js"))
    assert files
    offenders = [f"{f.name}: {m.group(0)}" for f in files for m in sinks.finditer(f.read_text())]
    assert offenders == []


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x" * 61, "at most 60"),
        ("   ", "blank"),
        (" Mesa", "spaces"),
        ("Mesa\n2", "U+000A"),
        ("Mesa\u202eevil", "U+202E"),  # right-to-left override
        ("Me\u200bsa", "U+200B"),  # zero-width space
        ("Mesa  dupla", "repeated"),
        ("Cafe\u0301", "normal form"),
    ],
)
def test_room_names_are_limited_in_length_and_characters(
    client: TestClient, sign_up: Callable[[str], dict[str, Any]], name: str, reason: str
) -> None:
    sign_up("ana")
    response = client.post("/api/rooms", json={"name": name})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "invalid_text" and reason in response.json()["message"]
    assert _recreational_rooms(client) == []


def test_room_names_keep_ordinary_text_verbatim(
    client: TestClient, sign_up: Callable[[str], dict[str, Any]]
) -> None:
    sign_up("ana")
    name = "Mesa <b>da Ana</b> & Café ♠"
    response = client.post("/api/rooms", json={"name": name})
    assert response.status_code == 201
    assert response.json()["name"] == name  # JSON carries it as data; the client shows text


@pytest.mark.parametrize("username", ["<script>", "ana\u202e", "a" * 21, "an a"])
def test_usernames_are_limited_in_length_and_characters(client: TestClient, username: str) -> None:
    response = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 422


def test_display_text_problem_accepts_letters_of_every_script() -> None:
    for text in ("Mesa 1", "São Paulo", "東京", "Ωμέγα", "Ação!"):
        assert display_text_problem(text) is None, text
    assert display_text_problem(42) == "must be text"


def test_oversized_request_bodies_are_refused(client: TestClient) -> None:
    response = client.post(
        "/api/session",
        content=b'{"username": "' + b"a" * 70_000 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413 and response.json()["error"] == "too_large"


def test_oversized_chunked_bodies_never_reach_a_route(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"username": "'
        for _ in range(20):
            yield b"a" * 8192
        yield b'", "password": "x"}'

    response = client.post(
        "/api/session", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 413, 422), response.text
    assert "set-cookie" not in response.headers
