"""The application shell: health, settings, secure cookies, the fairness key, JSON 404s."""

from __future__ import annotations

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from ahiko.server.app import create_app
from ahiko.server.services import CSRF_HEADER
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.rooms import SeatRecord, begin_hand, save_room
from store_helpers import save_seats


def test_health(client):
    response = client.get("/api/health")
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_a_bug_answers_a_json_500_that_tells_nothing_and_is_logged(settings, caplog):
    app = create_app(settings)

    def boom() -> None:
        raise RuntimeError("secret deck order 2c3d4h")

    app.router.routes.insert(0, APIRoute("/api/boom", boom))  # ahead of the static files

    with TestClient(app) as test_client:  # nothing escapes to the server
        response = test_client.get("/api/boom")
        not_found = test_client.get("/api/nothing-here")
    assert response.status_code == 500
    headers = {k for k in not_found.headers if k not in ("content-length", "content-type")}
    assert headers and headers <= set(response.headers)  # the security headers too
    assert len([r for r in caplog.records if r.exc_info]) == 1  # logged once
    assert response.json() == {
        "error": "internal",
        "message": "the server failed; the error is logged",
    }
    assert "2c3d4h" not in response.text
    assert any("2c3d4h" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
    app.state.services.engine.dispose()


def test_fairness_public_key_is_published(client):
    response = client.get("/api/fairness/public-key")
    assert response.status_code == 200
    assert len(bytes.fromhex(response.json()["public_key"])) == 32  # Ed25519


def test_secure_cookie_when_configured(sqlite_url, tmp_path):
    settings = Settings(data_dir=tmp_path, database_url=sqlite_url, secure_cookies=True)
    with TestClient(create_app(settings), headers={CSRF_HEADER: "1"}) as client:
        response = client.post("/api/accounts", json={"username": "ana", "password": "12345678"})
    assert response.status_code == 201
    assert "Secure" in response.headers["set-cookie"]


def test_settings_from_environment_and_options(tmp_path):
    env = {
        "AHIKO_HOST": "0.0.0.0",
        "AHIKO_PORT": "9000",
        "AHIKO_DATA_DIR": str(tmp_path),
        "AHIKO_BOT_RESERVE": "500",
    }
    settings = Settings.from_env(env, port=8123)
    assert (settings.host, settings.port, settings.bot_reserve) == ("0.0.0.0", 8123, 500)
    assert settings.resolved_database_url == f"sqlite:///{tmp_path.resolve()}/ahiko.sqlite3"
    url = "postgresql+psycopg://u@h/db"
    assert Settings.from_env({"AHIKO_DATABASE_URL": url}).resolved_database_url == url
    assert settings.mtt_level_minutes == 10  # issue 20: an MTT's blind levels
    assert Settings.from_env({"AHIKO_MTT_LEVEL_MINUTES": "2"}).mtt_level_minutes == 2
    assert Settings.from_env({"AHIKO_MTT_LEVEL_MINUTES": "0"}).mtt_level_minutes == 1


def test_the_web_client_is_served_at_the_root(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "Ahiko" in response.text


def test_start_up_cancels_a_hand_interrupted_by_a_crash(sqlite_url, tmp_path):
    engine = make_engine(sqlite_url)
    save_room(engine, "r1", "ahiko", {})
    save_seats(engine, "r1", [SeatRecord(0, "bot", "a", 90), SeatRecord(1, "bot", "b", 110)])
    begin_hand(engine, "r1", 7, {0: 100, 1: 100})
    engine.dispose()
    app = create_app(Settings(data_dir=tmp_path, database_url=sqlite_url))
    with TestClient(app):
        [hand] = app.state.recovered_hands
    assert (hand.room_id, hand.hand_no, hand.start_stacks) == ("r1", 7, {0: 100, 1: 100})
