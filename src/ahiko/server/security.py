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
- Input limits: request headers (431 before anything parses them: the interpreter's cookie
  parser is quadratic before Python 3.11.10), request bodies and their JSON nesting depth,
  WebSocket frame sizes (text only). (A room's name, text other people read, is checked where
  every room is made: ``ahiko.rooms.names``.)
- Client addresses: ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are believed only from the
  proxies listed in ``AHIKO_TRUSTED_PROXIES``; anyone else's address is the socket's.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from ipaddress import ip_address, ip_network
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ahiko.server.sign_up_paths import ACCOUNTS_PATH, is_sign_up, mark_request

MonotonicClock = Callable[[], float]

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SIGN_UP_ROUTE = ("POST", ACCOUNTS_PATH)  # one of the sign-up paths (``sign_up_paths``)
LOG_IN_ROUTE = ("POST", "/api/session")
# The interactive API pages (FastAPI's, loading their viewer from a CDN with inline script):
# off unless AHIKO_API_DOCS=1, and only then exempt from the CSP.
API_DOCS_PATHS = ("/docs", "/redoc")
WS_CLOSE_POLICY = 1008
WS_CLOSE_UNSUPPORTED = 1003
WS_CLOSE_TOO_BIG = 1009
WS_MAX_FRAME_CHARS = 4096  # the largest client frame (a chat line is at most a few hundred)
WS_REFUSED = 4403
MAX_JSON_DEPTH = 32  # no request of ours nests deeper than a few levels
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_JSON_BRACKETS = re.compile(rb"[\[\]{}]")

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
    # One limit for every client frame: below it each is answered (an ack or an error frame
    # naming its id), above it each closes the socket 1009, 5 KB as 1 MB (the server's
    # WebSocket layer closes 1009 itself above 64 KiB, before buffering).
    ws_max_frame_chars: int = WS_MAX_FRAME_CHARS
    max_body_bytes: int = 65_536
    # All request header names and values together: a browser sends well under 4 KiB.
    max_header_bytes: int = 8_192
    https: bool = False  # the site is served over HTTPS (behind a TLS proxy)
    extra_origins: frozenset[str] = field(default_factory=frozenset)
    # Proxies whose X-Forwarded-For/-Proto are believed (addresses or networks); none by default.
    trusted_proxies: tuple[str, ...] = ()
    csp_exempt_paths: tuple[str, ...] = ()  # API_DOCS_PATHS when AHIKO_API_DOCS=1

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, https: bool = False
    ) -> SecurityPolicy:
        """Defaults, overridden by ``AHIKO_SIGNUP_LIMIT`` / ``AHIKO_LOGIN_LIMIT`` /
        ``AHIKO_WS_FRAME_LIMIT`` ("count/seconds"), ``AHIKO_ALLOWED_ORIGINS`` (comma
        separated, e.g. ``https://play.example``), ``AHIKO_MAX_HEADER_BYTES`` and
        ``AHIKO_TRUSTED_PROXIES`` (comma separated addresses or networks, e.g.
        ``127.0.0.1,10.0.0.0/8``)."""
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
        if text := env.get("AHIKO_MAX_HEADER_BYTES"):
            policy = replace(policy, max_header_bytes=int(text))
        if text := env.get("AHIKO_TRUSTED_PROXIES"):
            proxies = tuple(p.strip() for p in text.split(",") if p.strip())
            for proxy in proxies:
                ip_network(proxy, strict=False)  # a typo fails at start-up, not silently
            policy = replace(policy, trusted_proxies=proxies)
        if api_docs_enabled(env):
            policy = replace(policy, csp_exempt_paths=API_DOCS_PATHS)
        return policy


