"""A multi-table tournament played live over WebSockets on one node.

    python bench/mtt_live.py [--players 1000] [--reference 100] [--levels 4] [--json]

The server is ``bench/load.py``'s (``load_server.running_server``: the real ``create_app`` as
a separate process on 127.0.0.1, cheap argon2 for the sign-ups), started with
``AHIKO_MTT_LEVEL_MINUTES`` (blind levels of ``--level-minutes``) and ``AHIKO_BENCH_SPEED``
(the rooms' clock ``--speed`` times faster: levels, the next-hand pause, the action deadline
and the absence clock all shortened alike; the players' think time is real seconds). The
players are real WebSocket clients in this process: each signs up (``load.LoadRun``), the
first hosts an MTT with a coin buy-in (``POST /api/mtt``), everyone registers through the
API (the buy-in into the pool through the ledger), the host starts it, and every player
opens the table the tournament seated them at, answers its turns after a think time (mostly
checks and calls, some bets, an all-in now and then) and follows every ``moved`` frame
(balancing, broken tables) to its new table with a new socket, as the browser does.

Measured over ``--levels`` whole blind levels, from the start of the first level after every
player's socket is open (and ``--warmup-levels`` more), for the field and for a ``--reference`` field in its own server in the
same run: the server's CPU seconds per level and hands dealt per level (every table), p99
action -> broadcast (the act frame sent until every client at that table has the ``hand``
frame carrying it), the server's RSS and RSS per player, its CPU as % of a core, the moves
made and followed, and **stranded players**: after the levels, a player still in whose
socket is not at the table they sit at (read from the server: ``GET /bench/mtt/<id>``, a
route of this bench's server only), or who was withdrawn for absence (R-TM-03, out with no
chips at stake: nobody leaves on purpose here). ``ahiko admin check-ledger`` runs after each
server stopped. A run that saw no hand or no broadcast action reports nothing (exit 2).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wsclient
from load_server import (
    ServerProcess,
    percentile,
    run_clients,
    running_server,
    serve_or_parse,
    stopped_verdict,
)

from load import (
    CSRF,
    HTTP_TIMEOUT_S,
    LATENCY_GIVE_UP_S,
    PASSWORD_HASHING,
    SEATS_PER_TABLE,
    LoadRun,
    NothingMeasured,
    Stats,
    choose,
)

SCRIPT = Path(__file__).resolve()
BUY_IN = 10  # coins: every registration is a ledger write into the pool
ALL_IN = 0.05  # share of turns answered all-in (a tournament's busts come sooner)
# an answer that outlived its turn (the clock acted first on a loaded machine), a move or a
# bust; a broken table's room gone (``moved`` came first)
LATE_ANSWERS = {
    "stale_hand",
    "not_seated",
    "out_of_turn",
    "no_room",
}
SETTLE_HANDS_PER_TABLE = 2  # absent before and after this many hands a table: stranded
SETTLE_CAP_S = 120.0  # a tournament that deals no more hands: look again after this long


# --- the server's own read-out ---------------------------------------------------------------


def add_mtt_route(app: Any) -> None:
    """``GET /bench/mtt/{mtt_id}``: the tournament as the server holds it (bench only): its
    level, hands, tables, players left, moves, and which players still in are not connected
    at the table they sit at (``absent``), and who was withdrawn (``leavers``)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def mtt_state(request: Request) -> JSONResponse:
        rooms = request.app.state.mtt.rooms[request.path_params["mtt_id"]]
        registry = rooms.registry
        absent, where = [], {}
        held = {command.player_id for command in rooms.held.values()}
        sitting = {p: n for n, seats in rooms.seated.items() for p in seats.values()}
        for player in rooms.model.remaining():
            where[player] = rooms.room_of(player)
            if player in rooms.moving or player in held or player not in sitting:
                continue  # on the way to another table: not at one to be connected to
            actor = registry.get(rooms.actors[sitting[player]].room_id)
            if actor is None or not actor.room.presence.is_connected(player):
                absent.append(player)
        return JSONResponse(
            {
                "level": rooms.level,
                "hands": rooms.hands,
                "tables": len(rooms.model.tables),
                "left": len(where),
                "moves": sum(1 for m in rooms.model.moves if m.reason in ("balance", "break")),
                "absent": absent,
                "leavers": [p.player for p in rooms.places if p.chips_at_hand_start == 0],
                "where": where if request.query_params.get("where") else None,
                "finished": rooms.finished,
            }
        )

    app.router.routes.insert(0, Route("/bench/mtt/{mtt_id}", mtt_state, methods=["GET"]))


