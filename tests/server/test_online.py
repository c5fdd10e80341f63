"""The lobby's "N online": signed-in accounts seen in the last two minutes (a request with
their session, or a table socket still open); people without an account are not counted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from ahiko.server.online import ONLINE_WINDOW_S, OnlineCount, keep_sockets_seen


class Ticks:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_account_is_online_for_the_window_after_it_was_last_seen() -> None:
    ticks = Ticks()
    online = OnlineCount(ticks)
    online.seen("1")
    online.seen("2")
    online.seen("1")  # twice is still one person
    assert asyncio.run(online.count()) == 2
    ticks.now += ONLINE_WINDOW_S - 1
    online.seen("2")
    ticks.now += 2  # 1 was last seen just over the window ago
    assert asyncio.run(online.count()) == 1


def test_the_site_counts_signed_in_people_not_anonymous_visitors(
    client: TestClient, sign_up: Callable[..., dict[str, Any]]
) -> None:
    assert client.get("/api/online").json() == {"online": 0}
    sign_up("ana")
    assert client.get("/api/me").status_code == 200
    sign_up("bia")  # the client now holds bia's session
    assert client.get("/api/me").status_code == 200
    assert client.get("/api/online").json() == {"online": 2}
    client.cookies.clear()
    assert client.get("/api/ahiko/rooms").status_code == 200  # a visitor, no account
    assert client.get("/api/online").json() == {"online": 2}


def test_an_account_with_a_table_socket_open_stays_online(
    client: TestClient, sign_up: Callable[..., dict[str, Any]]
) -> None:
    """The sockets' accounts are marked seen again by the server (``keep_sockets_seen``),
    so a player at a table, who polls nothing over HTTP, still counts."""
    ana = sign_up("ana")
    rooms = client.get("/api/ahiko/rooms").json()
    entry = (rooms["rooms"] if isinstance(rooms, dict) else rooms)[0]
    app: Any = client.app
    with client.websocket_connect(entry["ws"]):
        assert app.state.limits.accounts() == [str(ana["id"])]
        app.state.online = OnlineCount()  # forget the requests: only the socket remains
        assert client.get("/api/online").json() == {"online": 0}

        async def one_round() -> None:
            accounts = app.state.limits.accounts
            task = asyncio.create_task(keep_sockets_seen(app.state.online, accounts))
            await asyncio.sleep(0)
            task.cancel()

        asyncio.run(one_round())
        assert client.get("/api/online").json() == {"online": 1}
