"""The server side of ``bench/load.py``: the Ahiko server as a separate process on
127.0.0.1 (the real ``create_app`` with cheap argon2 parameters and relaxed sign-up limits),
its CPU and memory from ``/proc``, its event-loop lag, and ``ahiko admin check-ledger``.

``python bench/load.py --serve DATA_DIR PORT`` runs ``serve`` in the child process.
Environment for the child: ``AHIKO_BENCH_SPEED`` (room clock speed-up, tests only),
``AHIKO_BENCH_LOG_LEVEL`` (``info``: every log line, for the leak tests), the server's own
``AHIKO_MTT_*`` settings (``bench/mtt_live.py``'s short blind levels) and
``AHIKO_BENCH_EXPERIMENT`` (``cached_history``, ``gc_off``, ``gc_census``: measure a proposed
fix, or what the collector walks; otherwise the
server runs with the garbage-collector tuning and WebSocket options of ``ahiko serve``).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import json
import logging
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
LOAD_SCRIPT = Path(__file__).resolve().parent / "load.py"
CLK_TCK = os.sysconf("SC_CLK_TCK")
T = TypeVar("T")


def serve(data_dir: Path, port: int, routes: Iterable[Callable[[Any], None]] = ()) -> None:
    """The server side of the bench (runs in the child process); ``routes`` add a bench's
    own set-up or read-out routes to the app (``bench/mtt_live.py``'s)."""
    import uvicorn
    from argon2 import PasswordHasher

    from ahiko.rooms.clock import AsyncioClock
    from ahiko.server.app import archiving_registry, create_app
    from ahiko.server.cli import WS_MAX_BYTES, tune_gc
    from ahiko.server.limits import LimitsPolicy, SiteLimits
    from ahiko.server.security import RateLimit
    from ahiko.server.settings import Settings

    try:  # the WebSocket protocol of `ahiko serve` (its direct write for the gateway)
        from ahiko.server.ws_protocol import AhikoWebSocketProtocol as ws_protocol
    except ImportError:  # an older tree, measured for comparison
        ws_protocol = "websockets-sansio"  # type: ignore[assignment]
    from ahiko.store.engine import make_engine
    from ahiko.store.migrate import upgrade

    # the MTT settings from the environment (``bench/mtt_live.py``: short blind levels)
    mtt_env = {k: v for k, v in os.environ.items() if k.startswith("AHIKO_MTT_")}
    settings = Settings.from_env(mtt_env, host="127.0.0.1", port=port, data_dir=data_dir)
    log_level = os.environ.get("AHIKO_BENCH_LOG_LEVEL", "warning")
    if log_level in ("info", "debug"):  # the leak tests read every line our code logs
        logging.basicConfig(level=logging.INFO)
        logging.getLogger("ahiko").setLevel(logging.DEBUG)
    data_dir.mkdir(parents=True, exist_ok=True)
    engine = make_engine(settings.resolved_database_url)
    upgrade(engine, settings.bot_reserve)
    engine.dispose()
    app = create_app(
        settings, password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    )
    # Thousands of players sign up from one loopback address.
    app.state.security = dataclasses.replace(
        app.state.security, sign_up=RateLimit(1_000_000, 60.0), log_in=RateLimit(1_000_000, 60.0)
    )
    # ... and open thousands of sockets from it: the per-address bound is for the internet
    # (the per-account bound still holds; bench/attack.py floods against it).
    app.state.limits = SiteLimits(
        dataclasses.replace(LimitsPolicy.from_env(), sockets_per_address=1_000_000)
    )
    experiment = os.environ.get("AHIKO_BENCH_EXPERIMENT")
    if experiment == "cached_history":
        cache_public_history()
    elif experiment == "gc_off":  # what the cyclic garbage collector costs, at most
        gc.disable()
        os.environ["AHIKO_GC_YOUNG_S"] = "0"  # and no clock (read when the app starts)
    else:  # the production setting of `ahiko serve`
        tune_gc()
    if experiment == "gc_census":  # what the collector's passes walk, by type
        census_collections(
            Path(os.environ.get("AHIKO_BENCH_GC_CENSUS", f"{tempfile.gettempdir()}/gc_census.json"))
        )
    add_open_rooms_route(app)
    for add_route in routes:
        add_route(app)
    speed = float(os.environ.get("AHIKO_BENCH_SPEED", "1"))
    if speed != 1:  # every rule duration shortened (tests); the load bench runs at 1
        app.state.room_registry = archiving_registry(app, clock=AsyncioClock(speed=speed))
        # A player's frames then come `speed` times faster than a person's: the per-socket
        # allowance (real seconds) would close their sockets ("too many frames", 1008) and
        # leave the table without its people, as tests/live_server.py's fast_app scales it.
        frames = app.state.security.ws_frames
        app.state.security = dataclasses.replace(
            app.state.security,
            ws_frames=dataclasses.replace(frames, count=math.ceil(frames.count * speed)),
        )
    probe = LagProbe(app)
    uvicorn.run(
        probe,
        host="127.0.0.1",
        port=port,
        log_level=log_level,
        ws=ws_protocol,
        ws_max_size=WS_MAX_BYTES,  # the same WebSocket options as `ahiko serve`
        ws_per_message_deflate=False,
    )


def serve_or_parse(
    argv: list[str], description: str | None, routes: Iterable[Callable[[Any], None]] = ()
) -> argparse.ArgumentParser | None:
    """A bench script's start: ``--serve DATA PORT`` is the server process the bench itself
    started (``running_server``), which serves and returns None once stopped; otherwise the
    parser to which the bench adds its own arguments."""
    if argv[:1] == ["--serve"]:
        serve(Path(argv[1]), int(argv[2]), routes=routes)
        return None
    return argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )


