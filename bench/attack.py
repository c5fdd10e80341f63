"""Honest players under attack, side by side in one run of one server.

    python bench/attack.py --players 1000 --duration 60 --warmup 20 [--json]
    python bench/attack.py --soak --players 2000 --duration 600 --warmup 120 [--json]

Attack mode: ``bench/load.py``'s honest players (real WebSocket clients, 1 s think time) play
for ``--duration`` seconds alone, then ``--duration`` more while a bounded attacker runs the
red team's floods against the same server: one account creating rooms as fast as it is
answered, the same account opening sockets, bursts of 40 concurrent wrong log-ins against a
real account, and requests with a 48 KB crafted ``Cookie`` header (each one froze the server
for about 3 s before the header limit), plus a health check timed while they run. The
attacker only talks to 127.0.0.1 and is bounded in count and in time. The figures: honest
p99 action → broadcast in each phase and their ratio (goal: under attack within 2x), honest
errors, ``check-ledger`` after the run, and what the server answered the attacker.

Soak mode (``--soak``): the honest players alone for ``--duration`` seconds, the server's RSS
sampled every 5 s; after ``--warmup`` the peak RSS may grow less than 10% over the RSS at the
end of the warm-up, with 0 errors and a clean ledger.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import subprocess
import sys
import time
from collections import Counter
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_server import ServerProcess, check_ledger, percentile, running_server

from load import CSRF, SEATS_PER_TABLE, LoadRun

ATTACK_COOKIE = "a=" + '"' + "\\" * 48_000 + '"'
LOGIN_BURST = 40
ATTACK_ROOMS = 2_001  # the red team made 2,000 rooms in 3 s
ATTACK_SOCKETS = 600  # and had 600 sockets accepted
ATTACK_HEADERS = 200
HEALTH_PROBES = 50
FLOODS = frozenset({"rooms", "sockets", "log_ins", "headers"})


class Attacker:
    """The red team's floods, bounded: each has a fixed number of requests and the whole
    attack stops at ``deadline`` (monotonic seconds)."""

    def __init__(
        self, base: str, victim: str, deadline: float, floods: frozenset[str] = FLOODS
    ) -> None:
        self.floods = floods
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.victim = victim
        self.deadline = deadline
        self.answers: dict[str, Counter[str]] = {
            kind: Counter() for kind in ("rooms", "sockets", "log_ins", "headers")
        }
        self.health_ms: list[float] = []
        self.header_ms: list[float] = []
        self.sockets: list[Any] = []

    def _left(self) -> bool:
        return time.monotonic() < self.deadline

    async def run(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, headers=CSRF, timeout=30) as http:
            response = await http.post(
                "/api/accounts", json={"username": "mallory", "password": "not a secret"}
            )
            response.raise_for_status()
            cookie = response.cookies["ahiko_session"]
            http.cookies.clear()
            chosen = {
                "rooms": lambda: self.rooms(http, cookie),
                "sockets": lambda: self.open_sockets(cookie),
                "log_ins": lambda: self.log_ins(http),
                "headers": lambda: self.headers(http),
            }
            await asyncio.gather(
                self.health(http),
                *(flood() for name, flood in chosen.items() if name in self.floods),
            )
        for socket in self.sockets:
            with suppress(Exception):
                await socket.close()

    async def rooms(self, http: httpx.AsyncClient, cookie: str) -> None:
        gate = asyncio.Semaphore(4)

        async def one(n: int) -> None:
            async with gate:
                if not self._left():
                    return
                response = await http.post(
                    "/api/rooms",
                    json={"name": f"Flood {n}"},
                    headers={"Cookie": f"ahiko_session={cookie}"},
                )
                self.answers["rooms"][str(response.status_code)] += 1

        await asyncio.gather(*(one(n) for n in range(ATTACK_ROOMS)))

    async def open_sockets(self, cookie: str) -> None:
        room_id = ""
        async with httpx.AsyncClient(base_url=self.base) as http:
            rooms = (await http.get("/api/ahiko/rooms")).json()
            room_id = rooms[0]["id"]
        for _ in range(ATTACK_SOCKETS):
            if not self._left():
                return
            try:
                socket = await asyncio.wait_for(
                    websockets.connect(
                        f"{self.ws_base}/ws/rooms/{room_id}",
                        additional_headers={"Cookie": f"ahiko_session={cookie}"},
                        max_size=2**22,
                    ),
                    timeout=10,
                )
                first = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
            except Exception as error:  # refused at the upgrade, or no answer
                self.answers["sockets"][type(error).__name__] += 1
                continue
            if first.get("t") == "error":
                self.answers["sockets"][first.get("code", "error")] += 1
                with suppress(Exception):
                    await socket.close()
            else:
                self.answers["sockets"]["accepted"] += 1
                self.sockets.append(socket)
            await asyncio.sleep(0.01)

    async def log_ins(self, http: httpx.AsyncClient) -> None:
        async def guess(n: int) -> None:
            response = await http.post(
                "/api/session", json={"username": self.victim, "password": f"guess-{n}"}
            )
            self.answers["log_ins"][str(response.status_code)] += 1

        for burst in range(10):
            if not self._left():
                return
            await asyncio.gather(*(guess(burst * LOGIN_BURST + n) for n in range(LOGIN_BURST)))
            await asyncio.sleep(0.5)

    async def headers(self, http: httpx.AsyncClient) -> None:
        for _ in range(ATTACK_HEADERS):
            if not self._left():
                return
            started = time.perf_counter()
            try:
                response = await http.get("/api/me", headers={"Cookie": ATTACK_COOKIE})
                self.answers["headers"][str(response.status_code)] += 1
            except httpx.HTTPError as error:
                self.answers["headers"][type(error).__name__] += 1
            self.header_ms.append(1000 * (time.perf_counter() - started))
            await asyncio.sleep(0.02)

    async def health(self, http: httpx.AsyncClient) -> None:
        for _ in range(HEALTH_PROBES):
            if not self._left():
                return
            started = time.perf_counter()
            await http.get("/api/health")
            self.health_ms.append(1000 * (time.perf_counter() - started))
            await asyncio.sleep(0.2)

    def summary(self) -> dict[str, Any]:
        return {
            "attack_answers": {kind: dict(found) for kind, found in self.answers.items()},
            "attack_sockets_held": len(self.sockets),
            "oversized_header_p99_ms": round(percentile(self.header_ms, 99), 1),
            "health_under_attack_p99_ms": round(percentile(self.health_ms, 99), 1),
        }


def _phase(run: LoadRun, since: tuple[int, int]) -> dict[str, Any]:
    latencies = run.stats.latencies_ms[since[0] :]
    return {
        "actions": len(latencies),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
        "errors": run.stats.errors - since[1],
    }


def _mark(run: LoadRun) -> tuple[int, int]:
    return len(run.stats.latencies_ms), run.stats.errors


async def _play_for(run: LoadRun, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        await asyncio.sleep(min(1.0, end - time.perf_counter()))
        run.expire_pending()


async def _honest(server: ServerProcess, players: int, seed: int, warmup: float) -> LoadRun:
    tables = math.ceil(players / SEATS_PER_TABLE)
    run = LoadRun(server.base, players, tables, 1.0, seed, "ahiko")
    await run.sign_up_all()
    await run.seat_everyone()
    await asyncio.sleep(warmup)
    for table in run.tables:
        table.measuring = True
    return run


async def attack(
    server: ServerProcess,
    players: int,
    duration: float,
    warmup: float,
    floods: frozenset[str] = FLOODS,
) -> dict[str, Any]:
    run = await _honest(server, players, 1, warmup)
    alone_from = _mark(run)
    cpu_start = server.cpu_seconds()
    await _play_for(run, duration)
    alone = _phase(run, alone_from)
    cpu_alone = server.cpu_seconds() - cpu_start
    memory_before = server.memory_kib()
    victim = run.tables[0].players[0].name
    attacked_from = _mark(run)
    # The attacker is its own process: its work must not slow the honest clients' loop.
    attacker = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--attacker",
        server.base,
        victim,
        str(duration),
        ",".join(sorted(floods)),
        stdout=asyncio.subprocess.PIPE,
    )
    await _play_for(run, duration)
    out, _ = await asyncio.wait_for(attacker.communicate(), timeout=120)
    attack_summary = json.loads(out.decode().strip().splitlines()[-1])
    attacked = _phase(run, attacked_from)
    cpu_attacked = server.cpu_seconds() - cpu_start - cpu_alone
    memory_after = server.memory_kib()
    await run.close_all()
    return {
        "players": players,
        "duration_s": duration,
        "alone_p99_ms": alone["p99_ms"],
        "attacked_p99_ms": attacked["p99_ms"],
        "p99_ratio": round(attacked["p99_ms"] / alone["p99_ms"], 2) if alone["p99_ms"] else None,
        "alone_p50_ms": alone["p50_ms"],
        "attacked_p50_ms": attacked["p50_ms"],
        "alone_actions": alone["actions"],
        "attacked_actions": attacked["actions"],
        "errors": alone["errors"] + attacked["errors"],
        # The server's CPU seconds in each phase (the attacker's floods are the difference).
        "server_cpu_alone_s": round(cpu_alone, 2),
        "server_cpu_attacked_s": round(cpu_attacked, 2),
        "error_samples": run.stats.error_samples,
        **attack_summary,
        "server_rss_before_attack_mib": round(memory_before.get("VmRSS", 0) / 1024, 1),
        "server_peak_rss_mib": round(memory_after.get("VmHWM", 0) / 1024, 1),
        "load_average_1m": os.getloadavg()[0],
    }


async def soak(
    server: ServerProcess, players: int, duration: float, warmup: float
) -> dict[str, Any]:
    run = await _honest(server, players, 2, 0.0)
    await _play_for(run, warmup)
    after_warmup = server.memory_kib().get("VmRSS", 0)
    since = _mark(run)
    samples = []
    end = time.perf_counter() + duration
    while time.perf_counter() < end:
        await _play_for(run, min(5.0, end - time.perf_counter()))
        samples.append(server.memory_kib().get("VmRSS", 0))
    found = _phase(run, since)
    await run.close_all()
    peak = max(samples, default=after_warmup)
    return {
        "players": players,
        "duration_s": duration,
        "warmup_s": warmup,
        "p99_ms": found["p99_ms"],
        "actions": found["actions"],
        "errors": found["errors"],
        "error_samples": run.stats.error_samples,
        "rss_after_warmup_mib": round(after_warmup / 1024, 1),
        "rss_peak_mib": round(peak / 1024, 1),
        "rss_end_mib": round(samples[-1] / 1024, 1) if samples else None,
        "rss_growth_pct": round(100 * (peak - after_warmup) / after_warmup, 1),
        "load_average_1m": os.getloadavg()[0],
    }


REFUSAL_KINDS = ("bad_csrf", "oversize_header", "too_large", "malformed", "rate_limited")


def _refusal_requests(kind: str, cookie: str) -> tuple[str, str, dict[str, str], bytes]:
    """One refused request of ``kind``: method, path, headers, body."""
    session = {"Cookie": f"ahiko_session={cookie}"}
    json_type = {"content-type": "application/json"}
    if kind == "bad_csrf":  # no X-Ahiko-CSRF header
        return "POST", "/api/rooms", {**session, **json_type}, b'{"name": "x"}'
    if kind == "oversize_header":
        return "GET", "/api/me", {"Cookie": "a=" + "b" * 9_000}, b""
    if kind == "too_large":
        return "POST", "/api/rooms", {**CSRF, **session, **json_type}, b"{" + b" " * 70_000 + b"}"
    if kind == "malformed":
        return "POST", "/api/rooms", {**CSRF, **session, **json_type}, b'{"name": '
    assert kind == "rate_limited"  # the account's room-creation window is full
    return "POST", "/api/rooms", {**CSRF, **session, **json_type}, b'{"name": "Flood"}'


def _cpu_per_request(
    cpu: Any, base: str, method: str, path: str, headers: dict[str, str], body: bytes, n: int
) -> tuple[float, Counter[str]]:
    statuses: Counter[str] = Counter()
    with httpx.Client(base_url=base, timeout=30) as http:
        http.request(method, path, headers=headers, content=body)  # the connection is open
        before = cpu()
        for _ in range(n):
            statuses[
                str(http.request(method, path, headers=headers, content=body).status_code)
            ] += 1
        after = cpu()
    return 1000 * (after - before) / n, statuses


def refusals(server: ServerProcess, n: int) -> dict[str, Any]:
    """Server CPU per refused request, by kind (ms), against a bare FastAPI app's refusal."""
    with httpx.Client(base_url=server.base, headers=CSRF, timeout=30) as http:
        response = http.post("/api/accounts", json={"username": "mallory", "password": "x" * 12})
        response.raise_for_status()
        cookie = response.cookies["ahiko_session"]
        for n_room in range(200):  # fill the account's room windows (open and created)
            made = http.post(
                "/api/rooms",
                json={"name": f"Fill {n_room}"},
                headers={"Cookie": f"ahiko_session={cookie}"},
            )
            if made.status_code == 429:
                break
    found: dict[str, Any] = {"requests_per_kind": n}
    found.update(_log_in_refusals(server, n))
    ms, statuses = _socket_refusals(server, cookie, n)
    found["socket_over_bound_cpu_ms"] = round(ms, 3)
    found["socket_over_bound_answers"] = dict(statuses)
    for kind in REFUSAL_KINDS:
        method, path, headers, body = _refusal_requests(kind, cookie)
        ms, statuses = _cpu_per_request(
            server.cpu_seconds, server.base, method, path, headers, body, n
        )
        found[f"{kind}_cpu_ms"] = round(ms, 3)
        found[f"{kind}_statuses"] = dict(statuses)
    bare = subprocess.Popen([sys.executable, __file__, "--serve-bare", str(server.port + 1)])
    try:
        base = f"http://127.0.0.1:{server.port + 1}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with suppress(httpx.HTTPError):
                httpx.get(f"{base}/up", timeout=1)
                break
            time.sleep(0.1)
        ms, statuses = _cpu_per_request(
            lambda: _cpu_of(bare.pid), base, "POST", "/api/rooms", {}, b'{"name": "x"}', n
        )
        found["bare_fastapi_refusal_cpu_ms"] = round(ms, 3)
        found["bare_fastapi_statuses"] = dict(statuses)
    finally:
        bare.terminate()
        bare.wait(timeout=10)
    found["load_average_1m"] = os.getloadavg()[0]
    return found