# --- the players -----------------------------------------------------------------------------


@dataclass(eq=False)
class Entrant:
    name: str
    cookie: str
    player_id: str
    rng: random.Random
    room: str = ""
    seat: int | None = None
    ws: Any = None
    ids: int = 0
    thinking: bool = False
    moves_followed: int = 0

    async def send(self, t: str, **fields: Any) -> None:
        self.ids += 1
        await self.ws.send(orjson.dumps({"t": t, "id": f"{self.ids}", **fields}).decode())


def mtt_choose(rng: random.Random, view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
    """``load.choose``, and now and then all-in."""
    if legal.get("bet_kind") and rng.random() < ALL_IN:
        return {"action": legal["bet_kind"], "amount": legal["max_to"]}
    return choose(rng, view, legal)


class MttField:
    def __init__(self, base: str, players: int, think: float, seed: int) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.n_players = players
        self.think = think
        self.seed = seed
        self.stats = Stats()
        self.entrants: list[Entrant] = []
        self.mtt_id = ""
        self.members: dict[str, set[Entrant]] = {}  # room -> players whose socket is there
        # (room, seat) -> (sent at, the clients at that table still to receive the action)
        self.pending: dict[tuple[str, int], tuple[float, set[Entrant]]] = {}
        self.measuring = False
        self.stopping = False
        self.late_answers = 0  # refused as outlived (see LATE_ANSWERS): counted, not errors
        self.tasks: list[asyncio.Task[None]] = []
        self.thinks: set[asyncio.Task[None]] = set()

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base, headers=CSRF, timeout=HTTP_TIMEOUT_S)

    async def set_up(self) -> None:
        """Sign-ups (``LoadRun``'s), the host's MTT, every registration, the start."""
        signing = LoadRun(
            self.base, self.n_players, math.ceil(self.n_players / SEATS_PER_TABLE), 1, self.seed
        )
        await signing.sign_up_all()
        self.entrants = [
            Entrant(p.name, p.cookie, p.player_id, p.rng) for t in signing.tables for p in t.players
        ]
        host = self.entrants[0]
        async with self.http() as http:
            made = await http.post(
                "/api/mtt",
                json={"name": "Bench", "buy_in": BUY_IN, "starts_in_minutes": 1440},
                cookies={"ahiko_session": host.cookie},
            )
            made.raise_for_status()
            self.mtt_id = made.json()["mtt"]["id"]
            gate = asyncio.Semaphore(8)

            async def register(entrant: Entrant) -> None:
                async with gate:
                    answer = await http.post(
                        f"/api/mtt/{self.mtt_id}/register",
                        json={"key": entrant.name},
                        cookies={"ahiko_session": entrant.cookie},
                    )
                if answer.status_code != 201:
                    self.stats.error(f"{entrant.name}: register {answer.text}")

            await asyncio.gather(*(register(e) for e in self.entrants))
            started = await http.post(
                f"/api/mtt/{self.mtt_id}/start", cookies={"ahiko_session": host.cookie}
            )
            started.raise_for_status()
            where = (await self.state(http, where=True))["where"]
        for entrant in self.entrants:
            entrant.room = where.get(entrant.player_id) or ""
            self.tasks.append(asyncio.create_task(self.follow(entrant)))

    async def state(self, http: httpx.AsyncClient, where: bool = False) -> dict[str, Any]:
        answer = await http.get(
            f"/bench/mtt/{self.mtt_id}", params={"where": "1"} if where else None
        )
        answer.raise_for_status()
        found: dict[str, Any] = answer.json()
        return found

    async def follow(self, entrant: Entrant) -> None:
        """One player: a socket to their table, a new one to each table a ``moved`` names."""
        while entrant.room and not self.stopping:
            room = entrant.room
            try:
                entrant.ws = await wsclient.connect(
                    f"{self.ws_base}/ws/rooms/{room}",
                    additional_headers={"Cookie": f"ahiko_session={entrant.cookie}"},
                    open_timeout=60,
                    ping_interval=None,
                )
            except (OSError, websockets.WebSocketException) as exc:
                self.stats.error(f"{entrant.name}: connect {exc!r}")
                return
            self.members.setdefault(room, set()).add(entrant)
            moved_to = None
            try:
                async for raw in entrant.ws:
                    self.stats.frames += 1
                    frame = orjson.loads(raw)
                    moved_to = self.on_frame(entrant, room, frame)
                    if moved_to is not None or frame["t"] in ("closed", "tournament_over"):
                        break
            except websockets.ConnectionClosed as exc:
                if not self.stopping and exc.rcvd is not None and exc.rcvd.code != 4404:
                    self.stats.error(f"{entrant.name}: connection closed {exc}")
            finally:
                self.left(entrant, room)
                with suppress(Exception):
                    await entrant.ws.close()
            if moved_to is None:
                return  # out, the tables closed, or stranded (the server's figures say which)
            entrant.moves_followed += 1
            entrant.room, entrant.seat, entrant.thinking = moved_to, None, False

    def left(self, entrant: Entrant, room: str) -> None:
        self.members.get(room, set()).discard(entrant)
        for key, (_sent, waiting) in list(self.pending.items()):
            if key[0] == room:
                waiting.discard(entrant)  # a sample waits for those still at the table only

    def on_frame(self, entrant: Entrant, room: str, frame: dict[str, Any]) -> str | None:
        kind = frame["t"]
        if kind == "moved":
            return str(frame["room_id"])
        if kind == "snapshot":
            entrant.seat = (frame.get("you") or {}).get("seat")
        elif kind == "hand":
            self.on_hand(entrant, room, frame)
        elif kind == "error" and frame.get("code") in LATE_ANSWERS:
            self.late_answers += 1
            self.pending.pop((room, entrant.seat), None)  # refused: nothing to broadcast
        elif kind == "error":
            self.stats.error(f"{entrant.name}: {frame.get('code')} {frame.get('message')}")
        return None

    def on_hand(self, entrant: Entrant, room: str, frame: dict[str, Any]) -> None:
        now = time.perf_counter()
        view = frame.get("view") or {}
        if view.get("viewer") is not None:
            entrant.seat = view["viewer"]
        for event in frame.get("events", ()):
            if event.get("kind") != "action":
                continue
            if event.get("seat") == entrant.seat:
                entrant.thinking = False
            key = (room, event.get("seat"))
            if key not in self.pending:
                continue
            sent_at, waiting = self.pending[key]
            waiting.discard(entrant)
            if not waiting:
                del self.pending[key]
                if self.measuring:
                    self.stats.latencies_ms.append((now - sent_at) * 1000)
        legal = view.get("legal")
        mine = entrant.seat is not None and view.get("to_act") == entrant.seat
        if legal and mine and not entrant.thinking:
            entrant.thinking = True
            task = asyncio.create_task(self.act(entrant, room, frame["hand_no"], view, legal))
            self.thinks.add(task)
            task.add_done_callback(self.thinks.discard)

    async def act(
        self, entrant: Entrant, room: str, hand_no: int, view: dict[str, Any], legal: dict[str, Any]
    ) -> None:
        await asyncio.sleep(entrant.rng.uniform(0.5, 1.5) * self.think)
        if self.stopping or entrant.room != room or entrant.seat is None:
            return
        self.pending[(room, entrant.seat)] = (time.perf_counter(), set(self.members[room]))
        self.stats.actions += 1
        with suppress(websockets.ConnectionClosed):
            await entrant.send("act", hand_no=hand_no, **mtt_choose(entrant.rng, view, legal))

    def expire_pending(self) -> None:
        now = time.perf_counter()
        for key, (sent_at, _waiting) in list(self.pending.items()):
            if now - sent_at > LATENCY_GIVE_UP_S:
                del self.pending[key]
                if self.measuring:
                    self.stats.error(f"{key[0]}: action of seat {key[1]} not broadcast")

    async def close_all(self) -> None:
        self.stopping = True
        for entrant in self.entrants:
            if entrant.ws is not None:
                with suppress(Exception):
                    await entrant.ws.close()
        for task in [*self.tasks, *self.thinks]:
            task.cancel()
        await asyncio.gather(*self.tasks, *self.thinks, return_exceptions=True)


