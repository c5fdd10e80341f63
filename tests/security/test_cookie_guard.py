"""A crafted cookie cannot freeze the site on any interpreter: the session cookie is read by a
linear parser of ours (``ahiko.server.cookie_guard``) before Starlette parses any cookie, so
``http.cookies._unquote`` (quadratic on backslashes before Python 3.11.10) never sees one."""

from __future__ import annotations

import contextlib
import http.cookies
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import starlette.requests
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ahiko.server.cookie_guard import session_cookie_value, with_session_cookie_only
from ahiko.server.services import CSRF_HEADER
from live_server import free_port

# The red team's second cookie: 8,000 backslashes, under the 8 KiB header cap.
BACKSLASH_COOKIE = 'a="' + "\\" * 8_000 + '"'
SESSION_OF_BACKSLASHES = 'ahiko_session="' + "\\" * 8_000 + '"'
TOKEN = "Zm9vYmFy_-0123456789abcdefghijklmnopqrstuv"
ATTACKS = 100


@pytest.mark.parametrize(
    ("header", "found"),
    [
        (f"ahiko_session={TOKEN}", TOKEN),
        (f'ahiko_session="{TOKEN}"', TOKEN),
        (f"theme=dark; ahiko_session={TOKEN}; lang=en", TOKEN),
        (f"  ahiko_session = {TOKEN} ", TOKEN),
        (BACKSLASH_COOKIE, None),
        (SESSION_OF_BACKSLASHES, None),
        ('ahiko_session="abc\\"def"', None),
        ("ahiko_session=", None),
        ("ahiko_session=" + "x" * 200, None),
        ("ahiko_session=abc def", None),
        ("other=1", None),
    ],
)
def test_the_session_cookie_is_read_only_when_it_is_a_plain_token(
    header: str, found: str | None
) -> None:
    value = session_cookie_value([header.encode("latin-1")])
    assert value == (found.encode() if found else None)


def test_every_cookie_header_becomes_the_session_cookie_alone() -> None:
    headers = [
        (b"host", b"x"),
        (b"cookie", BACKSLASH_COOKIE.encode()),
        (b"cookie", f"ahiko_session={TOKEN}".encode()),
    ]
    assert with_session_cookie_only(headers) == [
        (b"host", b"x"),
        (b"cookie", f"ahiko_session={TOKEN}".encode()),
    ]
    assert with_session_cookie_only([(b"cookie", BACKSLASH_COOKIE.encode())]) == []
    plain = [(b"host", b"x")]
    assert with_session_cookie_only(plain) is plain


def test_the_guard_is_linear_where_the_interpreter_may_not_be() -> None:
    """Reading a header of 8,000 backslashes costs about what reading 800 does, times ten
    (a quadratic reader: times a hundred). Best of five, against the machine's noise."""

    def cost(n: int) -> float:
        header = [(b"cookie", ('ahiko_session="' + "\\" * n + '"').encode())]
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(20):
                with_session_cookie_only(header)
            best = min(best, time.perf_counter() - started)
        return best

    small, large = cost(800), cost(8_000)
    assert large < 30 * small + 0.002, (small, large)


