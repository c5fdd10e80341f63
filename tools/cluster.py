"""``make cluster``: a throwaway Ahiko cluster on this machine, to see it work.

A PostgreSQL in a temporary folder (``initdb`` as the tests do, on a free port), a
``redis-server`` (no persistence) and two nodes (``ahiko serve --redis-url … --database-url
…``) on ports 8001 and 8002 (``--ports``), sharing one data folder for the server's keys.
Open both addresses in two browsers: one lobby, one wallet, the same tables. Kill a node
(its pid is printed) to watch the other take its tables over after the lease (``--lease-ms``).
Ctrl-C stops everything and deletes the folders."""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "cluster"))

from nodes import Node, migrate  # noqa: E402

from pg import PostgresCluster  # noqa: E402
from redis_server import RedisServer  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ports", default="8001,8002", help="one node per port")
    parser.add_argument("--lease-ms", type=int, default=3000, help="room and leader lease")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _interrupted)  # `kill PID` cleans up as Ctrl-C does
    ports = [int(port) for port in args.ports.split(",")]
    root = Path(tempfile.mkdtemp(prefix="ahiko-cluster-"))
    data_dir = root / "data"
    data_dir.mkdir(mode=0o700)
    postgres = PostgresCluster()
    redis = RedisServer()
    nodes: list[Node] = []
    try:
        database_url = postgres.create_database("ahiko")
        migrate(database_url, data_dir)
        for n, port in enumerate(ports):
            node = Node(
                chr(ord("a") + n), redis.url, database_url, data_dir,
                port=port, lease_ms=args.lease_ms, log_dir=root,
            )  # fmt: skip
            nodes.append(node.start())
        print(f"PostgreSQL  {database_url}")
        print(f"Redis       {redis.url}")
        for node in nodes:
            pid = node.process.pid if node.process else "?"
            print(f"node {node.name}      {node.url}  (pid {pid}, log {node.log_path})")
        print("Ctrl-C stops the cluster and deletes its folders.")
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        for node in nodes:
            node.stop()
        redis.stop()
        postgres.stop()
        shutil.rmtree(root, ignore_errors=True)


def _interrupted(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
