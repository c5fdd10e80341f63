"""A pytest plugin with a throwaway ``redis-server`` (Debian's package), as ``pg.py`` has a
throwaway PostgreSQL: one server per pytest process (per xdist worker) on a free loopback port,
in a temporary folder, without persistence; started at first use, stopped at the session's end.
Every test that takes ``redis_url`` starts from an empty server (``FLUSHALL``).

Never skipped: if ``redis-server`` is missing or cannot start, the tests that need it fail with
the reason (``.ci/run`` installs it)."""

from __future__ import annotations

import atexit
import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    START_ATTEMPTS = 3  # another process may take the free port before the server binds it

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server not found: apt-get install redis-server")
        self.root = Path(tempfile.mkdtemp(prefix="ahiko-redis-"))
        self.process: subprocess.Popen[bytes] | None = None
        for attempt in range(1, self.START_ATTEMPTS + 1):
            self.port = _free_port()
            try:
                self._start(binary)
                break
            except RuntimeError:
                if attempt == self.START_ATTEMPTS:
                    shutil.rmtree(self.root, ignore_errors=True)
                    raise
        atexit.register(self.stop)

    def _start(self, binary: str) -> None:
        log = open(self.root / "log", "ab")  # noqa: SIM115 - the server's log, kept until stop
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.root),
             "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes"],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {(self.root / 'log').read_text()}")
            if _ping(self.port):
                return
            time.sleep(0.02)
        self.process.kill()
        raise RuntimeError("redis-server did not answer PING within 15 s")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def flushall(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            sock.sendall(b"FLUSHALL\r\n")
            if not sock.recv(16).startswith(b"+OK"):
                raise RuntimeError("FLUSHALL failed")

    # --- faults (the Redis blip drills of issue 41) ----------------------------------------
    def kill(self) -> None:
        """``kill -9``: the server and all its data gone (it keeps none on disk)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        """A new, empty server on the same port (after ``kill``)."""
        binary = shutil.which("redis-server")
        assert binary is not None
        self._start(binary)

    def freeze(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a frozen server cannot stop
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
            if self.process.poll() is None:
                self.process.kill()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of an empty throwaway Redis for one test."""
    redis_server.flushall()
    return redis_server.url
