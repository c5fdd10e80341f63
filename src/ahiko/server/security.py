"""The server's outer wall: one ASGI middleware in front of every route and socket.

- Response headers: a Content-Security-Policy that allows no inline script or style, and
  the usual hardening headers (nosniff, no framing, same-origin referrers, HSTS over HTTPS).
- Cookies: every ``Set-Cookie`` leaves HttpOnly and SameSite, and Secure whenever the request
  came over HTTPS (directly, through a trusted proxy's ``X-Forwarded-Proto``, or because the
  settings say the site is served over HTTPS).
- Origins: a state-changing request or a WebSocket from a foreign ``Origin`` is refused (a
  second CSRF wall beside the custom-header rule in ``app.py``).
- Rate limits: sign-up and log-in attempts per client address; WebSocket frames per
  connection (a flood closes the socket).
- Input limits: request bodies, WebSocket frame sizes (text only), and user-chosen display
  text such as room names (length and characters).
"""

from __future__ import annotations

import json
import os
import re
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
MonotonicClock = Callable[[], float]

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_UP_ROUTE = ("POST", "/api/accounts")
LOG_IN_ROUTE = ("POST", "/api/session")
# Pages whose third-party UI needs inline scripts; they hold no user data.
CSP_EXEMPT_PATHS = ("/docs", "/redoc")
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
WS_CLOSE_POLICY = 1008
WS_CLOSE_UNSUPPORTED = 1003
WS_CLOSE_TOO_BIG = 1009
WS_REFUSED = 4403

DISPLAY_TEXT_MAX = 60  # the rooms API's own bound on a room name
# Fields of JSON bodies that other people will read: (method, path) -> field names.
DISPLAY_TEXT_FIELDS: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("POST", "/api/rooms"): ("name",),
}
# Unicode categories refused in display text: controls, format characters (bidi overrides,
# zero-width joiners), private use, surrogates, unassigned, line/paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_HOST_SAFE = re.compile(r"[A-Za-z0-9.\-:\[\]]+")