def _log_in_refusals(server: ServerProcess, n: int) -> dict[str, Any]:
    """Server CPU per log-in refused by the failed-log-in throttle (``too_many_attempts``):
    by account (the account guessed at too often, from an address that has been failing),
    then by address (the address failed too often, whatever the name). Everything comes from
    127.0.0.1; the middleware's per-address window is opened wide by the bench server."""
    from ahiko.server.accounts import MAX_FAILURES_PER_IP, MAX_FAILURES_PER_USERNAME

    found: dict[str, Any] = {}
    headers = {**CSRF, "content-type": "application/json"}

    def log_in(http: httpx.Client, username: str, password: str) -> int:
        body = json.dumps({"username": username, "password": password}).encode()
        return http.post("/api/session", content=body, headers=headers).status_code

    with httpx.Client(base_url=server.base, timeout=30) as http:
        http.post("/api/accounts", json={"username": "victim", "password": "y" * 12}, headers=CSRF)
        http.cookies.clear()
        for n_guess in range(MAX_FAILURES_PER_USERNAME):
            assert log_in(http, "victim", f"guess-{n_guess}") == 401
    steps = (
        ("log_in_throttled_account", "victim", MAX_FAILURES_PER_IP - MAX_FAILURES_PER_USERNAME),
        ("log_in_throttled_address", "someone", 0),
    )
    for kind, username, more_failures in steps:
        body = json.dumps({"username": username, "password": "y" * 12}).encode()
        ms, statuses = _cpu_per_request(
            server.cpu_seconds, server.base, "POST", "/api/session", headers, body, n
        )
        found[f"{kind}_cpu_ms"] = round(ms, 3)
        found[f"{kind}_statuses"] = dict(statuses)
        with httpx.Client(base_url=server.base, timeout=30) as http:
            for n_guess in range(more_failures):  # the address's failures up to its limit
                assert log_in(http, f"nobody{n_guess}", "guess") == 401
    return found