def api_docs_enabled(env: Mapping[str, str] | None = None) -> bool:
    """``AHIKO_API_DOCS=1``: serve FastAPI's ``/docs`` and ``/redoc`` (they load scripts from
    a CDN, so they are off by default; ``/openapi.json`` is always served)."""
    env = os.environ if env is None else env
    return env.get("AHIKO_API_DOCS", "") in ("1", "true", "yes")


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

    def would_allow(self, key: str) -> bool:
        """Whether ``allow`` would record an event for ``key`` now (nothing is recorded)."""
        window = self._events.get(key)
        if not window:
            return True
        horizon = self._clock() - self.limit.seconds
        return sum(1 for t in window if t > horizon) < self.limit.count

    def retry_after(self, key: str) -> int:
        window = self._events.get(key)
        if not window:
            return 0
        return max(1, round(window[0] + self.limit.seconds - self._clock()))


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
        shared: Callable[[], Any] = lambda: None,
    ) -> None:
        self.app = app
        self._policy_source = policy
        self._shared_source = shared  # the cluster's shared windows, or None
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
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        policy = self.policy
        size = header_bytes(scope)
        if size > policy.max_header_bytes:
            # Refused before anything parses a cookie (quadratic before Python 3.11.10).
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": WS_REFUSED, "reason": "headers"})
                return
            message = f"request headers are at most {policy.max_header_bytes} bytes, not {size}"
            await _json(send, 431, "headers_too_large", message)
            return
        if policy.trusted_proxies:
            scope = forwarded_scope(scope, policy.trusted_proxies)
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        else:
            await self._websocket(scope, receive, send)

    # --- HTTP ------------------------------------------------------------------------------
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        policy = self.policy
        headers = _headers(scope)
        method: str = scope["method"]
        path: str = scope["path"]
        secure = _is_secure(policy, scope)
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
        signing_up = is_sign_up(method, path)  # every sign-up path, one window per address
        limiter = self.sign_ups if signing_up else {LOG_IN_ROUTE: self.log_ins}.get((method, path))
        mark_request(signing_up)
        if limiter is not None:
            address = client_address(scope)
            allowed, wait = await self._allow(limiter, (method, path), address)
            if not allowed:
                await _json(
                    send,
                    429,
                    "rate_limited",
                    f"too many attempts from this address; try again in {wait} s",
                    [(b"retry-after", str(wait).encode())],
                )
                return
        receive = _limited(receive, policy.max_body_bytes)  # chunked bodies too
        if method in UNSAFE_METHODS:
            # Read the (bounded) body once: nesting that would exhaust a parser's recursion
            # is refused here, with a JSON 400, before any parser sees it.
            body = await _read_body(receive, policy.max_body_bytes)
            if json_too_deep(body):
                await _json(
                    send, 400, "too_deep", f"JSON is nested at most {MAX_JSON_DEPTH} levels deep"
                )
                return
            # Text that is not JSON is refused here, as the routes would (422), before
            # routing and the session's lookup: a malformed flood costs little.
            problem = json_problem(body) if _parsed_as_json(path, headers) else None
            if problem is not None:
                message = f"the request body is not valid JSON: {problem}"
                await _json(send, 422, "invalid_request", message)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    async def _allow(
        self, limiter: SlidingWindow, route: tuple[str, str], address: str
    ) -> tuple[bool, int]:
        """One event on a limited route: in a cluster the window is shared by every node (in
        Redis, ``ahiko.server.cluster.counters``), otherwise this process's own."""
        shared = self._shared_source()
        if shared is not None:
            name = "log_in" if route == LOG_IN_ROUTE else "sign_up"
            allowed, wait = await shared.allow(name, limiter.limit, address)
            return bool(allowed), int(wait)
        if limiter.allow(address):
            return True, 0
        return False, limiter.retry_after(address)

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
        exempt = self.policy.csp_exempt_paths
        if not (exempt and path.startswith(exempt)):
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
    found = {413, 431}  # every request: body and header size
    if method in UNSAFE_METHODS:
        found.add(403)  # a foreign Origin or Sec-Fetch-Site
        found.add(400)  # JSON nested too deep
        found.add(422)  # a body that is not JSON
    if (method, path) == LOG_IN_ROUTE or is_sign_up(method, path):
        found.add(429)
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


