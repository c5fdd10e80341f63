"""Accounts and sessions over HTTP: validation, argon2id, one error for unknown user and wrong
password, login rate limiting, cookie flags, logout, CSRF header."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from ahiko.server.services import CSRF_HEADER, SESSION_COOKIE
from ahiko.store.schema import users


def test_sign_up_creates_the_account_with_5000_coins_and_signs_in(client, sign_up):
    body = sign_up("Ana_1")
    assert body["username"] == "Ana_1" and body["wallet"] == 5_000
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["username"] == "Ana_1"


def test_passwords_are_stored_with_argon2id(client, sign_up, services):
    sign_up("ana", "correct horse")
    with services.engine.connect() as conn:
        stored = conn.execute(select(users.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored


def test_session_cookie_is_httponly_and_samesite_lax(client):
    response = client.post("/api/accounts", json={"username": "ana", "password": "12345678"})
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP in this test; see the secure settings test


@pytest.mark.parametrize(
    "username", ["ab", "a" * 21, "ana!", "ana maria", "an-ã", "", "ana\n"], ids=repr
)
def test_username_must_be_3_to_20_letters_digits_or_underscores(client, username, services):
    response = client.post("/api/accounts", json={"username": username, "password": "12345678"})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_username"
    with services.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(users)).scalar_one() == 0


def test_password_needs_8_characters(client):
    response = client.post("/api/accounts", json={"username": "ana", "password": "1234567"})
    assert response.status_code == 422
    assert response.json() == {
        "error": "invalid_password",
        "message": "password must be 8 to 256 characters",
    }


def test_malformed_body_is_a_json_error(client):
    response = client.post("/api/accounts", json={"username": "ana"})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_request"
    assert "password" in response.json()["message"]


def test_usernames_are_unique_ignoring_case(client, sign_up):
    sign_up("ana")
    response = client.post("/api/accounts", json={"username": "ANA", "password": "12345678"})
    assert response.status_code == 409 and response.json()["error"] == "username_taken"


@pytest.mark.parametrize("other", ["joao", "JOÃO", "Joāo", "jo\u0061\u0303o"], ids=repr)
def test_usernames_may_carry_accents_and_stay_unique_ignoring_case_and_accents(
    client, sign_up, other
):
    sign_up("joão")
    response = client.post("/api/accounts", json={"username": other, "password": "12345678"})
    assert response.status_code == 409 and response.json()["error"] == "username_taken"
    client.cookies.clear()
    for name in ("joão", "JOAO"):  # signing in ignores case and accents too
        answer = client.post("/api/session", json={"username": name, "password": "correct horse"})
        assert answer.status_code == 200
        assert client.get("/api/me").json()["username"] == "joão"


def test_same_error_for_unknown_user_and_wrong_password(client, sign_up):
    sign_up("ana", "correct horse")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"username": "ana", "password": "wrong horse"})
    unknown = client.post("/api/session", json={"username": "nobody", "password": "wrong horse"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert "set-cookie" not in wrong.headers


def test_log_in_and_out(client, sign_up):
    sign_up("ana", "correct horse")
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    response = client.post("/api/session", json={"username": "ana", "password": "correct horse"})
    assert response.status_code == 200
    token = client.cookies.get(SESSION_COOKIE)
    assert client.get("/api/me").status_code == 200
    out = client.delete("/api/session")
    assert out.status_code == 204
    assert f'{SESSION_COOKIE}=""' in out.headers["set-cookie"]
    assert "Max-Age=0" in out.headers["set-cookie"]
    client.cookies.set(SESSION_COOKIE, token)  # the old token is dead server-side too
    me = client.get("/api/me")
    assert me.status_code == 401 and me.json()["error"] == "not_signed_in"


def test_login_rate_limit_per_username(client, sign_up, clock):
    sign_up("ana", "correct horse")
    client.cookies.clear()
    for _ in range(5):
        bad = client.post("/api/session", json={"username": "ana", "password": "wrong horse"})
        assert bad.status_code == 401
    blocked = client.post("/api/session", json={"username": "ana", "password": "correct horse"})
    assert blocked.status_code == 429 and blocked.json()["error"] == "too_many_attempts"
    clock.advance(minutes=5, seconds=1)
    again = client.post("/api/session", json={"username": "ana", "password": "correct horse"})
    assert again.status_code == 200


def test_login_rate_limit_per_ip(client, sign_up):
    sign_up("ana", "correct horse")
    client.cookies.clear()
    for n in range(20):
        response = client.post("/api/session", json={"username": f"u{n}", "password": "x" * 8})
        assert response.status_code == 401
    blocked = client.post("/api/session", json={"username": "ana", "password": "correct horse"})
    assert blocked.status_code == 429


def test_state_changing_requests_need_the_csrf_header(client, services):
    response = client.post(
        "/api/accounts",
        json={"username": "ana", "password": "12345678"},
        headers={CSRF_HEADER: ""},
    )
    assert response.status_code == 403 and response.json()["error"] == "csrf"
    with services.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(users)).scalar_one() == 0
