"""Real cluster nodes for tests, the failover drill and ``make cluster``: ``ahiko serve
--redis-url … --database-url …`` processes on loopback ports, started and stopped (or killed
with SIGKILL) one by one. Every node of one cluster shares one data folder (the server's
signing and archive keys: a hand archived by one node is read by another)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from progress import cpu_ticks

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def migrate(database_url: str, data_dir: Path) -> None:
    subprocess.run(
        [str(BIN / "ahiko"), "admin", "migrate", "--database-url", database_url,
         "--data-dir", str(data_dir)],
        check=True, capture_output=True,
    )  # fmt: skip


def check_ledger(database_url: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """``ahiko admin check-ledger`` as an operator runs it (exit 0: every invariant holds)."""
    return subprocess.run(
        [str(BIN / "ahiko"), "admin", "check-ledger", "--database-url", database_url,
         "--data-dir", str(data_dir)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


class Node:
    """One ``ahiko serve`` process of a cluster."""

    def __init__(
        self,
        name: str,
        redis_url: str | None,
        database_url: str,
        data_dir: Path,
        *,
        port: int | None = None,
        lease_ms: int = 2000,
        env: dict[str, str] | None = None,
        log_dir: Path | None = None,
    ) -> None:
        self.name = name
        self.database_url = database_url
        self.data_dir = data_dir
        self.port = port or free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.url = f"http://{self.address}"
        self.log_path = (log_dir or data_dir) / f"node-{name}.log"
        self.command = [
            str(BIN / "ahiko"), "serve", "--port", str(self.port),
            "--database-url", database_url, "--data-dir", str(data_dir),
        ]  # fmt: skip
        if redis_url is not None:  # None: a lone server
            self.command[4:4] = ["--redis-url", redis_url]
        self.env = {**os.environ, "AHIKO_LEASE_MS": str(lease_ms), **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> Node:
        log = open(self.log_path, "ab")  # noqa: SIM115 - the node's log, kept for a failure
        self.process = subprocess.Popen(
            self.command, stdout=log, stderr=subprocess.STDOUT, env=self.env
        )
        log.close()
        # ``timeout`` without progress: on a loaded machine a node may need much longer to
        # start, but it keeps using CPU time meanwhile (tests/cluster/progress.py).
        deadline = time.monotonic() + timeout
        ticks = cpu_ticks(self.process.pid)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"node {self.name} exited: {self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            now = cpu_ticks(self.process.pid)
            if now != ticks:
                ticks, deadline = now, max(deadline, time.monotonic() + timeout)
            time.sleep(0.05)
        raise RuntimeError(f"node {self.name} stalled {timeout} s before answering: {self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """``kill -9``: no clean-up, no lease given back."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            # A node a test froze (SIGSTOP) only sees the SIGTERM once it runs again.
            self.process.send_signal(signal.SIGCONT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def data_folder(tmp_path: Path) -> Path:
    """The data folder the nodes of one test share (its keys), private as the server wants."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    return data


def house_room(node: Node, tier: str = "iniciante") -> str:
    """The first house room of ``tier`` in ``node``'s lobby (the cluster's)."""
    rooms = httpx.get(f"{node.url}/api/ahiko/rooms").json()
    return str(next(room["id"] for room in rooms if room["tier"] == tier))


@contextlib.contextmanager
def owner_and_edge_nodes(
    redis_url: str,
    database_url: str,
    data_dir: Path,
    *,
    lease_ms: int,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[Node, Node, str]]:
    """Two nodes of one cluster: OWNER started first (it takes the house rooms), then EDGE;
    yields them and a house room OWNER holds. Both are killed at the end (``kill -9``: a
    test about faults checks the ledger itself, with nothing left running)."""
    owner = Node("a", redis_url, database_url, data_dir, lease_ms=lease_ms, env=env).start()
    edge = Node("b", redis_url, database_url, data_dir, lease_ms=lease_ms, env=env)
    try:
        room_id = house_room(owner)
        edge.start()
        yield owner, edge, room_id
    finally:
        for node in (edge, owner):
            if node.process is not None and node.process.poll() is None:
                node.process.send_signal(signal.SIGCONT)  # a frozen node dies too
            node.kill()
