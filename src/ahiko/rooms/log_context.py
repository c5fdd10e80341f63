"""What a log line is about: the request or the command, the room, the account.

A ``LogScope`` is opened where work for someone begins (an HTTP request or a table socket
at the server's edge, a room's own task) and held in a context variable; the code below
fills in what it learns (the account once the session is read, the room once the socket is
routed, each command's id). The object itself is shared, not copied: a field filled on a
worker thread (a session looked up off the loop) is seen by the request's later lines.
Logging reads it (``ahiko.server.logging_setup``); nothing else does.

>>> token = open_scope(request="r-1")
>>> note(account="42")
>>> (current_scope().request, current_scope().account)
('r-1', '42')
>>> close_scope(token)
>>> current_scope() is None
True
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from dataclasses import dataclass


@dataclass(slots=True)
class LogScope:
    request: str | None = None  # an HTTP request's or a table socket's id
    command: str | None = None  # the id a client gave its frame
    room_id: str | None = None
    account: str | None = None

    def fields(self) -> dict[str, str | None]:
        """The scope as a log line names it."""
        return {
            "request": self.request,
            "command": self.command,
            "room": self.room_id,
            "account": self.account,
        }


_scope: ContextVar[LogScope | None] = ContextVar("ahiko_log_scope", default=None)


def current_scope() -> LogScope | None:
    return _scope.get()


def open_scope(
    *,
    request: str | None = None,
    room: str | None = None,
    account: str | None = None,
) -> Token[LogScope | None]:
    """A new scope for the work that starts here (and the tasks it starts)."""
    return _scope.set(LogScope(request=request, room_id=room, account=account))


def close_scope(token: Token[LogScope | None]) -> None:
    _scope.reset(token)


def note(
    *,
    command: str | None = None,
    room: str | None = None,
    account: str | None = None,
) -> None:
    """Fill in the current scope (no scope: nothing to do). A None leaves a field as it is."""
    scope = _scope.get()
    if scope is None:
        return
    if command is not None:
        scope.command = command
    if room is not None:
        scope.room_id = room
    if account is not None:
        scope.account = account
