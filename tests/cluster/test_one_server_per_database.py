"""Issue 14: without Redis, a second ``ahiko serve`` on the same database refuses to start (it
would fork every Ahiko table), with a message that names the fix. Real processes: the first
server answers ``/api/health``, the second exits with status 2 and one line on stderr."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from live_server import free_port

pytestmark = pytest.mark.cluster

AHIKO = [sys.executable, "-m", "ahiko.cli"]


def _env(data_dir: Path, database_url: str, redis_url: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AHIKO_")}
    env.update(AHIKO_DATA_DIR=str(data_dir), AHIKO_DATABASE_URL=database_url)
    if redis_url is not None:
        env["AHIKO_REDIS_URL"] = redis_url
    return env


def _wait_healthy(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)


@contextmanager
def running_server(env: dict[str, str], log: Path) -> Iterator[int]:
    port = free_port()
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [*AHIKO, "serve", "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        _wait_healthy(process, port, log)
        yield port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _second_server(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AHIKO, "serve", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _assert_refused_naming_the_fix(done: subprocess.CompletedProcess[str], backend: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    # (an interpreter warning may come first: the refusal is the last line)
    assert done.stderr.splitlines()[-1].startswith("error: another Ahiko server"), done.stderr
    assert backend in done.stderr
    assert "--redis-url" in done.stderr and "docs/deploy.md" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_second_server_on_one_sqlite_file_refuses_to_start(
    sqlite_url: str, tmp_path: Path
) -> None:
    env = _env(tmp_path / "data", sqlite_url)
    with running_server(env, tmp_path / "first.log"):
        done = _second_server(env)
        _assert_refused_naming_the_fix(done, "SQLite database")
    # the lock goes with the first server: a new one starts on the same file
    with running_server(env, tmp_path / "again.log"):
        pass


@pytest.mark.postgres
def test_a_second_server_on_one_postgresql_database_refuses_to_start(
    postgres_url: str, tmp_path: Path
) -> None:
    env = _env(tmp_path / "data", postgres_url)
    with running_server(env, tmp_path / "first.log"):
        done = _second_server(env)
        _assert_refused_naming_the_fix(done, "PostgreSQL database")
        # a cluster node (--redis-url) is refused too while a lone server holds the database
        node = _second_server(_env(tmp_path / "node", postgres_url, "redis://127.0.0.1:1/0"))
        assert node.returncode == 2, node.stderr
        assert "a lone Ahiko server (without --redis-url) already serves" in node.stderr


def test_a_killed_server_leaves_no_lock_behind(sqlite_url: str, tmp_path: Path) -> None:
    env = _env(tmp_path / "data", sqlite_url)
    port = free_port()
    with open(tmp_path / "killed.log", "wb") as out:
        first = subprocess.Popen(
            [*AHIKO, "serve", "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        _wait_healthy(first, port, tmp_path / "killed.log")
    finally:
        first.kill()  # SIGKILL: no clean-up ran, the kernel dropped the flock
        first.wait()
    with running_server(env, tmp_path / "after.log"):
        pass