def _socket_refusals(server: ServerProcess, cookie: str, n: int) -> tuple[float, Counter[str]]:
    """Server CPU per table socket refused over the account's bound (the sockets flood)."""
    from websockets.sync.client import connect

    room_id = httpx.get(f"{server.base}/api/ahiko/rooms").json()[0]["id"]
    url = f"{server.base.replace('http://', 'ws://')}/ws/rooms/{room_id}"
    headers = {"Cookie": f"ahiko_session={cookie}"}
    answers: Counter[str] = Counter()
    with ExitStack() as held:
        for _ in range(ATTACK_SOCKETS):  # up to the account's bound
            socket = held.enter_context(connect(url, additional_headers=headers, max_size=2**22))
            if json.loads(socket.recv(timeout=10)).get("t") == "error":
                break
        before = server.cpu_seconds()
        for _ in range(n):
            with connect(url, additional_headers=headers, max_size=2**22) as socket:
                first = json.loads(socket.recv(timeout=10))
                answers[str(first.get("code", first.get("t")))] += 1
        after = server.cpu_seconds()
    return 1000 * (after - before) / n, answers


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve_bare(port: int) -> None:
    """A bare FastAPI app under the same uvicorn, refusing every POST with a JSON 403."""
    import uvicorn
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    app = FastAPI()

    @app.get("/up")
    def up() -> dict[str, bool]:
        return {"up": True}

    @app.post("/api/rooms")
    def refuse() -> JSONResponse:
        return JSONResponse({"error": "csrf", "message": "refused"}, status_code=403)

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def run_attacker(base: str, victim: str, seconds: float, floods: str) -> None:
    """The attacker's own process: runs the floods, prints what it was answered."""
    chosen = frozenset(floods.split(",")) & FLOODS
    attacker = Attacker(base, victim, time.monotonic() + seconds, chosen)

    async def bounded() -> None:
        with suppress(TimeoutError):  # requests still in flight at the end are given up
            await asyncio.wait_for(attacker.run(), timeout=seconds + 15)

    asyncio.run(bounded())
    print(json.dumps(attacker.summary()))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--attacker"]:
        run_attacker(argv[1], argv[2], float(argv[3]), argv[4])
        return 0
    if argv[:1] == ["--serve-bare"]:
        serve_bare(int(argv[1]))
        return 0
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per phase")
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument("--soak", action="store_true", help="the memory soak instead")
    parser.add_argument(
        "--floods", default=",".join(sorted(FLOODS)), help="comma-separated subset of floods"
    )
    parser.add_argument(
        "--refusals",
        type=int,
        default=0,
        metavar="N",
        help="instead: server CPU per refused request, N requests of each kind",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if args.refusals:
        with running_server() as server:
            result = refusals(server, args.refusals)
        print(json.dumps(result) if args.json else json.dumps(result, indent=2))
        return 0
    floods = frozenset(args.floods.split(",")) & FLOODS
    with running_server() as server:
        if args.soak:
            result = asyncio.run(soak(server, args.players, args.duration, args.warmup))
        else:
            result = asyncio.run(attack(server, args.players, args.duration, args.warmup, floods))
        server.stop()
        ledger_ok, ledger_text = check_ledger(server.data_dir)
        log = server.log_path.read_text(errors="replace")
    result["ledger_ok"] = ledger_ok
    result["ledger"] = ledger_text
    result["server_log_tracebacks"] = log.count("Traceback")
    if args.soak:
        result["ok"] = ledger_ok and result["errors"] == 0 and result["rss_growth_pct"] < 10
    else:
        ratio = result["p99_ratio"]
        result["ok"] = ledger_ok and result["errors"] == 0 and ratio is not None and ratio <= 2
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>30}: {value}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