# --- one field, one server -------------------------------------------------------------------


async def settled(run: MttField, http: httpx.AsyncClient, first: dict[str, Any]) -> dict[str, Any]:
    """The tournament's state once every table has dealt ``SETTLE_HANDS_PER_TABLE`` hands
    after ``first`` (or it finished, or dealt nothing for ``SETTLE_CAP_S``)."""
    wanted = first["hands"] + SETTLE_HANDS_PER_TABLE * max(first["tables"], 1)
    last, seen, quiet_since = first, first["hands"], time.perf_counter()
    while last["hands"] < wanted and not last["finished"]:
        await asyncio.sleep(0.2)
        run.expire_pending()
        last = await run.state(http)
        if last["hands"] != seen:
            seen, quiet_since = last["hands"], time.perf_counter()
        elif time.perf_counter() - quiet_since > SETTLE_CAP_S:
            break
    return last


async def measure(
    server: ServerProcess, players: int, think: float, levels: int, warmup_levels: int, seed: int
) -> dict[str, Any]:
    run = MttField(server.base, players, think, seed)
    memory0 = server.memory_kib()
    started = time.perf_counter()
    await run.set_up()
    async with run.http() as http:
        # every socket open (no player absent), then the warm-up levels
        deadline = time.perf_counter() + 120
        while (await run.state(http))["absent"] and time.perf_counter() < deadline:
            await asyncio.sleep(0.5)
        setup_s = time.perf_counter() - started
        state = await run.state(http)
        first = state["level"] + 1 + warmup_levels  # from a level's start
        while state["level"] < first and not state["finished"]:
            await asyncio.sleep(0.2)
            run.expire_pending()
            state = await run.state(http)
        run.measuring = True
        cpu0, wall0, client0, frames0 = (
            server.cpu_seconds(),
            time.perf_counter(),
            time.process_time(),
            run.stats.frames,
        )
        marks = [(state["level"], wall0, cpu0, state["hands"])]  # at each level's start
        while len(marks) <= levels and not state["finished"]:
            await asyncio.sleep(0.2)
            run.expire_pending()
            state = await run.state(http)
            if state["level"] != marks[-1][0]:
                marks.append(
                    (state["level"], time.perf_counter(), server.cpu_seconds(), state["hands"])
                )
        wall = time.perf_counter() - wall0
        cpu = server.cpu_seconds() - cpu0
        client_cpu = time.process_time() - client0
        frames = run.stats.frames - frames0
        memory = server.memory_kib()
        run.measuring = False
        # stranded: away from their table in two looks with two hands a table dealt between
        # them (a move takes less); a wall-clock gap would count a loaded machine's slow client
        first_look = set(state["absent"])
        last = await settled(run, http, state)
        stranded = sorted(first_look & set(last["absent"]))
    await run.close_all()
    s = run.stats
    per_level = [(b[1] - a[1], b[2] - a[2], b[3] - a[3]) for a, b in itertools.pairwise(marks)]
    if not per_level or not s.latencies_ms:
        raise NothingMeasured(
            f"no figure: {len(per_level)} whole level(s) and {len(s.latencies_ms)} broadcast "
            f"action(s) in the {wall:.0f} s measured ({s.errors} error(s): {s.error_samples[:3]})"
        )
    return {
        "players": players,
        "tables_at_start": math.ceil(players / 9),
        "setup_s": round(setup_s, 1),
        "levels_measured": len(per_level),
        "first_level_measured": marks[0][0],
        "level_wall_s": round(statistics.median(w for w, _c, _h in per_level), 1),
        "server_cpu_s_per_level": round(statistics.median(c for _w, c, _h in per_level), 2),
        "hands_per_level": statistics.median(h for _w, _c, h in per_level),
        "actions_measured": len(s.latencies_ms),
        "p50_ms": round(percentile(s.latencies_ms, 50), 1),
        "p99_ms": round(percentile(s.latencies_ms, 99), 1),
        "max_ms": round(max(s.latencies_ms), 1),
        "server_cpu_pct": round(100 * cpu / wall, 1),
        "client_cpu_pct": round(100 * client_cpu / wall, 1),
        "server_cpu_us_per_frame": round(1e6 * cpu / max(frames, 1), 1),
        "server_rss_mib": round(memory.get("VmRSS", 0) / 1024, 1),
        "server_peak_rss_mib": round(memory.get("VmHWM", 0) / 1024, 1),
        "memory_per_player_kib": round(
            (memory.get("VmRSS", 0) - memory0.get("VmRSS", 0)) / max(players, 1), 1
        ),
        "players_left": last["left"],
        "tables_left": last["tables"],
        "moves": last["moves"],
        "moves_followed": sum(e.moves_followed for e in run.entrants),
        "stranded_players": len(stranded) + len(last["leavers"]),
        "stranded_sample": stranded[:5],
        "withdrawn_absent": len(last["leavers"]),
        "errors": s.errors,
        "late_answers": run.late_answers,
        "error_samples": s.error_samples,
        "load_average_1m": os.getloadavg()[0],
    }


