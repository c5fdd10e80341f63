"""What the routes share: settings, the database engine, accounts, the wallet, the clock,
the process's rooms; and the one reader of the session cookie (``Player``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import Request, WebSocket
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ahiko.rooms.log_context import note
from ahiko.server.accounts import Accounts, User
from ahiko.server.errors import ApiError
from ahiko.server.online import online_of
from ahiko.server.settings import Settings
from ahiko.wallet.ledger import Clock
from ahiko.wallet.operations import Wallet

if TYPE_CHECKING:
    from ahiko.rooms.house.lobby import AhikoLobby
    from ahiko.rooms.registry import RoomRegistry

SESSION_COOKIE = "ahiko_session"
CSRF_HEADER = "X-Ahiko-CSRF"


@dataclass(frozen=True)
class Services:
    settings: Settings
    engine: Engine
    clock: Clock
    accounts: Accounts
    wallet: Wallet


@dataclass(frozen=True)
class Player:
    """Who is at the other end of a request or a table socket, as the rooms know them."""

    player_id: str
    name: str


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


def _user_of(connection: HTTPConnection) -> User | None:
    """The one place that reads the session cookie."""
    found: Services | None = getattr(connection.app.state, "services", None)
    token = connection.cookies.get(SESSION_COOKIE)
    if found is None or not token:
        return None
    user = found.accounts.user_for_token(token)
    if user is not None:
        online_of(connection.app).seen(str(user.id))  # "N online" in the lobby
        note(account=str(user.id))  # the request's log lines name its account
    return user


def current_user(request: Request) -> User:
    """The signed-in user, or 401."""
    user = _user_of(request)
    if user is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    return user


def _player(connection: HTTPConnection) -> Player | None:
    user = _user_of(connection)
    return None if user is None else Player(str(user.id), user.username)


async def _player_off_the_loop(connection: HTTPConnection) -> Player | None:
    """``_player`` on a worker thread when there is a session to look up; a request without
    a session cookie (a spectator, the lobby) is answered at once, with no thread hop."""
    if not connection.cookies.get(SESSION_COOKIE):
        return None
    return await run_in_threadpool(_player, connection)


async def http_player(request: Request) -> Player | None:
    """The signed-in account of a request, or None. Tests override this dependency. The
    session's lookup runs on a worker thread: a slow or locked database delays this request,
    never the event loop that serves every table."""
    return await _player_off_the_loop(request)


async def websocket_player(websocket: WebSocket) -> Player | None:
    """The signed-in account of a table socket, or None (a spectator); looked up off the
    event loop, as ``http_player``."""
    return await _player_off_the_loop(websocket)


def room_registry(app: Any) -> RoomRegistry:
    """The process's rooms: built by ``create_app``'s lifespan (or set by a test first)."""
    registry: RoomRegistry | None = getattr(app.state, "room_registry", None)
    if registry is None:
        raise ApiError(503, "unavailable", "the rooms are not open")
    return registry


def ahiko_lobby(app: Any) -> AhikoLobby:
    """The Ahiko house rooms' lobby, opened by ``create_app``'s lifespan."""
    lobby: AhikoLobby | None = getattr(app.state, "ahiko_lobby", None)
    if lobby is None:
        raise ApiError(503, "unavailable", "the Ahiko rooms are not open")
    return lobby