def test_starlette_never_parses_a_crafted_cookie_and_the_session_still_works(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[str] = []
    real_parser = starlette.requests.cookie_parser

    def recording_parser(cookie_string: str) -> dict[str, str]:
        parsed.append(cookie_string)
        return real_parser(cookie_string)

    monkeypatch.setattr(starlette.requests, "cookie_parser", recording_parser)
    with TestClient(app, headers={CSRF_HEADER: "1"}) as client:
        signed = client.post("/api/accounts", json={"username": "alice", "password": "x" * 12})
        assert signed.status_code == 201
        token = signed.cookies["ahiko_session"]
        client.cookies.clear()
        for cookie in (BACKSLASH_COOKIE, SESSION_OF_BACKSLASHES):
            refused = client.get("/api/me", headers={"Cookie": cookie})
            assert refused.status_code == 401, refused.text
            assert refused.json()["error"] == "not_signed_in"
        mixed = f"{BACKSLASH_COOKIE}; ahiko_session={token}"
        me = client.get("/api/me", headers={"Cookie": mixed})
        assert me.status_code == 200 and me.json()["username"] == "alice"
    assert parsed, "the session cookie was still read"
    assert all("\\" not in text and '"' not in text for text in parsed), parsed


# --- the red team's attack against a real server process -------------------------------------
@contextlib.contextmanager
def _ahiko_serve(data_dir: Path) -> Iterator[str]:
    """``ahiko serve`` on the machine's Python, in its own process (the test's clients do not
    share its interpreter lock)."""
    port = free_port()
    ahiko = [sys.executable, "-m", "ahiko.cli"]
    subprocess.run([*ahiko, "admin", "migrate", "--data-dir", str(data_dir)], check=True)
    command = [*ahiko, "serve", "--port", str(port), "--data-dir", str(data_dir)]
    log_path = data_dir.parent / "serve.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log_path.read_text(errors="replace")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, "ahiko serve did not answer"
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


HARMLESS_COOKIE = "a=" + "x" * 8_002  # the same size, nothing to unquote
ROUNDS = 10  # alternating: ten crafted requests, then ten harmless ones, ten times


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def test_the_8000_backslash_cookie_100_times_costs_health_reads_nothing_like_an_unquote(
    tmp_path: Path,
) -> None:
    """The red team's attack: one client sends the cookie to the routes that read the
    session, 100 times, while another reads ``/api/health`` one read after another. On 3.11.7
    each crafted request cost the event loop ≈ 0.2-0.3 s before the guard (health p50 went from
    1.8 ms to 175 ms); now a crafted cookie costs what a harmless one of the same size does.

    No wall-clock limit: the machine is shared, so the attack alternates with the same requests
    carrying a harmless cookie of the same size, and the health reads under each are compared
    side by side, against the interpreter's own unquote of the cookie timed in the same run.
    Medians, since one slow read on a loaded machine says nothing about the guard. Without the
    guard every crafted request stalls the loop for a whole unquote, so the crafted median
    would carry most of one. The p99 figure is ``make bench``'s (``bench/attack.py``)."""
    unquote_cost = time.perf_counter()
    http.cookies._unquote(BACKSLASH_COOKIE.partition("=")[2])
    unquote_cost = time.perf_counter() - unquote_cost
    reads: dict[str, list[float]] = {"crafted": [], "harmless": []}
    answers: list[int] = []
    phase = ["harmless"]
    done = threading.Event()
    with _ahiko_serve(tmp_path / "data") as url:

        def attack() -> None:
            with httpx.Client(base_url=url, timeout=60) as client:
                for n in range(2 * ATTACKS):
                    crafted = (n // ROUNDS) % 2 == 0
                    phase[0] = "crafted" if crafted else "harmless"
                    cookie = BACKSLASH_COOKIE if crafted else HARMLESS_COOKIE
                    path = ("/api/me", "/api/wallet")[n % 2]
                    status = client.get(path, headers={"Cookie": cookie}).status_code
                    if crafted:
                        answers.append(status)
            done.set()

        attacker = threading.Thread(target=attack)
        attacker.start()
        with httpx.Client(base_url=url, timeout=60) as client:
            while not done.is_set():
                during = phase[0]
                started = time.perf_counter()
                assert client.get("/api/health").status_code == 200
                reads[during].append(time.perf_counter() - started)
        attacker.join()
    assert answers == [401] * ATTACKS, answers
    crafted, harmless = statistics.median(reads["crafted"]), statistics.median(reads["harmless"])
    figures = (
        f"health median with the crafted cookie {crafted * 1000:.1f} ms over "
        f"{len(reads['crafted'])} reads (p99 {_p99(reads['crafted']) * 1000:.1f}), with a "
        f"harmless one {harmless * 1000:.1f} ms over {len(reads['harmless'])} (p99 "
        f"{_p99(reads['harmless']) * 1000:.1f}); the interpreter's unquote of the cookie "
        f"alone: {unquote_cost * 1000:.0f} ms"
    )
    print(figures)
    assert len(reads["crafted"]) >= 10, figures
    assert crafted < 2 * harmless + unquote_cost / 2, figures


def test_of_two_session_cookies_the_last_counts_as_it_did_before_the_guard() -> None:
    """Starlette's parser kept the last of two cookies of one name (a dict); so does the guard,
    and an abnormal last one means no session, whatever came before it."""
    assert session_cookie_value([b"ahiko_session=first; ahiko_session=second"]) == b"second"
    assert session_cookie_value([b"ahiko_session=first", b"ahiko_session=second"]) == b"second"
    assert session_cookie_value([b'ahiko_session=first; ahiko_session="a\\\\b"']) is None
