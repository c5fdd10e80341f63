"""Driving the real client like a person: sign up, create a room, sit, use the "Sala" menu,
and play by clicking the action buttons."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from .conftest import DESKTOP, open_page


def sign_up(
    browser: Any, base: str, username: str, viewport: dict[str, int] = DESKTOP, **context: Any
) -> Any:
    """A new account signed up through the page; ``context``: the browser context's options
    (``has_touch`` for a phone that taps)."""
    page = open_page(browser, viewport, **context)
    page.sent = []  # act frames this page sent over its table socket
    page.received = []  # the last frames it received, for the message of a test that gave up

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: page.sent.append(payload))
        ws.on("framereceived", lambda payload: _keep_last(page.received, payload))

    page.on("websocket", watch)
    page.goto(f"{base}/#/signup")
    page.fill("#auth-username", username)
    page.fill("#auth-password", "segredo-forte-1")
    page.click('[data-auth="signup"]')
    page.wait_for_selector("table.rooms")
    return page


def _keep_last(frames: list[Any], payload: Any, keep: int = 12) -> None:
    frames.append(payload if isinstance(payload, str) else "<binary>")
    del frames[:-keep]


def where_it_stands(page: Any) -> str:
    """What a page shows when a test gives up on it: its connection, hand, action bar and
    the types of the last frames it received (a stalled table or a lost socket tells apart)."""
    conn = page.query_selector(".conn")
    bar = page.query_selector(".action-bar")
    kinds = []
    for payload in getattr(page, "received", []):
        try:
            kinds.append(str(json.loads(payload).get("t")))
        except (ValueError, AttributeError):
            kinds.append("?")
    return (
        f"{page.url}: conn={conn.get_attribute('data-conn') if conn else None} "
        f"hand={hand_number(page)} bar={bar.get_attribute('class') if bar else None} "
        f"hidden={bar.get_attribute('hidden') if bar else None} last frames={kinds}, "
        f"the last two: {[str(p)[:600] for p in getattr(page, 'received', [])[-2:]]}"
    )


def create_room(page: Any, name: str) -> str:
    page.click('[data-nav="create"]')
    page.fill("#name", name)
    page.click('[data-create="submit"]')
    page.wait_for_selector(".felt")
    page.wait_for_selector('.conn[data-conn="online"]')
    return page.url.rsplit("/", 1)[-1]


def sit(page: Any, seat: int) -> None:
    page.click(f'[data-seat="{seat}"] .sit-btn')
    page.wait_for_selector(f'[data-seat="{seat}"].me')


def join_and_sit(page: Any, base: str, room_id: str, seat: int) -> None:
    """Open a room by its link, as a second player does, and sit at ``seat``."""
    page.goto(f"{base}/#/room/{room_id}")
    page.wait_for_selector('.conn[data-conn="online"]')
    sit(page, seat)


def host_menu(page: Any, item: str, level: str | None = None) -> None:
    page.click('[data-open="room-menu"]')
    if level:
        page.select_option("#bot-level", level)
    page.click(f'[data-menu="{item}"]')


def hand_number(page: Any) -> int | None:
    el = page.query_selector(".hand-no")
    if el is None:
        return None
    match = re.search(r"\d+", el.inner_text())
    return int(match.group()) if match else None


def acts_sent(page: Any) -> list[dict[str, Any]]:
    frames = [json.loads(p) for p in page.sent if isinstance(p, str)]
    return [f for f in frames if f.get("t") == "act"]


@dataclass
class PlayLog:
    finished: set[int] = field(default_factory=set)
    showdowns: set[int] = field(default_factory=set)
    raised_to: int | None = None
    clicks: int = 0


def act_once(page: Any, log: PlayLog, raise_by_slider: bool) -> bool:
    """Click one legal action if it is this page's turn; True if it clicked."""
    bar = page.query_selector(".action-bar:not([hidden]):not(.pending)")
    if bar is None:
        return False
    slider = page.query_selector(".amount-range")
    sized = page.query_selector('[data-action="raise"], [data-action="bet"]')
    try:
        if raise_by_slider and log.raised_to is None and slider is not None and sized is not None:
            slider.focus()
            for _ in range(3):
                page.keyboard.press("ArrowRight")
            log.raised_to = int(page.locator(".amount-box").input_value())
            sized.click()
        elif page.query_selector('[data-action="check"]'):
            page.click('[data-action="check"]')
        elif page.query_selector('[data-action="call"]'):
            # A call of every chip could bust this person, and a table of bots alone deals
            # no hand (R-RM-03): a test waiting for the next hands would wait forever.
            calls_all_in = _call_costs_every_chip(page) and page.query_selector(
                '[data-action="fold"]'
            )
            page.click('[data-action="fold"]' if calls_all_in else '[data-action="call"]')
        elif page.query_selector('[data-action="discard"]'):
            page.click('[data-action="discard"]')
        else:
            return False
    except Exception:  # the bar re-rendered under the click: try again on the next turn
        return False
    log.clicks += 1
    return True


def _call_costs_every_chip(page: Any) -> bool:
    """Whether the legal actions this page last received make a call an all-in."""
    for payload in reversed(getattr(page, "received", [])):
        try:
            legal = _find_key(json.loads(payload), "legal")
        except ValueError:
            continue
        if legal is not _MISSING:  # the newest frame that says what this seat may do
            return bool(legal and legal["call_cost"] >= legal["stack"] > 0)
    return False


_MISSING = object()


def _find_key(value: Any, key: str) -> Any:
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = _find_key(item, key)
            if found is not _MISSING:
                return found
    return _MISSING


def note_results(page: Any, log: PlayLog) -> None:
    n = hand_number(page)
    if n is None or page.query_selector(".result-line") is None:
        return
    log.finished.add(n)
    if page.query_selector(".seat-hand"):
        log.showdowns.add(n)


def play(
    pages: list[Any],
    until: Any,
    timeout_s: float = 100,
    raise_by_slider: bool = False,
    on_tick: Any = None,
) -> PlayLog:
    """Every page clicks when it is its turn, until ``until(log)``, or until ``timeout_s``
    pass with no progress (no click, no hand finished): a loaded machine plays slowly."""
    log = PlayLog()
    progress = (log.clicks, len(log.finished))
    end = time.monotonic() + timeout_s
    never_after = time.monotonic() + 10 * timeout_s  # progress that never reaches ``until``
    while time.monotonic() < min(end, never_after):
        for page in pages:
            act_once(page, log, raise_by_slider and page is pages[0])
            note_results(page, log)
        if on_tick is not None:
            on_tick(log)
        if until(log):
            return log
        if (log.clicks, len(log.finished)) != progress:
            progress = (log.clicks, len(log.finished))
            end = time.monotonic() + timeout_s
        pages[0].wait_for_timeout(60)
    states = "; ".join(where_it_stands(page) for page in pages)
    raise AssertionError(f"no progress for {timeout_s}s, or none that ended: {log}; {states}")