def run_clients(main: Coroutine[Any, Any, T]) -> T:
    """Run the bench's simulated players (``main``) on uvloop, the loop ``ahiko serve`` runs
    on (uvicorn's choice when it is installed; asyncio's own loop otherwise): the players
    share the machine's two cores with the server, and every microsecond they spend on a
    frame is one the server does not get (at 8,000 players on asyncio's loop and the standard
    library's JSON they took 154 us a frame, more than the server)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def add_open_rooms_route(app: Any) -> None:
    """``POST /bench/open_ahiko_rooms {"tier", "count"}``: open ``count`` Ahiko rooms of a tier
    at once and answer their ids, for the bench's set-up only. The lobby opens a room only
    when every room of the tier is full (R-RM-10), so filling tables through it is one table
    after another, each waiting for the lobby; the bench opens the rooms it fills and fills
    them side by side. The lobby's own rebalancing (opening, closing surplus empty rooms) is
    off in the bench server: it would close the rooms opened here before they fill."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from ahiko.rooms.house.lobby import AhikoLobby
    from ahiko.rooms.house.tiers import tier_of
    from ahiko.server.services import ahiko_lobby

    AhikoLobby.rebalance = lambda self, tier: None  # type: ignore[method-assign]

    async def open_rooms(request: Request) -> JSONResponse:
        body = await request.json()
        lobby, tier = ahiko_lobby(request.app), tier_of(str(body["tier"]))
        actors = [lobby.open_room(tier) for _ in range(int(body["count"]))]
        return JSONResponse({"ids": [actor.room.room_id for actor in actors]})

    app.router.routes.insert(0, Route("/bench/open_ahiko_rooms", open_rooms, methods=["POST"]))


class LoopLag:
    """How late a 10 ms sleep wakes up: the time the event loop was busy with something
    else. Its tail is what one slow callback (a blocking database write, a big broadcast)
    adds to every other table's latency."""

    PERIOD_S = 0.01

    def __init__(self) -> None:
        self.samples_ms: list[float] = []
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.PERIOD_S)
            self.samples_ms.append((time.perf_counter() - before - self.PERIOD_S) * 1000)

    def summary(self) -> dict[str, float]:
        s = self.samples_ms
        busy = sum(x for x in s if x > 50)
        return {
            "p50_ms": round(percentile(s, 50), 1),
            "p99_ms": round(percentile(s, 99), 1),
            "max_ms": round(max(s, default=float("nan")), 1),
            "stalls_over_50ms": sum(1 for x in s if x > 50),
            "stalled_s": round(busy / 1000, 1),
        }


