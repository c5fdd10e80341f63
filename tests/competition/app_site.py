"""People on the real app, for the sit & go and MTT route tests: sign up, read a wallet."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse"


class PeopleSite(TestClient):
    """A client that several people share, each request naming whose it is: ``cookies=``
    becomes that request's ``Cookie`` header (per-request cookies are deprecated in httpx's
    client because a jar shared between people is ambiguous; here nothing is shared)."""

    def request(  # type: ignore[override]
        self, method: str, url: Any, *, cookies: dict[str, str] | None = None, **kwargs: Any
    ) -> Any:
        if cookies:
            headers = dict(kwargs.pop("headers", None) or {})
            headers["cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
            kwargs["headers"] = headers
        return super().request(method, url, **kwargs)


def sign_up(site: TestClient, name: str) -> dict[str, str]:
    answer = site.post("/api/accounts", json={"username": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    site.cookies.clear()
    return {"ahiko_session": answer.cookies["ahiko_session"]}


def balance(site: TestClient, who: dict[str, str]) -> int:
    return int(site.get("/api/wallet", cookies=who).json()["balance"])
