"""Opening the fixture table page and reading what it sent."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ahiko.fairness.keys import load_or_create_signing_key
from ahiko.rooms.blinds import Stakes
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.hand_archive import ArchivedHand
from archive_factory import Sitter, cash_session

from .conftest import DESKTOP, open_page
from .conftest import LIVE_WAIT_MS as LIVE_WAIT_MS  # beside open_page: every page's default


def until(check: Callable[[], bool], timeout_s: float = LIVE_WAIT_MS / 1000) -> None:
    """Poll ``check`` until it holds, within the suite's one generous bound: for pages whose
    CSP forbids ``wait_for_function``'s eval."""
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def record_states(page: Any, name: str, expression: str) -> None:
    """Keep in ``window[name]`` every value ``expression`` takes as the page changes (each
    change once): a short state a loaded machine's polling would miss is still seen."""
    page.evaluate(
        """([name, expression]) => {
          const read = new Function(`return (${expression});`);
          window[name] = [];
          new MutationObserver(() => {
            const now = read();
            if (now && now !== window[name].at(-1)) window[name].push(now);
          }).observe(document.body,
                     { subtree: true, childList: true, attributes: true, characterData: true });
        }""",
        [name, expression],
    )


def open_fixture(
    browser: Any,
    base: str,
    name: str,
    viewport: dict[str, int] = DESKTOP,
    lang: str | None = None,
    upto: int | None = None,
) -> Any:
    page = open_page(browser, viewport)
    # The buy-in dialog asks what this player may bring (fair re-entry, issue 19).
    page.route(
        "**/api/ahiko/rooms/*/buy_in",
        lambda route: (
            route.fulfill(status=200, content_type="application/json", body='{"reentry": null}')
            if route.request.method == "GET"
            else route.fallback()
        ),
    )
    query = f"f={name}"
    if lang:
        query += f"&lang={lang}"
    if upto is not None:
        query += f"&upto={upto}"
    page.goto(f"{base}/tests/e2e/fixtures/table.html?{query}")
    page.wait_for_selector("body[data-ready=true]", timeout=LIVE_WAIT_MS)
    return page


def sent_frames(page: Any) -> list[dict[str, Any]]:
    """What the page sent, without its pokerfair/2 traffic (``fair_commit``/``fair_reveal``:
    the browser takes part in every shuffle on its own)."""
    sent = page.evaluate("window.fixture.sent")
    return [frame for frame in sent if not str(frame.get("t", "")).startswith("fair_")]


def close(page: Any) -> None:
    errors = list(page.console_errors)
    page.context.close()
    assert errors == [], f"console errors: {errors}"


AHIKO = Path(sys.executable).with_name("ahiko")


def assert_ahiko_verifies(proof_path: Path, public_key: str, digest: str | None = None) -> None:
    """The downloaded proof file passes `ahiko verify` (exit 0), optionally against the
    digest the browser received live."""
    args = [str(AHIKO), "verify", "--pubkey", public_key, str(proof_path)]
    if digest is not None:
        args[2:2] = ["--expect-digest", digest]
    verdict = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr


def push(page: Any, frame: dict[str, Any] | str) -> None:
    """Feed one frame (a dict, or JS that evaluates to one) to the fixture's table."""
    if isinstance(frame, str):
        page.evaluate(f"window.fixture.push({frame})")
    else:
        page.evaluate("f => window.fixture.push(f)", frame)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def archive_hands(
    data_dir: Path,
    sitters: dict[int, Sitter],
    hands: int = 24,
    seed: int = 11,
    room_id: str = "ahiko-ini-1",
) -> list[ArchivedHand]:
    """``hands`` hands of an Iniciante Ahiko table (1/2, 200 chips) among ``sitters`` written
    into the live server's archive at ``data_dir``, ended over the last half hour and signed
    with the server's key: a history for the people's numbers, "Minhas mãos" and sharing."""
    engine = make_engine(Settings.from_env({}, data_dir=data_dir).resolved_database_url)
    try:
        return cash_session(
            engine,
            random.Random(seed),
            room_id=room_id,
            room_kind="ahiko",
            variant="holdem",
            sitters=sitters,
            hands=hands,
            stakes=Stakes(small_blind=1, big_blind=2),
            stack=200,
            start=datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=30),
            every=timedelta(minutes=1),
            signing_key=load_or_create_signing_key(data_dir),
        )
    finally:
        engine.dispose()
