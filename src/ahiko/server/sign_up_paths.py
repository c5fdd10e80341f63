"""Every way to make an account is one of the sign-up paths, and every sign-up path is
rate-limited per client address (the security wall's ``sign_up`` window, shared by the nodes
of a cluster).

A route that makes accounts (``POST /api/accounts``; an invitation link's sign-up, say)
declares its full path here with ``sign_up_path`` (``{name}`` parts allowed). The wall counts
every POST to a declared path before the route runs, and marks the request as counted;
``Accounts.sign_up`` refuses to make an account inside a request the wall did not count, so
a sign-up route that was not declared fails loudly in its first test instead of going
unlimited. Outside any request (an operator's script, a test) nothing is asked."""

from __future__ import annotations

import re
from contextvars import ContextVar

SIGN_UP_PATHS: list[str] = []
_patterns: list[re.Pattern[str]] = []
_PARAMETER = re.compile(r"\\\{[^/]*?\\\}")

# None outside a request; False in a request the wall did not count as a sign-up.
_counted: ContextVar[bool | None] = ContextVar("ahiko_sign_up_counted", default=None)


class UncountedSignUp(RuntimeError):
    """An account made in a request that did not come through a sign-up path."""


def sign_up_path(path: str) -> str:
    """Declares ``path`` (``/api/…``, ``{name}`` parts allowed) a sign-up path; returns it."""
    if path not in SIGN_UP_PATHS:
        SIGN_UP_PATHS.append(path)
        _patterns.append(re.compile(_PARAMETER.sub("[^/]+", re.escape(path)) + "/?"))
    return path


def is_sign_up(method: str, path: str) -> bool:
    """Whether a request (or an OpenAPI operation, its path a template) is a sign-up."""
    return method == "POST" and any(pattern.fullmatch(path) for pattern in _patterns)


def mark_request(counted: bool) -> None:
    """The wall's mark on the request it is passing on (its context is the route's)."""
    _counted.set(counted)


def require_counted_sign_up() -> None:
    """Raises ``UncountedSignUp`` inside a request that is not a counted sign-up."""
    if _counted.get() is False:
        raise UncountedSignUp(
            "an account was made outside a sign-up path: declare the route's path with "
            "ahiko.server.sign_up_paths.sign_up_path so the per-address limit counts it"
        )


ACCOUNTS_PATH = sign_up_path("/api/accounts")