LAG_BOUNDS_TO_20 = ("1", "2", "5", "10", "20")  # the loop-lag buckets of 20 ms or less


def pauses_of(base: str) -> dict[str, Any]:
    """A server's ``GET /api/health/pauses``: its counters since it started."""
    answer = httpx.get(f"{base}/api/health/pauses", timeout=30)
    answer.raise_for_status()
    return dict(answer.json())


def pause_window(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    """The pauses between two readings of each server (``pauses_of``, in the same order):
    collector passes by generation (count, ms, objects freed) and event-loop lateness (wakes,
    ms, wakes later than 20 ms), summed over the servers; ``*_longest_ms`` is the longest of any
    server since it started (a window's longest is not kept); the loop's stacks while late
    when the servers run with ``AHIKO_STALL_STACKS=1``."""
    found: dict[str, Any] = {}

    def add(key: str, value: float) -> None:
        found[key] = round(found.get(key, 0) + value, 1)

    for first, last in zip(before, after, strict=True):
        parts = {f"gc{g}": (first["gc"][g], last["gc"][g]) for g in ("0", "1", "2")}
        parts["loop_lag"] = (first["loop_lag"], last["loop_lag"])
        for g in ("0", "1", "2"):
            add(f"gc{g}_collected", last["gc_collected"][g] - first["gc_collected"][g])
        for name, (was, now) in parts.items():
            add(f"{name}_count", now["count"] - was["count"])
            add(f"{name}_total_ms", now["total_ms"] - was["total_ms"])
            found[f"{name}_longest_ms"] = max(found.get(f"{name}_longest_ms", 0), now["longest_ms"])
        buckets = last["loop_lag"]["buckets_ms"].items()
        late = first["loop_lag"]["buckets_ms"]
        add(
            "loop_lag_over_20ms",
            sum(n - late[bound] for bound, n in buckets if bound not in LAG_BOUNDS_TO_20),
        )
        if last.get("stall_stacks") is not None:
            stacks = found.setdefault("stall_stacks", {})
            for stack, samples in last["stall_stacks"].items():
                grew = samples - (first.get("stall_stacks") or {}).get(stack, 0)
                if grew > 0:
                    stacks[stack] = stacks.get(stack, 0) + grew
    return found


class LagProbe:
    """Wraps the server app: starts a ``LoopLag`` with the server's event loop, and forgets
    what it measured so far on ``POST /bench/loop_lag`` and answers its summary on ``GET``
    (``loop_lag_window``: the bench reports the lag of its measured window, not of the
    set-up's sign-ups and buy-ins)."""

    PATH = "/bench/loop_lag"

    def __init__(self, app: Any) -> None:
        self.app = app
        self.lag = LoopLag()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan" and self.lag.task is None:
            self.lag.start()
        if scope["type"] == "http" and scope["path"] == self.PATH:
            if scope["method"] == "POST":
                self.lag.samples_ms.clear()
            body = json.dumps(self.lag.summary()).encode()
            headers = [(b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


async def loop_lag_window(base: str, *, start: bool) -> dict[str, float]:
    """The bench server's loop lag: ``start`` forgets what came before (the window opens),
    otherwise the summary of what it measured since (``LagProbe``)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        answer = await (http.post if start else http.get)(LagProbe.PATH)
        answer.raise_for_status()
        summary: dict[str, float] = answer.json()
        return summary


def cache_public_history() -> None:
    """An experiment, not a fix (``AHIKO_BENCH_EXPERIMENT=cached_history``): convert each
    public history event to its dict once, instead of once per viewer per frame, to measure
    what the fix proposed for ``poker/view.py`` and ``rooms/frames.py`` would gain."""
    from ahiko.poker import view as view_module

    original = view_module._public
    cache: dict[tuple[int, bool, int | None], tuple[Any, dict[str, Any]]] = {}

    def cached(event: Any, blind_to_others: bool, my_seat: int | None) -> dict[str, Any]:
        key = (id(event), blind_to_others, my_seat if blind_to_others else None)
        hit = cache.get(key)
        if hit is not None and hit[0] is event:
            return hit[1]
        if len(cache) > 500_000:
            cache.clear()
        found = original(event, blind_to_others, my_seat)
        cache[key] = (event, found)
        return found

    view_module._public = cached


def census_collections(out: Path, every: int = 8) -> Callable[[str, dict[str, int]], None]:
    """An experiment (``AHIKO_BENCH_EXPERIMENT=gc_census``): before every ``every``-th pass of
    each generation of the cyclic collector, count by type the objects that pass will walk
    (the generations it collects), and rewrite ``out`` with the totals so far. The counting
    costs CPU: a run with it measures what the passes walk, not the server's CPU. Answers the
    callback it put in ``gc.callbacks``."""
    from collections import Counter

    passes = [0, 0]  # young, middle (a full pass is not counted)
    walked: list[Counter[str]] = [Counter(), Counter()]
    objects = [0, 0]

    def on_pass(phase: str, info: dict[str, int]) -> None:
        generation = info["generation"]
        if phase != "start" or generation > 1:
            return
        passes[generation] += 1
        if passes[generation] % every:
            return
        found = [o for g in range(generation + 1) for o in gc.get_objects(generation=g)]
        objects[generation] += len(found)
        walked[generation].update(f"{type(o).__module__}.{type(o).__qualname__}" for o in found)
        del found
        report = {}
        for g in (0, 1):
            sampled = passes[g] // every
            report[f"gen{g}"] = {
                "passes": passes[g],
                "sampled": sampled,
                "objects_per_pass": objects[g] / max(1, sampled),
                "top": [
                    (name, round(count / max(1, sampled), 1))
                    for name, count in walked[g].most_common(40)
                ],
            }
        out.write_text(json.dumps(report, indent=1))

    gc.callbacks.append(on_pass)
    return on_pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ServerProcess:
    data_dir: Path
    port: int
    log_path: Path
    profile: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = None
    script: Path = LOAD_SCRIPT  # the bench script whose ``--serve`` runs the server

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        args = [str(self.script), "--serve", str(self.data_dir), str(self.port)]
        if self.profile is not None:
            args = ["-m", "cProfile", "-o", str(self.profile), *args]
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [PYTHON, *args],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, **self.env},
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            with suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not answer /api/health within 60 s")

    def stop(self, sig: int = signal.SIGINT) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (the crash drill)."""
        self.stop(signal.SIGKILL)

    def cpu_seconds(self) -> float:
        assert self.proc is not None
        return process_cpu_seconds(self.proc.pid)

    def memory_kib(self) -> dict[str, int]:
        assert self.proc is not None
        return process_memory_kib(self.proc.pid)


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads, from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def process_system_cpu_seconds(pid: int) -> float:
    """The kernel's part of ``process_cpu_seconds`` (system calls: socket writes and reads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[12]) / CLK_TCK  # stime


def process_memory_kib(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of a process, KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found


def check_ledger(data_dir: Path) -> tuple[bool, str]:
    proc = subprocess.run(
        [str(Path(PYTHON).parent / "ahiko"), "admin", "check-ledger", "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def stopped_verdict(server: ServerProcess) -> dict[str, Any]:
    """Stops the server, then ``ahiko admin check-ledger`` on its data and the tracebacks its
    log holds: ``ledger_ok``, ``ledger``, ``server_log_tracebacks`` (and the first one)."""
    server.stop()
    ledger_ok, ledger_text = check_ledger(server.data_dir)
    log = server.log_path.read_text(errors="replace")
    verdict: dict[str, Any] = {
        "ledger_ok": ledger_ok,
        "ledger": ledger_text,
        "server_log_tracebacks": log.count("Traceback"),
    }
    if "Traceback" in log:
        verdict["first_traceback"] = log[log.index("Traceback") :][:1500]
    return verdict


@contextmanager
def running_server(
    data_dir: Path | None = None,
    profile: Path | None = None,
    env: dict[str, str] | None = None,
    script: Path = LOAD_SCRIPT,
) -> Iterator[ServerProcess]:
    with tempfile.TemporaryDirectory(prefix="ahiko-load-") as tmp:
        folder = data_dir or Path(tmp) / "data"
        server = ServerProcess(
            folder, free_port(), Path(tmp) / "server.log", profile, env or {}, script=script
        )
        server.start()
        try:
            yield server
        finally:
            server.stop()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[index]
