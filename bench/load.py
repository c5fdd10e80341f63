"""Load test: N simulated players as real WebSocket clients against a server process.

    python bench/load.py --players 1000 --tables 125 --think 1 --duration 120 [--json]

The server runs as a separate process on 127.0.0.1 with a fresh temporary data folder
(``python bench/load.py --serve ...``: the real ``create_app``, with cheap argon2 parameters
and relaxed sign-up limits so that creating thousands of accounts does not dominate the run).
Every player signs up through the API, the first player of each table creates a recreational
room, everyone sits (tables of up to 8) and answers its legal actions after a think time.

Latency is action → broadcast: from the moment a client sends an ``act`` frame until every
client at that table has received the ``hand`` frame carrying that action. The run ends with
``ahiko admin check-ledger``. ``--json`` prints one line:
``{"players","tables","hands","p50_ms","p95_ms","p99_ms","errors","ledger_ok", ...}``.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import subprocess
import sys
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
import orjson
import websockets

from ahiko.server.cli import tune_gc

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wsclient
from load_server import (
    LoopLag,
    ServerProcess,
    loop_lag_window,
    pause_window,
    pauses_of,
    percentile,
    process_system_cpu_seconds,
    run_clients,
    running_server,
    serve_or_parse,
    stopped_verdict,
)

CSRF = {"X-Ahiko-CSRF": "1"}
SEATS_PER_TABLE = 8
ACTION_DEADLINE_S = 30.0  # generous: a late answer should show as latency, not as a fold
LATENCY_GIVE_UP_S = 10.0  # an action whose broadcast never completes counts as an error
HTTP_TIMEOUT_S = 120.0  # set-up requests queue behind the tables already playing
AHIKO_TIER = "iniciante"  # R-RM-10: blinds 1/2, buy-in 100-200
AHIKO_BUY_IN = 200

# The bench server hashes passwords with cheap argon2 parameters so that creating thousands
# of accounts does not dominate the set-up; nothing it times (actions and their broadcasts)
# hashes a password. Stated in every result.
PASSWORD_HASHING = (
    "cheap argon2id (time_cost=1, memory_cost=1 MiB) for the set-up's sign-ups, not the "
    "production profile; no timed figure includes a password hash"
)


class Measured(Protocol):
    """What ``measure`` reads of the server side: one ``ServerProcess``, or several nodes."""

    proc: subprocess.Popen[bytes] | None

    @property
    def base(self) -> str: ...

    def cpu_seconds(self) -> float: ...

    def memory_kib(self) -> dict[str, int]: ...


class NothingMeasured(RuntimeError):
    """The measured window saw no finished hand or no broadcast action: there is no figure."""


# --- the players -------------------------------------------------------------------------


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # a probe's breakdown
    frames: int = 0
    frame_chars: int = 0  # the frames' JSON (ASCII: bytes)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    actions: int = 0
    hands: int = 0

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(text)


@dataclass
class Table:
    index: int
    players: list[Player] = field(default_factory=list)
    room_id: str = ""
    # seat -> (sent at, names of the clients still to receive the resulting event)
    pending: dict[int, tuple[float, set[str]]] = field(default_factory=dict)
    measuring: bool = False


@dataclass
class Player:
    name: str
    cookie: str
    table: Table
    seat: int
    rng: random.Random
    ws: Any = None
    ids: int = 0
    player_id: str = ""
    reloads: int = 0
    thinking: bool = False  # an answer to the current turn is scheduled or sent

    async def send(self, t: str, **fields: Any) -> None:
        self.ids += 1
        await self.ws.send(orjson.dumps({"t": t, "id": f"{self.ids}", **fields}).decode())


def choose(rng: random.Random, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
    """Mostly checks and calls, some minimum bets/raises and folds: hands run to showdown
    often enough to exercise every street."""
    if legal.get("is_draw_phase"):
        return {"action": "discard", "cards": []}
    r = rng.random()
    if legal["bet_kind"] and r < 0.15:
        return {"action": legal["bet_kind"], "amount": legal["min_to"]}
    if r < 0.25 and legal["can_fold"] and not legal["can_check"]:
        return {"action": "fold"}
    return {"action": "check" if legal["can_check"] else "call"}


class LoadRun:
    def __init__(
        self, base: str, players: int, tables: int, think: float, seed: int, rooms: str = "ahiko"
    ) -> None:
        self.base = base
        self.rooms = rooms
        self.round = 0  # the crash drill seats the same players again after each restart
        self.ws_base = base.replace("http://", "ws://")
        self.think = think
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.tables = [Table(i) for i in range(tables)]
        self.n_players = players
        self.stopping = False
        self.tasks: list[asyncio.Task[None]] = []
        self.thinking: set[asyncio.Task[None]] = set()

    async def sign_up_all(self) -> None:
        limits = httpx.Limits(max_connections=8)
        async with httpx.AsyncClient(
            base_url=self.base, headers=CSRF, limits=limits, timeout=HTTP_TIMEOUT_S
        ) as http:
            gate = asyncio.Semaphore(8)

            async def one(k: int) -> Player:
                name = f"load{k}_{self.rng.randrange(10**6)}"
                async with gate:
                    response = await http.post(
                        "/api/accounts", json={"username": name, "password": "load-password"}
                    )
                response.raise_for_status()
                # Tables fill one after another; only the last may have free seats (the
                # Ahiko lobby opens a new room only when every room of the tier is full).
                per_table = math.ceil(self.n_players / len(self.tables))
                if per_table > SEATS_PER_TABLE:
                    raise ValueError(
                        f"{self.n_players} players do not fit {len(self.tables)} tables"
                    )
                table, seat = self.tables[k // per_table], k % per_table
                cookie = response.cookies["ahiko_session"]
                rng = random.Random(self.rng.random())
                return Player(name, cookie, table, seat, rng, player_id=str(response.json()["id"]))

            players = await asyncio.gather(*(one(k) for k in range(self.n_players)))
            for player in sorted(players, key=lambda p: p.seat):
                player.table.players.append(player)
            self.tables = [table for table in self.tables if table.players]
            if self.rooms == "recreational":
                for table in self.tables:
                    await self.create_room(http, table)

    async def create_room(self, http: httpx.AsyncClient, table: Table) -> None:
        response = await http.post(
            "/api/rooms",
            json={"name": f"Carga {table.index}", "action_deadline_s": ACTION_DEADLINE_S},
            headers={"Cookie": f"ahiko_session={table.players[0].cookie}"},
        )
        response.raise_for_status()
        table.room_id = response.json()["id"]

    async def buy_in_all(self) -> None:
        """Ahiko rooms: the bench server opens one room a table (``/bench/open_ahiko_rooms``),
        then each table's players connect and buy in at the tier's maximum (R-RM-12), sixteen
        tables at a time: set-up time linear in the number of tables."""
        async with httpx.AsyncClient(
            base_url=self.base, headers=CSRF, timeout=HTTP_TIMEOUT_S
        ) as http:
            opened = await http.post(
                "/bench/open_ahiko_rooms", json={"tier": AHIKO_TIER, "count": len(self.tables)}
            )
            opened.raise_for_status()
            gate = asyncio.Semaphore(16)

            async def one(player: Player) -> None:
                for attempt in range(3):
                    try:
                        response = await http.post(
                            f"/api/ahiko/rooms/{player.table.room_id}/buy_in",
                            json={
                                "seat": player.seat,
                                "amount": AHIKO_BUY_IN,
                                "key": f"{player.name}-{self.round}",
                            },
                            headers={"Cookie": f"ahiko_session={player.cookie}"},
                        )
                        break
                    # a pooled connection the server closed as idle (its keep-alive ran out
                    # while the set-up waited); the key makes the buy-in count once
                    except (httpx.ReadError, httpx.RemoteProtocolError):
                        if attempt == 2:
                            raise
                if response.status_code != 200:
                    self.stats.error(f"{player.name}: buy-in {response.text}")

            async def fill(table: Table, room_id: str) -> None:
                async with gate:
                    table.room_id = room_id
                    await self.connect_table(table)
                    await asyncio.gather(*(one(p) for p in table.players))

            ids = opened.json()["ids"]
            await asyncio.gather(*(fill(t, i) for t, i in zip(self.tables, ids, strict=True)))

    def restart(self, base: str, *, keep_rooms: bool) -> None:
        """The same players, against a restarted server at ``base``: new sockets; the same
        rooms and seats when the server kept them (``keep_rooms``), else new ones."""
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.round += 1
        self.stopping = False
        self.tasks = []
        for table in self.tables:
            table.pending.clear()
            if not keep_rooms:
                table.room_id = ""
            for player in table.players:
                player.ws = None
                player.thinking = False

    def ws_base_for(self, player: Player) -> str:
        """The server a player's socket goes to (``bench/cluster_load.py``: one of several)."""
        return self.ws_base

    async def open_socket(self, player: Player, url: str) -> Any:
        """A player's table socket at ``url`` (a room's ``ws://`` address)."""
        return await wsclient.connect(
            url,
            additional_headers={"Cookie": f"ahiko_session={player.cookie}"},
            open_timeout=60,
            ping_interval=None,
        )

    async def join_table(self, player: Player) -> None:
        """Opens ``player.ws`` to their table, up to the snapshot."""
        url = f"{self.ws_base_for(player)}/ws/rooms/{player.table.room_id}"
        player.ws = await self.open_socket(player, url)
        await player.ws.recv()  # the snapshot

    async def connect_table(self, table: Table) -> None:
        async def one(player: Player) -> None:
            await self.join_table(player)
            self.tasks.append(asyncio.create_task(self.play(player)))

        await asyncio.gather(*(one(p) for p in table.players))

    async def seat_everyone(self) -> None:
        # Back at kept seats after a restart (recreational rooms have ids from their creation
        # at sign-up already: they still need everyone to sit).
        if self.round > 0 and all(table.room_id for table in self.tables):
            await asyncio.gather(*(self.connect_table(t) for t in self.tables))
            return
        if self.rooms == "ahiko":
            await self.buy_in_all()
            return
        gate = asyncio.Semaphore(8)

        async def table_ready(table: Table) -> None:
            async with gate:
                await self.connect_table(table)
                for player in table.players:
                    await player.send("sit", seat=player.seat)
                await self.sat_down(table)

        # Every table seated before any starts: a table seated late does not queue behind
        # the hands of those already playing (set-up time linear in the number of tables).
        await asyncio.gather(*(table_ready(t) for t in self.tables))
        for table in self.tables:
            if len(table.players) >= 2:
                await table.players[0].send("start")

    async def sat_down(self, table: Table) -> None:
        """Before the start: the sits are sent (``bench/cluster_load.py`` waits for them to
        land, some going through the relay)."""

    async def play(self, player: Player) -> None:
        try:
            async for raw in player.ws:
                self.stats.frames += 1
                self.stats.frame_chars += len(raw)
                frame = orjson.loads(raw)
                kind = frame["t"]
                if kind == "hand":
                    self.on_hand(player, frame)
                elif kind == "error":
                    if frame.get("code") != "stale_hand":  # a think that outlived the turn
                        self.stats.error(
                            f"{player.name}: {frame.get('code')} {frame.get('message')}"
                        )
                elif kind == "room":
                    await self.maybe_reenter(player, frame["room"])
        except websockets.ConnectionClosed as exc:
            if not self.stopping:
                self.stats.error(f"{player.name}: connection closed {exc}")

    def on_hand(self, player: Player, frame: dict[str, Any]) -> None:
        table = player.table
        now = time.perf_counter()
        for event in frame.get("events", ()):
            if event.get("kind") == "hand_ended" and player is table.players[0] and table.measuring:
                self.stats.hands += 1
            if event.get("kind") != "action":
                continue
            if event.get("seat") == player.seat:
                player.thinking = False
            if event.get("seat") not in table.pending:
                continue
            sent_at, waiting = table.pending[event["seat"]]
            waiting.discard(player.name)
            if not waiting:
                del table.pending[event["seat"]]
                if table.measuring:
                    self.stats.latencies_ms.append((now - sent_at) * 1000)
                    kinds = {e.get("kind") for e in frame.get("events", ())}
                    what = "ends_hand" if "hand_ended" in kinds else ",".join(sorted(kinds))
                    self.stats.by_kind.setdefault(what, []).append((now - sent_at) * 1000)
        view = frame.get("view") or {}
        legal = view.get("legal")
        if legal and view.get("to_act") == player.seat and not player.thinking:
            player.thinking = True
            task = asyncio.create_task(self.act(player, frame["hand_no"], view, legal))
            self.thinking.add(task)
            task.add_done_callback(self.thinking.discard)

    async def act(
        self, player: Player, hand_no: int, view: dict[str, Any], legal: dict[str, Any]
    ) -> None:
        await asyncio.sleep(player.rng.uniform(0.5, 1.5) * self.think)
        if self.stopping:
            return
        table = player.table
        table.pending[player.seat] = (time.perf_counter(), {p.name for p in table.players})
        self.stats.actions += 1
        with suppress(websockets.ConnectionClosed):
            await player.send("act", hand_no=hand_no, **choose(player.rng, view, legal))

    async def maybe_reenter(self, player: Player, room: dict[str, Any]) -> None:
        """A busted player takes chips again: a new entry (R-RM-06) or a reload (R-RM-13)."""
        seats = room.get("seats", ())
        mine = next((s for s in seats if s["player_id"] == player.player_id), None)
        if mine is None or mine["stack"] != 0 or room.get("hand_no") is not None:
            return
        if room.get("kind") != "ahiko":
            await player.send("new_entry")
            return
        player.reloads += 1
        async with httpx.AsyncClient(
            base_url=self.base, headers=CSRF, timeout=HTTP_TIMEOUT_S
        ) as http:
            await http.post(
                f"/api/ahiko/rooms/{player.table.room_id}/reload",
                json={"amount": AHIKO_BUY_IN, "key": f"{player.name}-reload-{player.reloads}"},
                headers={"Cookie": f"ahiko_session={player.cookie}"},
            )

    def expire_pending(self) -> None:
        now = time.perf_counter()
        for table in self.tables:
            for seat, (sent_at, _waiting) in list(table.pending.items()):
                if now - sent_at > LATENCY_GIVE_UP_S:
                    del table.pending[seat]
                    self.stats.error(f"table {table.index}: action of seat {seat} not broadcast")

    async def close_all(self) -> None:
        self.stopping = True
        for table in self.tables:
            for player in table.players:
                if player.ws is not None:
                    with suppress(Exception):
                        await player.ws.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def measure(
    server: Measured,
    players: int,
    tables: int,
    think: float,
    duration: float,
    seed: int,
    warmup: float,
    rooms: str = "ahiko",
    py_spy: Path | None = None,
    run: LoadRun | None = None,
) -> dict[str, Any]:
    """``run``: the players, when not ``LoadRun``'s against ``server`` alone."""
    run = run or LoadRun(server.base, players, tables, think, seed, rooms)
    client_lag = LoopLag()
    memory0 = server.memory_kib()
    started = time.perf_counter()
    await run.sign_up_all()
    await run.seat_everyone()
    setup_s = time.perf_counter() - started
    # the players' own garbage collector tuned as the server's is: their thousands of sockets
    # and tables made at the set-up out of its sight, the young generation collected less
    # often (each frame decoded is a tree of a few hundred objects)
    tune_gc()
    await asyncio.sleep(warmup)
    for table in run.tables:
        table.measuring = True
    lag_probe = isinstance(server, ServerProcess)  # a cluster's nodes are `ahiko serve`
    if lag_probe:
        await loop_lag_window(server.base, start=True)
        pauses0 = await asyncio.to_thread(pauses_of, server.base)
    spy = start_py_spy(server, py_spy, duration) if py_spy is not None else None
    frames0, cpu0, wall0 = run.stats.frames, server.cpu_seconds(), time.perf_counter()
    chars0 = run.stats.frame_chars
    sys0 = _system_cpu(server)
    client_cpu0 = time.process_time()
    client_lag.start()
    end = wall0 + duration
    while time.perf_counter() < end:
        await asyncio.sleep(min(1.0, end - time.perf_counter()))
        run.expire_pending()
    wall = time.perf_counter() - wall0
    cpu = server.cpu_seconds() - cpu0
    sys_cpu = _system_cpu(server) - sys0
    client_cpu = time.process_time() - client_cpu0
    server_lag = await loop_lag_window(server.base, start=False) if lag_probe else None
    pauses = None
    if lag_probe:
        pauses = pause_window([pauses0], [await asyncio.to_thread(pauses_of, server.base)])
    memory = server.memory_kib()
    frames = run.stats.frames - frames0
    frame_chars = run.stats.frame_chars - chars0
    assert client_lag.task is not None
    client_lag.task.cancel()
    if spy is not None:
        await asyncio.to_thread(spy.wait, 60)
    await run.close_all()
    s = run.stats
    if s.hands == 0 or not s.latencies_ms:
        raise NothingMeasured(
            f"no figure: {s.hands} hand(s) finished and {len(s.latencies_ms)} action(s) were "
            f"broadcast in the {wall:.0f} s measured ({s.errors} error(s): {s.error_samples[:3]})"
        )
    return {
        "players": players,
        "tables": tables,
        "think_s": think,
        "duration_s": round(wall, 1),
        "setup_s": round(setup_s, 1),
        "hands": s.hands,
        "actions_measured": len(s.latencies_ms),
        "p50_ms": round(percentile(s.latencies_ms, 50), 1),
        "p95_ms": round(percentile(s.latencies_ms, 95), 1),
        "p99_ms": round(percentile(s.latencies_ms, 99), 1),
        "max_ms": round(max(s.latencies_ms, default=float("nan")), 1),
        "by_events": {
            what: [len(found), round(percentile(found, 50), 1), round(percentile(found, 99), 1)]
            for what, found in s.by_kind.items()
        },
        "frames_per_s": round(frames / wall, 1),
        "bytes_per_frame": round(frame_chars / max(frames, 1)),
        "errors": s.errors,
        "error_samples": s.error_samples,
        "server_cpu_pct": round(100 * cpu / wall, 1),
        "client_cpu_pct": round(100 * client_cpu / wall, 1),
        "client_loop_lag": client_lag.summary(),
        "server_loop_lag": server_lag,  # of the measured window (bench/load.py's server only)
        "server_pauses": pauses,  # the same window's, from GET /api/health/pauses
        "load_average_1m": os.getloadavg()[0],
        "server_rss_mib": round(memory.get("VmRSS", 0) / 1024, 1),
        "server_peak_rss_mib": round(memory.get("VmHWM", 0) / 1024, 1),
        # what the players added to the server's memory, from its size before the sign-ups
        "memory_per_player_kib": round(
            (memory.get("VmRSS", 0) - memory0.get("VmRSS", 0)) / max(players, 1), 1
        ),
        "server_cpu_us_per_frame": round(1e6 * cpu / max(frames, 1), 1),
        "client_cpu_us_per_frame": round(1e6 * client_cpu / max(frames, 1), 1),
        # the kernel's part of server_cpu_us_per_frame (of the first node only, for a cluster)
        "server_sys_cpu_us_per_frame": round(1e6 * sys_cpu / max(frames, 1), 1),
        "password_hashing": PASSWORD_HASHING,
    }


