"""Two processes' capacity: N players on one node, then N players on two nodes,
side by side in one run over one throwaway PostgreSQL and one ``redis-server``.

    python bench/cluster_load.py --players 2000 --think 1 --duration 60 --warmup 20 [--json]

(a) **one node**: one ``ahiko serve --redis-url … --database-url postgresql+psycopg://…``
process (``tests/cluster/nodes.py``'s ``Node``, as the failover drill and ``make cluster``
start them) and ``--players`` players; (b) **two nodes** on the same PostgreSQL server and the
same Redis (a fresh database and an empty Redis for each configuration) and the same number of
players. The players are ``bench/load.py``'s: real WebSocket clients in this process (the
servers are other processes), recreational tables of 8, a think time of ``--think`` seconds;
latency is action -> broadcast (the act frame sent until every client at that table has the
``hand`` frame that carries it). With two nodes, table ``i`` is created on node ``i % 2`` (so
each node owns half the tables) and seat ``s`` of table ``i`` connects to node ``(i + s) % 2``:
half the players sit on the node that does not own their table and play through the relay,
as behind a load balancer without sticky sessions. ``--placement route``: the same sockets
ask to be sent to the owner (``?direct=1``; node ``K`` runs ``--node-route /n/K``), and those
that reached the other node follow its ``owner`` frame there (the client maps ``/n/K`` to node
``K``, as the balancer of docs/deploy.md would): nobody is relayed once seated.

Reported for each configuration (``one_…``, ``two_…``): p50/p99/max, errors, ``ahiko admin
check-ledger`` after the nodes stopped, the nodes' CPU (the sum of the ``ahiko serve``
processes, all threads) as % of one core and per 1,000 players, each node's share, and
beside them the CPU of ``redis-server`` and of PostgreSQL (the postmaster and its backends).
Ratios two/one: p99, CPU per 1,000 players, and ``capacity_ratio_cpu``: how many more players
two nodes hold than one if each node is CPU-bound on a core of its own (2 x one node's CPU per
player / two nodes' CPU per player); on this 2-core machine the clients, PostgreSQL and Redis
share those cores, so the latency figures at large N are the machine's, not a node's.

The players' accounts and sessions are written straight into the database before the nodes
start (a cheap argon2 hash shared by all): ``ahiko serve`` hashes sign-ups with the production
parameters and limits sign-ups per address, and no timed figure includes a sign-up. Nodes run
with ``AHIKO_SOCKETS_PER_ADDRESS`` raised (every client is on 127.0.0.1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "cluster"))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from argon2 import PasswordHasher  # noqa: E402
from load_server import (  # noqa: E402
    pause_window,
    pauses_of,
    process_cpu_seconds,
    process_memory_kib,
    run_clients,
)
from nodes import Node, check_ledger, migrate  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from ahiko.server.accounts import SESSION_LIFETIME, token_hash  # noqa: E402
from ahiko.server.cluster.node import DEFAULT_LEASE_MS  # noqa: E402
from ahiko.store import accounts as store_accounts  # noqa: E402
from ahiko.store.engine import make_engine  # noqa: E402
from ahiko.store.schema import sessions  # noqa: E402
from ahiko.wallet.operations import open_wallet  # noqa: E402
from load import (  # noqa: E402
    CSRF,
    HTTP_TIMEOUT_S,
    SEATS_PER_TABLE,
    LoadRun,
    NothingMeasured,
    Player,
    Table,
    measure,
)
from pg import PostgresCluster  # noqa: E402
from redis_server import RedisServer  # noqa: E402

NODE_ENV = {"AHIKO_SOCKETS_PER_ADDRESS": "1000000"}
ACCOUNTS = (
    "written into the database before the nodes start, one cheap argon2id hash for all; "
    "no timed figure includes a sign-up or a log-in"
)


class ClusterRun(LoadRun):
    """``LoadRun``'s players against several nodes: accounts straight in the database, table
    ``i`` created on node ``i % nodes``, seat ``s`` of it connected to node ``(i + s) % nodes``."""

    def __init__(
        self,
        bases: list[str],
        database_url: str,
        players: int,
        tables: int,
        think: float,
        placement: str = "spread",
    ) -> None:
        super().__init__(bases[0], players, tables, think, seed=1, rooms="recreational")
        self.bases = bases
        self.database_url = database_url
        # "owner": every socket on its table's owner (no relay); "route": spread, asking to be
        # sent to the owner (``?direct=1``) and following the ``owner`` frame's route
        self.placement = placement
        self.seated: dict[int, int] = {}  # table index -> occupied seats, from room frames
        self.served_by: dict[str, int] = {}  # a player's name -> the node serving their socket

    def node_of(self, table: Table, seat: int) -> int:
        """The node a seat's socket goes to first (table ``i``'s owner is node ``i % nodes``)."""
        shift = 0 if self.placement == "owner" else seat
        return (table.index + shift) % len(self.bases)

    async def join_table(self, player: Player) -> None:
        node = self.node_of(player.table, player.seat)
        if self.placement != "route":
            self.served_by[player.name] = node
            await super().join_table(player)
            return
        path = f"/ws/rooms/{player.table.room_id}"
        ws = await self.open_socket(player, f"{self._ws(node)}{path}?direct=1")
        first = json.loads(await ws.recv())
        if first["t"] == "owner":  # the balancer's route /n/K is node K (no balancer here)
            await ws.close()
            node = int(first["route"].rsplit("/", 1)[1])
            ws = await self.open_socket(player, f"{self._ws(node)}{path}")
            first = json.loads(await ws.recv())
        if first["t"] != "snapshot":
            self.stats.error(f"{player.name}: {first['t']} instead of the snapshot")
        self.served_by[player.name] = node
        player.ws = ws

    def _ws(self, node: int) -> str:
        return self.bases[node].replace("http://", "ws://")

    def ws_base_for(self, player: Player) -> str:
        base = self.bases[self.node_of(player.table, player.seat)]
        return base.replace("http://", "ws://")

    async def maybe_reenter(self, player: Player, room: dict[str, Any]) -> None:
        self.seated[player.table.index] = len(room.get("seats", ()))
        await super().maybe_reenter(player, room)

    async def sat_down(self, table: Table) -> None:
        """The start waits for every sit to land: some come through the relay, after it."""
        deadline = time.monotonic() + HTTP_TIMEOUT_S
        while self.seated.get(table.index, 0) < len(table.players):
            if time.monotonic() > deadline:
                self.stats.error(f"table {table.index}: the sits never all landed")
                return
            await asyncio.sleep(0.05)

    def relayed_players(self) -> int:
        """Players whose socket is served by a node that does not own their table."""
        n = len(self.bases)
        return sum(
            1
            for t in self.tables
            for p in t.players
            if self.served_by.get(p.name, self.node_of(t, p.seat)) != t.index % n
        )

    async def sign_up_all(self) -> None:
        per_table = math.ceil(self.n_players / len(self.tables))
        if per_table > SEATS_PER_TABLE:
            raise ValueError(f"{self.n_players} players do not fit {len(self.tables)} tables")
        await asyncio.to_thread(self._write_accounts, per_table)
        self.tables = [table for table in self.tables if table.players]
        clients = [
            httpx.AsyncClient(base_url=base, headers=CSRF, timeout=HTTP_TIMEOUT_S)
            for base in self.bases
        ]
        try:
            gate = asyncio.Semaphore(8)

            async def create(index: int) -> None:
                async with gate:
                    table = self.tables[index]
                    await self.create_room(clients[index % len(clients)], table)

            await asyncio.gather(*(create(i) for i in range(len(self.tables))))
        finally:
            for client in clients:
                await client.aclose()

    def _write_accounts(self, per_table: int) -> None:
        """Each player's user, wallet (the sign-up grant) and session, 200 to a transaction."""
        password_hash = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(
            "cluster-load"
        )
        now = datetime.now(UTC)
        engine = make_engine(self.database_url)
        try:
            for first in range(0, self.n_players, 200):
                with engine.begin() as conn:
                    for k in range(first, min(first + 200, self.n_players)):
                        name = f"cl{k}_{self.rng.randrange(10**6)}"
                        user_id = store_accounts.insert_user(conn, name, password_hash, now)
                        open_wallet(conn, user_id, now)
                        token = secrets.token_urlsafe(32)
                        conn.execute(
                            insert(sessions).values(
                                token_hash=token_hash(token), user_id=user_id, created_at=now,
                                expires_at=now + SESSION_LIFETIME,
                            )
                        )  # fmt: skip
                        table, seat = self.tables[k // per_table], k % per_table
                        rng = random.Random(self.rng.random())
                        player = Player(name, token, table, seat, rng, player_id=str(user_id))
                        table.players.append(player)
        finally:
            engine.dispose()


class Nodes:
    """The server side ``measure`` reads: the nodes' CPU and memory summed; each call also
    keeps every node's, Redis's and PostgreSQL's CPU, so the measured window's are known."""

    def __init__(self, nodes: list[Node], redis_pid: int, postgres_pid: int) -> None:
        self.nodes = nodes
        self.proc = nodes[0].process
        self.redis_pid = redis_pid
        self.postgres_pid = postgres_pid
        self.samples: list[dict[str, float]] = []
        self.pause_samples: list[list[dict[str, Any]]] = []

    @property
    def base(self) -> str:
        return self.nodes[0].url

    def pids(self) -> list[int]:
        return [node.process.pid for node in self.nodes if node.process is not None]

    def cpu_seconds(self) -> float:
        sample = {
            f"node_{n.name}": process_cpu_seconds(pid)
            for n, pid in zip(self.nodes, self.pids(), strict=True)
        }
        sample["redis"] = process_cpu_seconds(self.redis_pid)
        sample["postgres"] = sum(
            process_cpu_seconds(pid) for pid in [self.postgres_pid, *children(self.postgres_pid)]
        )
        sample["at"] = time.perf_counter()
        self.samples.append(sample)
        self.pause_samples.append([pauses_of(node.url) for node in self.nodes])
        return sum(v for k, v in sample.items() if k.startswith("node_"))

    def memory_kib(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for pid in self.pids():
            for name, value in process_memory_kib(pid).items():
                total[name] = total.get(name, 0) + value
        return total

    def window(self) -> dict[str, float]:
        """CPU seconds of each part over the measured window (the last two samples)."""
        before, after = self.samples[-2], self.samples[-1]
        return {k: after[k] - before[k] for k in after}

    def pauses(self) -> dict[str, Any]:
        """The nodes' pauses over the measured window (``GET /api/health/pauses`` read at
        each end): collector passes by generation and event-loop lateness, summed over the
        nodes, the longest of any node."""
        return pause_window(self.pause_samples[-2], self.pause_samples[-1])


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


async def _measure(nodes: Nodes, run: ClusterRun, args: argparse.Namespace) -> dict[str, Any]:
    return await measure(
        nodes,
        args.players,
        len(run.tables),
        args.think,
        args.duration,
        1,
        args.warmup,
        "recreational",
        run=run,
    )


def configuration(
    count: int,
    args: argparse.Namespace,
    postgres: PostgresCluster,
    redis: RedisServer,
    root: Path,
    label: str = "",
) -> dict[str, Any]:
    """One configuration: ``count`` nodes on a fresh database (named for the configuration
    and ``label``), the players, check-ledger."""
    name = f"nodes{count}{label}"
    began = time.monotonic()
    database_url = postgres.create_database(name)
    data_dir = root / name
    data_dir.mkdir(mode=0o700)
    migrate(database_url, data_dir)
    redis.flushall()
    _say(f"{name}: database migrated after {time.monotonic() - began:.1f} s")
    postgres_pid = int((postgres.data / "postmaster.pid").read_text().split()[0])
    assert redis.process is not None
    nodes = [
        Node(
            chr(ord("a") + n),
            redis.url,
            database_url,
            data_dir,
            lease_ms=args.lease_ms,
            env={**NODE_ENV, "AHIKO_NODE_ROUTE": f"/n/{n}"},
            log_dir=root,
        )
        for n in range(count)
    ]
    tables = math.ceil(args.players / args.seats)
    result_idle = None
    began = time.monotonic()
    try:
        with ThreadPoolExecutor(len(nodes)) as starting:  # side by side: each takes seconds
            list(starting.map(lambda node: node.start(timeout=180), nodes))  # a loaded machine
        _say(f"{name}: {count} node(s) up after {time.monotonic() - began:.1f} s")
        side = Nodes(nodes, redis.process.pid, postgres_pid)
        if args.idle > 0:  # the nodes' own work with nobody connected (leases, lobby, leader)
            side.cpu_seconds()
            time.sleep(args.idle)
            side.cpu_seconds()
            idle = side.window()
            idle_cpu = sum(v for k, v in idle.items() if k.startswith("node_"))
            result_idle = round(100 * idle_cpu / idle["at"], 1)
        bases = [node.url for node in nodes]
        run = ClusterRun(bases, database_url, args.players, tables, args.think, args.placement)
        result = run_clients(_measure(side, run, args))
        result["relayed_players"] = run.relayed_players()
        result["nodes_idle_cpu_pct"] = result_idle
        cpu = side.window()
        wall = result["duration_s"]
        per_k = 1000 / args.players
        node_cpu = sum(v for k, v in cpu.items() if k.startswith("node_"))
        result["nodes_cpu_pct_per_1000_players"] = round(100 * node_cpu / wall * per_k, 1)
        for key, seconds in cpu.items():
            if key != "at":
                result[f"{key}_cpu_pct"] = round(100 * seconds / wall, 1)
        result["pauses"] = side.pauses()
        _say(f"{name}: measured after {time.monotonic() - began:.1f} s")
    finally:
        stopping = time.monotonic()
        for node in nodes:
            node.stop()
        stop_s = round(time.monotonic() - stopping, 1)
    checked = check_ledger(database_url, data_dir)
    _say(f"{name}: stopped and ledger checked after {time.monotonic() - began:.1f} s")
    result["stop_s"] = stop_s  # SIGTERM to exit (a node still up after 15 s is killed)
    result["ledger_ok"] = checked.returncode == 0
    result["ledger"] = (checked.stdout + checked.stderr).strip()[-300:]
    logs = "".join(node.log() for node in nodes)
    result["server_log_tracebacks"] = logs.count("Traceback")
    if "Traceback" in logs:
        result["first_traceback"] = logs[logs.index("Traceback") :][:1500]
    return result


def _say(text: str) -> None:
    print(f"bench/cluster_load.py: {text}", file=sys.stderr, flush=True)


KEPT = (
    "p50_ms", "p95_ms", "p99_ms", "max_ms", "by_events", "errors", "error_samples", "ledger_ok", "hands",
    "actions_measured", "relayed_players", "server_cpu_pct", "nodes_cpu_pct_per_1000_players",
    "nodes_idle_cpu_pct", "node_a_cpu_pct", "node_b_cpu_pct", "redis_cpu_pct", "postgres_cpu_pct", "client_cpu_pct",
    "server_rss_mib", "pauses", "client_loop_lag", "server_log_tracebacks", "first_traceback", "setup_s", "duration_s", "stop_s",
)  # fmt: skip


SWEEP_P99_MS = 50.0  # The most players each configuration holds under this


def holds(measured: dict[str, Any]) -> bool:
    return bool(
        measured["p99_ms"] < SWEEP_P99_MS and measured["errors"] == 0 and measured["ledger_ok"]
    )


def configurations(args: argparse.Namespace) -> list[tuple[int, str]]:
    every = [(1, "one"), (2, "two")]
    return [(count, prefix) for count, prefix in every if args.only in (None, prefix)]


def sweep(args: argparse.Namespace, sizes: list[int]) -> int:
    """For one node, then two: each size in turn (a fresh database and Redis each) until the
    first that misses the goal; the most players held, and two's over one's."""
    root = Path(tempfile.mkdtemp(prefix="ahiko-cluster-sweep-"))
    postgres, redis = PostgresCluster(), RedisServer()
    result: dict[str, Any] = {
        "sizes": sizes, "seats": args.seats, "think_s": args.think, "placement": args.placement,
        "lease_ms": args.lease_ms, "goal": f"p99 < {SWEEP_P99_MS:.0f} ms, 0 errors, clean ledger",
    }  # fmt: skip
    try:
        for count, prefix in configurations(args):
            held, held_p99 = 0, 0.0
            for size in sizes:
                args.players = size
                try:
                    measured = configuration(count, args, postgres, redis, root, f"_{size}")
                except NothingMeasured:
                    measured = {"p99_ms": math.inf, "errors": -1, "ledger_ok": False}
                result[f"{prefix}_{size}_p99_ms"] = measured["p99_ms"]
                result[f"{prefix}_{size}_errors"] = measured["errors"]
                result[f"{prefix}_{size}_ledger_ok"] = measured["ledger_ok"]
                for key in ("server_cpu_pct", "client_cpu_pct", "nodes_cpu_pct_per_1000_players"):
                    if key in measured:
                        result[f"{prefix}_{size}_{key}"] = measured[key]
                _say(f"{prefix} node(s), {size} players: p99 {measured['p99_ms']} ms")
                if not holds(measured):
                    if held and measured["errors"] == 0 and measured["ledger_ok"]:
                        p99 = measured["p99_ms"]  # where p99 crosses the goal, linearly
                        share = (SWEEP_P99_MS - held_p99) / (p99 - held_p99)
                        result[f"{prefix}_players_at_goal"] = round(held + (size - held) * share)
                    break
                held, held_p99 = size, measured["p99_ms"]
            result[f"{prefix}_most_players"] = held
    finally:
        redis.stop()
        postgres.stop()
        shutil.rmtree(root, ignore_errors=True)
    one, two = result.get("one_most_players"), result.get("two_most_players")
    result["two_over_one_players"] = round(two / one, 2) if one and two else None
    one, two = result.get("one_players_at_goal"), result.get("two_players_at_goal")
    if one and two:  # each configuration's crossing, between the sizes measured
        result["two_over_one_players_at_goal"] = round(two / one, 2)
    result["load_average_1m"] = os.getloadavg()[0]
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2000, help="in each configuration")
    parser.add_argument(
        "--seats", type=int, default=SEATS_PER_TABLE, help="players a table (2 to 8)"
    )
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds before measuring")
    parser.add_argument(
        "--idle", type=float, default=10.0, help="seconds of the nodes' CPU before anyone comes"
    )
    parser.add_argument(
        "--placement",
        choices=("spread", "owner", "route"),
        default="spread",
        help="two nodes: seat s of table i on node (i + s) %% 2 (spread: half relayed); every "
        "socket on its table's owner (owner: a balancer routing by table, nobody relayed); or "
        "spread, each socket asking to be sent to the owner and following the owner frame "
        "(route: --node-route /n/K on node K, the client mapping the route to that node as a "
        "balancer would)",
    )
    parser.add_argument(
        "--lease-ms",
        type=int,
        default=DEFAULT_LEASE_MS,
        help="the rooms' lease (AHIKO_LEASE_MS; default the production one: the tests' 2 s "
        "expired under this load, every socket then closed with 4409)",
    )
    parser.add_argument(
        "--sweep",
        help="sizes, e.g. 2000,4000,6000: for one node and then two, the most players held at "
        "p99 < 50 ms with 0 errors and a clean ledger (each size until the first that fails)",
    )
    parser.add_argument(
        "--only",
        choices=("one", "two"),
        help="measure one configuration only (a probe: no ratio is reported)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the nodes' logs (prints where)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    if args.sweep:
        return sweep(args, sorted(int(size) for size in args.sweep.split(",")))
    began = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="ahiko-cluster-load-"))
    postgres, redis = PostgresCluster(), RedisServer()
    result: dict[str, Any] = {
        "players": args.players, "seats": args.seats, "think_s": args.think,
        "placement": args.placement, "lease_ms": args.lease_ms,
    }  # fmt: skip
    _say(f"PostgreSQL and Redis up after {time.monotonic() - began:.1f} s")
    try:
        for count, prefix in configurations(args):
            measured = configuration(count, args, postgres, redis, root)
            result.update({f"{prefix}_{k}": measured[k] for k in KEPT if k in measured})
    except NothingMeasured as exc:
        print(f"bench/cluster_load.py: {exc}", file=sys.stderr)
        return 2
    finally:
        redis.stop()
        postgres.stop()
        if args.keep:
            _say(f"the nodes' logs are in {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    clean = all(
        result[f"{prefix}_ledger_ok"] and result[f"{prefix}_errors"] == 0
        for _, prefix in configurations(args)
    )
    if args.only:
        print(
            json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items())
        )
        return 0 if clean else 1
    one, two = (
        result["one_nodes_cpu_pct_per_1000_players"],
        result["two_nodes_cpu_pct_per_1000_players"],
    )
    result["two_over_one_p99"] = round(result["two_p99_ms"] / result["one_p99_ms"], 2)
    result["two_over_one_cpu_per_1000_players"] = round(two / one, 2)
    result["capacity_ratio_cpu"] = round(2 * one / two, 2)
    result["accounts"] = ACCOUNTS
    result["load_average_1m"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>40}: {value}")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