def run_field(
    players: int,
    think: float,
    levels: int,
    warmup_levels: int,
    level_minutes: int,
    speed: float,
    seed: int,
) -> dict[str, Any]:
    env = {
        "AHIKO_MTT_LEVEL_MINUTES": str(level_minutes),
        "AHIKO_BENCH_SPEED": str(speed),
        "AHIKO_MTT_EVERY_MINUTES": "1440",  # the site's scheduled MTT stays out of the way
    }
    with running_server(env=env, script=SCRIPT) as server:
        result = run_clients(measure(server, players, think, levels, warmup_levels, seed))
        result.update(stopped_verdict(server))
    return result


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = serve_or_parse(argv, __doc__, routes=[add_mtt_route])
    if parser is None:
        return 0
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--reference", type=int, default=100, help="the reference field")
    parser.add_argument("--levels", type=int, default=4, help="whole levels measured")
    parser.add_argument(
        "--warmup-levels", type=int, default=0, help="whole levels before measuring"
    )
    parser.add_argument("--level-minutes", type=int, default=1, help="AHIKO_MTT_LEVEL_MINUTES")
    parser.add_argument("--speed", type=float, default=2.0, help="the rooms' clock speed-up")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    common = (args.think, args.levels, args.warmup_levels, args.level_minutes, args.speed)
    try:
        ours = run_field(args.players, *common, args.seed)
        reference = run_field(args.reference, *common, args.seed + 1)
    except NothingMeasured as exc:
        print(f"bench/mtt_live.py: {exc}", file=sys.stderr)
        return 2
    result = {
        **ours,
        **{f"reference_{k}": v for k, v in reference.items() if not k.startswith("first_")},
        "level_cpu_ratio": round(
            ours["server_cpu_s_per_level"] / max(reference["server_cpu_s_per_level"], 1e-9), 2
        ),
        "level_minutes": args.level_minutes,
        "clock_speed": args.speed,
        "think_s": args.think,
        "password_hashing": PASSWORD_HASHING,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>34}: {value}")
    clean = all(
        r["ledger_ok"] and r["stranded_players"] == 0 and r["errors"] == 0
        for r in (ours, reference)
    )
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
