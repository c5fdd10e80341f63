"""The session cookie, read by a parser of our own before Starlette parses any cookie.

Starlette unquotes every cookie value with ``http.cookies._unquote``, which is quadratic on
backslashes before Python 3.11.10 and 3.12.6 (CVE-2024-7592): a ``Cookie`` header of 8,000
backslashes fits under the 8 KiB header cap and still costs a fifth of a second of the event
loop per request on 3.11.7, so one logged-out client in a loop made every table wait.

Ahiko reads one cookie, its session. ``SessionCookieOnly`` sits in front of everything and
replaces the request's ``Cookie`` headers with that one cookie, found by a single linear pass
over the raw bytes and kept only when its value is a plain session token (the alphabet of
``secrets.token_urlsafe``); any other cookie, and a session value with quotes, backslashes or
anything unusual, never reaches a parser. What the app then parses is at most
``ahiko_session=<token>``: linear on every interpreter. The start-up warning about an old
interpreter (``ahiko.server.interpreter``) stays, for whatever else may use ``http.cookies``.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Receive, Scope, Send

SESSION_COOKIE_NAME = b"ahiko_session"
# ``secrets.token_urlsafe(32)`` gives 43 characters; a little room for a longer token later.
MAX_TOKEN_CHARS = 128
_PLAIN_TOKEN = re.compile(rb"[A-Za-z0-9_\-]{1,%d}" % MAX_TOKEN_CHARS)


def session_cookie_value(header_values: list[bytes]) -> bytes | None:
    """The session token in raw ``Cookie`` header values, or None when there is none or it
    is not a plain token. One pass over the bytes: ``split`` and ``strip`` are linear, and the
    only pattern is matched against at most one short value."""
    token: bytes | None = None
    for value in header_values:
        for part in value.split(b";"):
            name, equals, found = part.partition(b"=")
            if not equals or name.strip() != SESSION_COOKIE_NAME:
                continue
            found = found.strip()
            if len(found) >= 2 and found[:1] == found[-1:] == b'"':
                found = found[1:-1]  # a quoted token is the same token
            # The last one counts, as it did when Starlette's parser (a dict) read them; an
            # abnormal session value is no session.
            plain = len(found) <= MAX_TOKEN_CHARS and _PLAIN_TOKEN.fullmatch(found)
            token = found if plain else None
    return token


def with_session_cookie_only(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with every ``Cookie`` header replaced by the plain session cookie alone
    (or by nothing)."""
    cookies = [value for name, value in headers if name.lower() == b"cookie"]
    if not cookies:
        return headers
    kept = [(name, value) for name, value in headers if name.lower() != b"cookie"]
    token = session_cookie_value(cookies)
    if token is not None:
        kept.append((b"cookie", SESSION_COOKIE_NAME + b"=" + token))
    return kept


class SessionCookieOnly:
    """Outermost ASGI middleware: requests and sockets reach the app carrying at most the
    session cookie, as a plain token."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = list(scope["headers"])
            cleaned = with_session_cookie_only(headers)
            if cleaned is not headers:
                scope = {**scope, "headers": cleaned}
        await self.app(scope, receive, send)
