"""Browser test fixtures: Debian's Chromium through Playwright, and a static server over the
repository that also answers /tests/e2e/fixtures/<name>.json with frames from frames.py."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from chromium import CHROMIUM, CHROMIUM_ARGS

from . import frames

REPO = Path(__file__).resolve().parents[2]
# The suite saves its screenshots out of the tree; `make screenshots` points this at
# docs/screenshots/ to refresh the committed ones.
SCREENSHOTS = Path(os.environ.get("AHIKO_SCREENSHOTS", REPO / "build" / "screenshots"))
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


class _FixtureHandler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:
        prefix = "/tests/e2e/fixtures/"
        path = self.path.split("?")[0]
        if path == "/api/fairness/public-key":
            self._json({"public_key": frames.PUBLIC_KEY_HEX})
            return
        name = path[len(prefix) : -len(".json")] if path.startswith(prefix) else ""
        if path.endswith(".json") and (name in frames.FIXTURES or name.startswith("tampered_")):
            self._json(
                frames.tampered(name[len("tampered_") :])
                if name.startswith("tampered_")
                else frames.FIXTURES[name]()
            )
            return
        super().do_GET()

    def _json(self, data: object) -> None:
        body = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        # The policy the client must live with: no inline script or style, nothing external.
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    handler = partial(_FixtureHandler, directory=str(REPO))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


# Module scope, not session: a live sync Playwright keeps an event loop running in the worker's
# main thread, which would break every later asyncio.run() and any other sync_playwright().
@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real Ahiko server (live.py) for the module's tests."""
    from .live import live_server  # live.py reads this module's CSP

    with live_server(tmp_path_factory.mktemp("ahiko-live")) as url:
        yield url


class ConsoleErrors(list[str]):
    """Console errors and uncaught exceptions seen by a page: the tests expect none."""


# A wait for something that will happen (a frame, a page, a state): generous, since CI shares
# its machine; a test that must see something soon says so with its own bound. Every page
# opened here waits this long by default (Playwright's own default is 30 s).
LIVE_WAIT_MS = 60_000


def open_page(browser, viewport=DESKTOP, **context_args):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=viewport, **context_args)
    context.set_default_timeout(LIVE_WAIT_MS)
    page = context.new_page()
    errors = ConsoleErrors()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    return page


def screenshot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
