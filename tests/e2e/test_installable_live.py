"""Issue 47: installable. The manifest is valid (name, start URL, standalone display, icons
of 192 and 512 that load), the service worker registers, the app shell loads with the network
gone, a page never cached says the table needs the network, and a new version of the client
replaces the cached one (the page running it reloads to the new one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, open_page, screenshot
from .helpers import LIVE_WAIT_MS
from .live import live_app

pytestmark = pytest.mark.browser

CACHES = "() => caches.keys()"


def _controlled(page: Any) -> str:
    """Wait until the page's service worker is active and in control; its cache's name."""
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null", timeout=LIVE_WAIT_MS
    )
    page.wait_for_function("async () => (await caches.keys()).length === 1", timeout=LIVE_WAIT_MS)
    return str(page.evaluate(CACHES)[0])


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_manifest_worker_offline_shell_and_a_new_version_replacing_the_old(
    browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    with live_app(tmp_path) as (base, app):
        page = open_page(browser, viewport)  # type: ignore[no-untyped-call]
        page.goto(f"{base}/")
        page.wait_for_selector('[data-visitor="true"]')
        href = page.get_attribute('link[rel="manifest"]', "href")
        answer = page.request.get(f"{base}/{href}")
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest = answer.json()
        assert manifest["name"] and manifest["short_name"] == "Ahiko"
        assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
        sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
        assert {"192x192", "512x512"} <= sizes
        for icon in manifest["icons"]:
            assert page.request.get(f"{base}{icon['src']}").ok, icon
        assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])

        first = _controlled(page)
        assert first == f"ahiko-shell-{app.state.shell_version}"

        # The network gone: the shell still loads; a page never cached says why not.
        page.context.set_offline(True)
        page.reload()
        page.wait_for_selector("#root")
        assert page.title() == "Ahiko — pôquer"
        assert page.evaluate("() => Boolean(document.querySelector('link[href=\"css/app.css\"]'))")
        page.goto(f"{base}/nunca-visto.html")
        page.wait_for_selector("text=A mesa precisa da rede")
        screenshot(page, f"offline-{viewport['width']}")
        page.context.set_offline(False)  # the offline page goes back by itself
        page.wait_for_selector('[data-visitor="true"]', timeout=LIVE_WAIT_MS)

        # A deploy: the server's shell version changes; the new worker takes over, the old
        # copy goes, and the open page reloads onto the new client.
        app.state.shell_version = "novo-deploy"
        page.evaluate("() => { window.__before = true; }")
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        page.wait_for_function(
            "async () => { const k = await caches.keys(); return k.length === 1 && k[0].endsWith('novo-deploy'); }",
            timeout=LIVE_WAIT_MS,
        )
        page.wait_for_function(
            "() => window.__before === undefined", timeout=LIVE_WAIT_MS
        )  # reloaded
        assert page.evaluate(CACHES) == ["ahiko-shell-novo-deploy"]
        # The only errors: the calls the lobby made while the network was gone.
        unexpected = [e for e in page.console_errors if "ERR_INTERNET_DISCONNECTED" not in e]
        page.context.close()
        assert unexpected == []