def _system_cpu(server: Measured) -> float:
    """The server process's kernel CPU seconds (a cluster's: its first node's, ``proc``)."""
    proc = getattr(server, "proc", None)
    return 0.0 if proc is None else process_system_cpu_seconds(proc.pid)


def start_py_spy(server: Measured, out: Path, duration: float) -> subprocess.Popen[bytes]:
    """py-spy sampling the server through the measured window; ``out`` gets collapsed stacks
    (``--format raw``: one line per stack with its sample count, for ``bench/profile_summary.py``)."""
    assert server.proc is not None
    spy = Path(sys.executable).parent / "py-spy"
    return subprocess.Popen(
        [
            str(spy),
            "record",
            "--pid",
            str(server.proc.pid),
            "--duration",
            str(int(duration)),
            "--gil",
            "--rate",
            "200",
            "--format",
            "raw",
            "--nonblocking",
            "--output",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def run_load(
    players: int,
    tables: int,
    think: float,
    duration: float,
    seed: int = 1,
    warmup: float = 5.0,
    profile: Path | None = None,
    rooms: str = "ahiko",
    experiment: str | None = None,
    py_spy: Path | None = None,
) -> dict[str, Any]:
    env = {"AHIKO_BENCH_EXPERIMENT": experiment} if experiment else {}
    with running_server(profile=profile, env=env) as server:
        result = run_clients(
            measure(server, players, tables, think, duration, seed, warmup, rooms, py_spy)
        )
        verdict = stopped_verdict(server)
    result["rooms"] = rooms
    if experiment:
        result["experiment"] = experiment
    result.update(verdict)
    return result


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = serve_or_parse(argv, __doc__)
    if parser is None:
        return 0
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--tables", type=int, default=0, help="default: players / 8, rounded up")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rooms", choices=("ahiko", "recreational"), default="ahiko", help="kind of tables"
    )
    parser.add_argument("--profile", type=Path, help="write the server's cProfile stats here")
    parser.add_argument(
        "--experiment",
        choices=("cached_history", "gc_off", "gc_census"),
        help="patch the server to measure a fix (gc_census: count what the collector walks,"
        " by type, into $AHIKO_BENCH_GC_CENSUS, default $TMPDIR/gc_census.json)",
    )
    parser.add_argument(
        "--py-spy", type=Path, help="sample the server with py-spy while measuring (raw stacks)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    tables = args.tables or math.ceil(args.players / SEATS_PER_TABLE)
    try:
        result = run_load(
            args.players,
            tables,
            args.think,
            args.duration,
            args.seed,
            args.warmup,
            args.profile,
            args.rooms,
            args.experiment,
            args.py_spy,
        )
    except NothingMeasured as exc:
        print(f"bench/load.py: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    return 0 if result["ledger_ok"] and result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