def _is_secure(policy: SecurityPolicy, scope: Scope) -> bool:
    # A trusted proxy's X-Forwarded-Proto is already in the scheme (``forwarded_scope``).
    return policy.https or scope.get("scheme") in ("https", "wss")


def install_security(
    app: Any, *, https: bool = False, policy: SecurityPolicy | None = None
) -> None:
    """Puts the wall in front of ``app`` (a Starlette/FastAPI app); ``app.state.security``
    holds the policy."""
    app.state.security = policy or SecurityPolicy.from_env(https=https)

    def current_policy() -> SecurityPolicy:
        found: SecurityPolicy = app.state.security
        return found

    def shared_windows() -> Any:
        return getattr(app.state, "shared_windows", None)  # set on a node of a cluster

    app.add_middleware(SecurityMiddleware, policy=current_policy, shared=shared_windows)


def _headers(scope: Scope) -> dict[str, str]:
    return {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]
    }


def header_bytes(scope: Scope) -> int:
    """The size of all request header names and values (the ASGI server already split them;
    nothing has parsed a cookie yet)."""
    return sum(len(name) + len(value) for name, value in scope["headers"])


def json_too_deep(body: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests arrays/objects deeper than ``limit`` (strings ignored); linear
    in the size of the text, and it never recurses."""
    data = body.encode() if isinstance(body, str) else body
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    depth = 0
    for bracket in _JSON_BRACKETS.findall(_JSON_STRING.sub(b'""', data)):
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def json_problem(body: bytes) -> str | None:
    """What is wrong with ``body`` as JSON, or None when it parses (or is empty, which the
    routes read as no body)."""
    if not body:
        return None
    try:
        json.loads(body)
    except json.JSONDecodeError as error:
        return f"{error.msg} at character {error.pos}"
    except (UnicodeDecodeError, RecursionError):
        return "it is not UTF-8 text"
    return None


def _parsed_as_json(path: str, headers: Mapping[str, str]) -> bool:
    """Whether the routes read this body as JSON (FastAPI's rule: no content type, or
    ``application/json`` and ``application/*+json``)."""
    if not path.startswith("/api/"):
        return False
    content_type = headers.get("content-type")
    if content_type is None:
        return True
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _trusted(address: str, proxies: tuple[str, ...]) -> bool:
    try:
        found = ip_address(address)
    except ValueError:
        return False
    return any(found in ip_network(proxy, strict=False) for proxy in proxies)


def forwarded_scope(scope: Scope, proxies: tuple[str, ...]) -> Scope:
    """``scope`` with the client address (and scheme) a trusted proxy forwarded: the
    right-most ``X-Forwarded-For`` entry that is not itself a trusted proxy. A request that
    did not come from a trusted proxy keeps its socket's address."""
    client = scope.get("client")
    if not client or not _trusted(str(client[0]), proxies):
        return scope
    forwarded_for = ""
    forwarded_proto = ""
    for name, value in scope["headers"]:
        if name.lower() == b"x-forwarded-for":
            forwarded_for += ("," if forwarded_for else "") + value.decode("latin-1")
        elif name.lower() == b"x-forwarded-proto":
            forwarded_proto = value.decode("latin-1")
    scope = dict(scope)
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            scope["client"] = (hop[:64], 0)
            break
    proto = forwarded_proto.split(",")[0].strip().lower()
    if proto in ("http", "https"):
        secure = proto == "https"
        if scope["type"] == "websocket":
            scope["scheme"] = "wss" if secure else "ws"
        else:
            scope["scheme"] = proto
    return scope


def client_address(scope: Scope) -> str:
    """The request's client address (a trusted proxy's forward already applied)."""
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