@dataclass(frozen=True, slots=True)
class RateLimit:
    """At most ``count`` events per ``seconds``."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """``"20/3600"`` → 20 per hour."""
        count, _, seconds = text.partition("/")
        limit = cls(int(count), float(seconds))
        if limit.count < 1 or limit.seconds <= 0:
            raise ValueError(f"a rate limit needs count >= 1 and seconds > 0, not {text!r}")
        return limit


@dataclass(frozen=True, slots=True)
class SecurityPolicy:
    sign_up: RateLimit = RateLimit(20, 3600.0)  # per client address
    log_in: RateLimit = RateLimit(60, 300.0)  # per client address, successes included
    ws_frames: RateLimit = RateLimit(40, 2.0)  # per connection: 20/s with bursts
    ws_max_frame_chars: int = 16_384  # the gateway refuses above 4 KiB with an error frame
    max_body_bytes: int = 65_536
    https: bool = False  # the site is served over HTTPS (behind a TLS proxy)
    extra_origins: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, https: bool = False
    ) -> SecurityPolicy:
        """Defaults, overridden by ``AHIKO_SIGNUP_LIMIT`` / ``AHIKO_LOGIN_LIMIT`` /
        ``AHIKO_WS_FRAME_LIMIT`` ("count/seconds") and ``AHIKO_ALLOWED_ORIGINS`` (comma
        separated, e.g. ``https://play.example``)."""
        env = os.environ if env is None else env
        policy = cls(https=https)
        if text := env.get("AHIKO_SIGNUP_LIMIT"):
            policy = replace(policy, sign_up=RateLimit.parse(text))
        if text := env.get("AHIKO_LOGIN_LIMIT"):
            policy = replace(policy, log_in=RateLimit.parse(text))
        if text := env.get("AHIKO_WS_FRAME_LIMIT"):
            policy = replace(policy, ws_frames=RateLimit.parse(text))
        if text := env.get("AHIKO_ALLOWED_ORIGINS"):
            origins = frozenset(o.strip().rstrip("/") for o in text.split(",") if o.strip())
            policy = replace(policy, extra_origins=origins)
        return policy


class SlidingWindow:
    """Counts events per key over a sliding window; forgets the least recently used keys
    beyond ``max_keys`` so a spray of addresses cannot grow memory without bound."""

    def __init__(self, limit: RateLimit, clock: MonotonicClock, max_keys: int = 50_000) -> None:
        self.limit = limit
        self._clock = clock
        self._max_keys = max_keys
        self._events: OrderedDict[str, deque[float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        """Records one event for ``key`` unless it would exceed the limit."""
        now = self._clock()
        window = self._events.pop(key, None) or deque()
        while window and window[0] <= now - self.limit.seconds:
            window.popleft()
        self._events[key] = window
        if len(self._events) > self._max_keys:
            self._events.popitem(last=False)
        if len(window) >= self.limit.count:
            return False
        window.append(now)
        return True

    def retry_after(self, key: str) -> int:
        window = self._events.get(key)
        if not window:
            return 0
        return max(1, round(window[0] + self.limit.seconds - self._clock()))


def display_text_problem(text: object, max_length: int = DISPLAY_TEXT_MAX) -> str | None:
    """Why ``text`` may not be shown to other people, or None when it may."""
    if not isinstance(text, str):
        return "must be text"
    if not text.strip():
        return "must not be blank"
    if text != text.strip():
        return "must not start or end with spaces"
    if len(text) > max_length:
        return f"must be at most {max_length} characters"
    if "  " in text:
        return "must not contain repeated spaces"
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return f"must not contain the character U+{ord(char):04X}"
    if unicodedata.normalize("NFC", text) != text:
        return "must be in Unicode normal form C"
    return None


def content_security_policy(host: str) -> str:
    """No inline script or style, no plugins, no framing; sockets only back to this host."""
    sockets = f" ws://{host} wss://{host}" if _HOST_SAFE.fullmatch(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'self'"
    )


def harden_cookie(value: str, secure: bool) -> str:
    """A ``Set-Cookie`` value with HttpOnly, SameSite and (over HTTPS) Secure present."""
    attributes = {part.strip().split("=", 1)[0].lower() for part in value.split(";")[1:]}
    if "httponly" not in attributes:
        value += "; HttpOnly"
    if "samesite" not in attributes:
        value += "; SameSite=lax"
    if secure and "secure" not in attributes:
        value += "; Secure"
    return value


class SecurityMiddleware:
    """``policy`` is read on every request (a callable), so a test or a bench may replace
    ``app.state.security`` while the app runs; the rate counters restart when it changes."""

    def __init__(
        self,
        app: ASGIApp,
        policy: Callable[[], SecurityPolicy],
        clock: MonotonicClock = time.monotonic,
    ) -> None:
        self.app = app
        self._policy_source = policy
        self._clock = clock
        self._counted_for: SecurityPolicy | None = None
        self.sign_ups = SlidingWindow(RateLimit(1, 1), clock)
        self.log_ins = SlidingWindow(RateLimit(1, 1), clock)

    @property
    def policy(self) -> SecurityPolicy:
        policy = self._policy_source()
        if policy is not self._counted_for:
            self._counted_for = policy
            self.sign_ups = SlidingWindow(policy.sign_up, self._clock)
            self.log_ins = SlidingWindow(policy.log_in, self._clock)
        return policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # --- HTTP ------------------------------------------------------------------------------
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = self.policy
        headers = _headers(scope)
        method: str = scope["method"]
        path: str = scope["path"]
        secure = _is_secure(policy, scope, headers)
        send = self._hardening_send(send, headers, path, secure)
        if method in UNSAFE_METHODS:
            if not _origin_allowed(policy, headers):
                await _json(send, 403, "bad_origin", "cross-site requests are refused")
                return
            if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
                await _json(send, 403, "bad_origin", "cross-site requests are refused")
                return
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > policy.max_body_bytes:
            await _json(
                send,
                413,
                "too_large",
                f"request bodies are at most {policy.max_body_bytes} bytes",
            )
            return
        limiter = {SIGN_UP_ROUTE: self.sign_ups, LOG_IN_ROUTE: self.log_ins}.get((method, path))
        if limiter is not None:
            address = _client_address(scope)
            if not limiter.allow(address):
                wait = limiter.retry_after(address)
                await _json(
                    send,
                    429,
                    "rate_limited",
                    f"too many attempts from this address; try again in {wait} s",
                    [(b"retry-after", str(wait).encode())],
                )
                return
        receive = _limited(receive, policy.max_body_bytes)  # chunked bodies too
        fields = DISPLAY_TEXT_FIELDS.get((method, path))
        if fields is not None:
            body = await _read_body(receive, policy.max_body_bytes)
            problem = _display_text_in_body(body, fields)
            if problem is not None:
                await _json(send, 422, "invalid_text", problem)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    def _hardening_send(
        self, send: Send, headers: Mapping[str, str], path: str, secure: bool
    ) -> Send:
        host = headers.get("host", "")

        async def hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = list(message.get("headers", []))
                present = {name.lower() for name, _ in raw}
                out = []
                for name, value in raw:
                    if name.lower() == b"set-cookie":
                        value = harden_cookie(value.decode("latin-1"), secure).encode("latin-1")
                    out.append((name, value))
                for name, value in self._security_headers(host, path, secure):
                    if name not in present:
                        out.append((name, value))
                message["headers"] = out
            await send(message)

        return hardened

    def _security_headers(self, host: str, path: str, secure: bool) -> list[tuple[bytes, bytes]]:
        found = [
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"same-origin"),
            (b"cross-origin-opener-policy", b"same-origin"),
            (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
        ]
        if not path.startswith(CSP_EXEMPT_PATHS):
            found.append((b"content-security-policy", content_security_policy(host).encode()))
        if path.startswith("/api/"):
            found.append((b"cache-control", b"no-store"))
        if secure:
            found.append((b"strict-transport-security", b"max-age=31536000"))
        return found

    # --- WebSocket -------------------------------------------------------------------------
    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = self.policy
        headers = _headers(scope)
        if not _origin_allowed(policy, headers):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": WS_REFUSED, "reason": "bad origin"})
            return
        frames = SlidingWindow(policy.ws_frames, self._clock, max_keys=1)
        limit = policy.ws_max_frame_chars

        async def guarded_receive() -> Message:
            message = await receive()
            if message["type"] != "websocket.receive":
                return message
            problem: tuple[int, str] | None = None
            if message.get("text") is None:
                problem = (WS_CLOSE_UNSUPPORTED, "frames are JSON text")
            elif len(message["text"]) > limit:
                problem = (WS_CLOSE_TOO_BIG, f"frames are at most {limit} characters")
            elif not frames.allow("connection"):
                problem = (WS_CLOSE_POLICY, "too many frames")
            if problem is None:
                return message
            code, reason = problem
            await send({"type": "websocket.close", "code": code, "reason": reason})
            return {"type": "websocket.disconnect", "code": code}

        await self.app(scope, guarded_receive, send)


def answers_before_routes(method: str, path: str) -> tuple[int, ...]:
    """The error statuses this middleware may answer to ``method path`` (a route's path as
    the OpenAPI schema writes it) before the app sees the request, for ``/openapi.json``."""
    found = {413}  # every request: body size
    if method in UNSAFE_METHODS:
        found.add(403)  # a foreign Origin or Sec-Fetch-Site
    if (method, path) in (SIGN_UP_ROUTE, LOG_IN_ROUTE):
        found.add(429)
    if (method, path) in DISPLAY_TEXT_FIELDS:
        found.add(422)  # invalid_text
    return tuple(sorted(found))


def _origin_allowed(policy: SecurityPolicy, headers: Mapping[str, str]) -> bool:
    origin = headers.get("origin")
    if origin is None:
        # Browsers always send Origin on sockets and cross-site writes; tools may not (and
        # then carry no victim's cookie).
        return True
    origin = origin.rstrip("/")
    if origin in policy.extra_origins:
        return True
    parts = urlsplit(origin)
    return (
        parts.scheme in ("http", "https")
        and bool(parts.netloc)
        and parts.netloc.lower() == headers.get("host", "").lower()
    )


def _is_secure(policy: SecurityPolicy, scope: Scope, headers: Mapping[str, str]) -> bool:
    if policy.https or scope.get("scheme") in ("https", "wss"):
        return True
    # uvicorn already rewrites the scheme for trusted proxies; this covers a proxy on the
    # same machine when the server runs without proxy headers.
    forwarded = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return forwarded == "https" and _client_address(scope) in LOOPBACK


def install_security(
    app: Any, *, https: bool = False, policy: SecurityPolicy | None = None
) -> None:
    """Puts the wall in front of ``app`` (a Starlette/FastAPI app); ``app.state.security``
    holds the policy."""
    app.state.security = policy or SecurityPolicy.from_env(https=https)

    def current_policy() -> SecurityPolicy:
        found: SecurityPolicy = app.state.security
        return found

    app.add_middleware(SecurityMiddleware, policy=current_policy)


def _headers(scope: Scope) -> dict[str, str]:
    return {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]
    }


def _client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _json(
    send: Send,
    status: int,
    code: str,
    message: str,
    extra: list[tuple[bytes, bytes]] | None = None,
) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send(
        {"type": "http.response.start", "status": status, "headers": headers + (extra or [])}
    )
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            break
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _limited(receive: Receive, limit: int) -> Receive:
    """A body that grows past ``limit`` looks to the app like a client that went away."""
    size = 0

    async def limited() -> Message:
        nonlocal size
        message = await receive()
        if message["type"] == "http.request":
            size += len(message.get("body", b""))
            if size > limit:
                return {"type": "http.disconnect"}
        return message

    return limited


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _display_text_in_body(body: bytes, fields: tuple[str, ...]) -> str | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None  # the route's own validation answers malformed JSON
    if not isinstance(data, dict):
        return None
    for name in fields:
        if name in data:
            problem = display_text_problem(data[name])
            if problem is not None:
                return f"{name} {problem}"
    return None
