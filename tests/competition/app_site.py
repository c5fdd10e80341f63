"""People on the real app, for the sit & go and MTT route tests: sign up, read a wallet."""

from __future__ import annotations

from fastapi.testclient import TestClient

PASSWORD = "correct horse"


def sign_up(site: TestClient, name: str) -> dict[str, str]:
    answer = site.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    site.cookies.clear()
    return {"ahiko_session": answer.cookies["ahiko_session"]}


def balance(site: TestClient, who: dict[str, str]) -> int:
    return int(site.get("/api/wallet", cookies=who).json()["balance"])
