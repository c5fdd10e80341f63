"""Issue 17: 40 concurrent failed log-ins against the real server (`ahiko serve`, argon2 with
the library's default 64 MiB profile) stay under a memory bound: before the hash gate they
took it from 197 MB to 2.46 GB. A memory figure, not a timing: read from /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from ahiko.cli import main
from ahiko.server.accounts import HASH_QUEUE, HASH_WORKERS
from ahiko.server.services import CSRF_HEADER
from live_server import free_port

MIB = 1024 * 1024
ARGON2_DEFAULT_MIB = 64  # argon2-cffi's default memory_cost is 65536 KiB


def _peak_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM in /proc")


def test_40_concurrent_bad_log_ins_stay_under_a_memory_bound(tmp_path: Path) -> None:
    assert main(["admin", "migrate", "--data-dir", str(tmp_path)]) == 0
    port = free_port()
    env = {**os.environ, "AHIKO_DATA_DIR": str(tmp_path), "AHIKO_LOGIN_LIMIT": "1000/60"}
    env.pop("AHIKO_DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "ahiko.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/health").status_code == 200:
                    break
            except httpx.HTTPError:
                assert server.poll() is None, "the server exited"
                assert time.monotonic() < deadline, "no answer within 60 s"
                time.sleep(0.1)
        with httpx.Client(base_url=base, headers={CSRF_HEADER: "1"}) as client:
            response = client.post(
                "/api/accounts", json={"username": "ana", "password": "correct horse"}
            )
            assert response.status_code == 201
        before = _peak_rss(server.pid)

        def guess(n: int) -> httpx.Response:
            with httpx.Client(base_url=base, headers={CSRF_HEADER: "1"}, timeout=60) as one:
                return one.post(
                    "/api/session", json={"username": f"user{n}", "password": f"guess-{n}"}
                )

        with ThreadPoolExecutor(40) as pool:
            answers = list(pool.map(guess, range(40)))
        statuses = [answer.status_code for answer in answers]
        assert set(statuses) <= {401, 429} and statuses.count(401) >= HASH_WORKERS
        assert all(a.headers.get("retry-after") for a in answers if a.status_code == 429)
        assert all(a.json()["error"] in ("invalid_credentials", "busy") for a in answers)
        growth = _peak_rss(server.pid) - before
        # At most HASH_WORKERS hashes of 64 MiB at once, plus slack for threads and buffers;
        # unbounded, 40 at once would be ≈ 2.5 GiB.
        bound = (HASH_WORKERS + 2) * ARGON2_DEFAULT_MIB * MIB
        assert growth < bound, f"peak RSS grew {growth / MIB:.0f} MiB (bound {bound / MIB:.0f})"
        assert HASH_WORKERS + HASH_QUEUE < 40  # so the attack really was shed in part
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
