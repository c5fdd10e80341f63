"""The floor under the server's CPU per delivered frame: the load bench's traffic
served by a server that does nothing but move the frames.

    python bench/floor.py --players 4000 --think 1 --duration 40 --warmup 15 [--with-load] [--json]

The players sit at tables of eight, as in ``bench/load.py``. The one whose turn it is thinks
0.5-1.5 s (times ``--think``) and sends one small text message; the server answers it with an
acknowledgement and sends each seat of the table a frame of ``--frame-bytes`` of JSON naming
the next seat to act: nine frames for one action, about what one action costs the Ahiko server
(9.7). The server is a separate process with no rules, views, store or JSON encoding: its
frames are made once at start, and its only work per message is to read it, one
``orjson.loads`` and a turn check. Its CPU per frame, kernel included, is the least any
application must spend with this traffic on that server stack.

Four floors, from the least work to the framework's: ``raw`` is RFC 6455 by hand on a bare
``asyncio.Protocol`` on uvloop, no server framework (the least a Python server can do);
``uws`` is uWebSockets, a C++ WebSocket server, through socketify's binding: it reads, frames
and writes in C++ and fans each table's frame out to its seats by publishing it once to the
table's topic, so Python runs once a message (a compiled fan-out tier in front of Python);
``direct`` is uvicorn and Starlette reading, and each connection's frames written with one call
of the gateway's direct write (``ahiko.server.ws_protocol``), as the Ahiko server does;
``asgi`` sends each frame through Starlette's ``send_text``, the framework's own path
(``../shared/design/FACTS.md``'s 12.8 us a message is that path, at a broadcast to 200 clients:
``--seats 200`` here). ``--with-load`` then runs ``bench/load.py`` with the same players and
tables, so the Ahiko server's figure stands beside its floors from the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import websockets

from ahiko.rooms.outbox import utf8_text_frame

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wsclient
from load_server import (
    ServerProcess,
    percentile,
    process_system_cpu_seconds,
    run_clients,
    running_server,
)

from load import NothingMeasured

SEATS = 8  # a table, as in bench/load.py
SCRIPT = Path(__file__).resolve()
WRITES = ("raw", "direct", "asgi", "uws")
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 §1.3
ACK = b'{"t":"ack"}'
ACK_WIRE = utf8_text_frame(ACK)
NOT_YOUR_TURN = b'{"t":"error","code":"not_your_turn"}'


# --- the server ----------------------------------------------------------------------------


def hand_payload(to_act: int, size: int) -> bytes:
    """A frame's JSON when seat ``to_act`` is next, padded to ``size`` bytes.

    >>> len(hand_payload(3, 1700)), orjson.loads(hand_payload(3, 1700))["to_act"]
    (1700, 3)
    """
    bare = orjson.dumps({"t": "hand", "to_act": to_act, "pad": ""})
    return orjson.dumps({"t": "hand", "to_act": to_act, "pad": "x" * max(0, size - len(bare))})


def floor_app(write: str, frame_bytes: int, seats: int) -> Any:
    """The floor's ASGI app: ``/api/health`` and one WebSocket route, ``/ws?table=T&seat=S``."""
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from ahiko.server.ws_protocol import RAW_WRITE

    payloads = [hand_payload(k, frame_bytes) for k in range(seats)]
    texts = [p.decode() for p in payloads]
    wires = [utf8_text_frame(p) for p in payloads]
    tables: dict[int, dict[str, Any]] = {}

    async def broadcast(table: dict[str, Any], acked: int | None) -> None:
        to_act = table["to_act"]
        for seat, (socket, raw_write) in list(table["seats"].items()):
            if write == "direct":
                data = wires[to_act]
                raw_write(ACK_WIRE + data if seat == acked else data)
            else:
                if seat == acked:
                    await socket.send_text(ACK.decode())
                await socket.send_text(texts[to_act])

    async def health(_request: Any) -> PlainTextResponse:
        return PlainTextResponse("ok")

    async def play(socket: WebSocket) -> None:
        table_no, seat = int(socket.query_params["table"]), int(socket.query_params["seat"])
        await socket.accept()
        table = tables.setdefault(table_no, {"seats": {}, "to_act": 0})
        table["seats"][seat] = (socket, socket.scope["extensions"].get(RAW_WRITE))
        if len(table["seats"]) == seats:
            await broadcast(table, None)
        try:
            while True:
                message = orjson.loads(await socket.receive_text())
                if message.get("seat") != table["to_act"]:
                    await socket.send_text(NOT_YOUR_TURN.decode())
                    continue
                table["to_act"] = (seat + 1) % seats
                await broadcast(table, seat)
        except WebSocketDisconnect:
            table["seats"].pop(seat, None)

    return Starlette(routes=[Route("/api/health", health), WebSocketRoute("/ws", play)])


class RawSeat(asyncio.Protocol):
    """The ``raw`` floor's connection: RFC 6455 by hand on a bare ``asyncio.Protocol`` (the
    opening handshake, masked client frames in, one ``transport.write`` of unmasked frames
    out), no server framework at all: the least a Python server on uvloop can do."""

    def __init__(self, tables: dict[int, dict[str, Any]], wires: list[bytes], seats: int) -> None:
        self.tables, self.wires, self.seats = tables, wires, seats
        self.transport: Any = None
        self.buffer = bytearray()
        self.table: dict[str, Any] | None = None
        self.seat = -1

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.table is None:
            self._handshake()
        else:
            self._read_frames()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.table is not None:
            self.table["seats"].pop(self.seat, None)

    def _handshake(self) -> None:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        lines = bytes(self.buffer[:end]).decode().split("\r\n")
        del self.buffer[: end + 4]
        target = lines[0].split(" ")[1]
        if target.startswith("/api/health"):
            self.transport.write(
                b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            )
            self.transport.close()
            return
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        accept = base64.b64encode(
            hashlib.sha1((headers["sec-websocket-key"] + WS_GUID).encode()).digest()
        ).decode()
        self.transport.write(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + f"Sec-WebSocket-Accept: {accept}\r\n\r\n".encode()
        )
        query = dict(part.split("=") for part in target.partition("?")[2].split("&"))
        self.seat = int(query["seat"])
        self.table = self.tables.setdefault(int(query["table"]), {"seats": {}, "to_act": 0})
        self.table["seats"][self.seat] = self.transport
        if len(self.table["seats"]) == self.seats:
            self._broadcast(None)

    def _read_frames(self) -> None:
        buffer, start = self.buffer, 0
        while len(buffer) - start >= 6:  # a client's frame: 2 bytes, the mask, the payload
            opcode, size, head = buffer[start] & 0x0F, buffer[start + 1] & 0x7F, 2
            if size == 126:
                size, head = int.from_bytes(buffer[start + 2 : start + 4], "big"), 4
            if len(buffer) - start < head + 4 + size:
                break
            mask = bytes(buffer[start + head : start + head + 4])
            payload = bytes(buffer[start + head + 4 : start + head + 4 + size])
            start += head + 4 + size
            if opcode == 0x8:  # close: echo it, and hang up
                self.transport.write(b"\x88\x00")
                self.transport.close()
                return
            self._on_text(wsclient.mask_payload(payload, mask))
        del buffer[:start]

    def _on_text(self, text: bytes) -> None:
        table = self.table
        assert table is not None
        if orjson.loads(text).get("seat") != table["to_act"]:
            self.transport.write(utf8_text_frame(NOT_YOUR_TURN))
            return
        table["to_act"] = (self.seat + 1) % self.seats
        self._broadcast(self.seat)

    def _broadcast(self, acked: int | None) -> None:
        assert self.table is not None
        data = self.wires[self.table["to_act"]]
        for seat, transport in self.table["seats"].items():
            transport.write(ACK_WIRE + data if seat == acked else data)


def serve_raw(port: int, frame_bytes: int, seats: int) -> None:
    import uvloop

    from ahiko.server.cli import tune_gc

    wires = [utf8_text_frame(hand_payload(k, frame_bytes)) for k in range(seats)]
    tables: dict[int, dict[str, Any]] = {}

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: RawSeat(tables, wires, seats), "127.0.0.1", port)
        async with server:
            await server.serve_forever()

    tune_gc()
    with contextlib.suppress(KeyboardInterrupt):
        uvloop.run(main())


def serve_uws(port: int, frame_bytes: int, seats: int) -> None:
    """The ``uws`` floor: uWebSockets (C++, through socketify's cffi binding) reads, frames and
    writes; Python sees each message once and publishes one frame to the table's topic, which
    uWS writes to every subscriber in C++ (a compiled fan-out tier in front of Python)."""
    from socketify import App, CompressOptions, OpCode

    payloads = [hand_payload(k, frame_bytes) for k in range(seats)]
    tables: dict[int, dict[str, Any]] = {}
    app = App()

    def upgrade(res: Any, req: Any, context: Any) -> None:
        table_no = req.get_query("table")
        where = (int(table_no), int(req.get_query("seat")), table_no)  # the topic: its table
        res.upgrade(
            req.get_header("sec-websocket-key"),
            req.get_header("sec-websocket-protocol"),
            req.get_header("sec-websocket-extensions"),
            context,
            where,
        )

    def opened(ws: Any) -> None:
        table_no, seat, topic = ws.get_user_data()
        table = tables.setdefault(table_no, {"seats": set(), "to_act": 0})
        table["seats"].add(seat)
        ws.subscribe(topic)
        if len(table["seats"]) == seats:
            app.publish(topic, payloads[table["to_act"]], OpCode.TEXT)

    def message(ws: Any, text: Any, _opcode: Any) -> None:
        table_no, seat, topic = ws.get_user_data()
        table = tables[table_no]
        if orjson.loads(text).get("seat") != table["to_act"]:
            ws.send(NOT_YOUR_TURN, OpCode.TEXT)
            return
        table["to_act"] = (seat + 1) % seats
        ws.send(ACK, OpCode.TEXT)
        app.publish(topic, payloads[table["to_act"]], OpCode.TEXT)

    def closed(ws: Any, _code: Any, _message: Any) -> None:
        table_no, seat, _topic = ws.get_user_data()
        tables[table_no]["seats"].discard(seat)  # opened made the table

    app.get("/api/health", lambda res, _req: res.end("ok"))
    app.ws(
        "/ws",
        {
            "compression": CompressOptions.DISABLED,
            "max_payload_length": 64 * 1024,
            "idle_timeout": 0,
            "max_backpressure": 1 << 20,
            "upgrade": upgrade,
            "open": opened,
            "message": message,
            "close": closed,
        },
    )
    app.listen(port, lambda _config: None)
    # socketify's own run() interleaves libuv with asyncio by polling libuv without blocking, a
    # spin that costs CPU with no work to do: every handler here is synchronous, so libuv's own
    # blocking loop runs them with no asyncio at all
    app.loop.uv_loop.run()


def serve(port: int) -> None:
    import uvicorn

    from ahiko.server.cli import WS_MAX_BYTES, tune_gc
    from ahiko.server.ws_protocol import AhikoWebSocketProtocol

    write, frame_bytes = os.environ["AHIKO_FLOOR_WRITE"], int(os.environ["AHIKO_FLOOR_BYTES"])
    seats = int(os.environ["AHIKO_FLOOR_SEATS"])
    if write == "raw":
        serve_raw(port, frame_bytes, seats)
        return
    if write == "uws":
        serve_uws(port, frame_bytes, seats)
        return
    app = floor_app(write, frame_bytes, seats)
    tune_gc()
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws=AhikoWebSocketProtocol,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,
    )


# --- the players ---------------------------------------------------------------------------


@dataclass
class FloorTable:
    # seat that acted -> (sent at, seats still to receive the frame after it)
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)


@dataclass
class FloorRun:
    base: str
    players: int
    seats: int
    think: float
    rng: random.Random
    frames: int = 0
    frame_bytes: int = 0
    errors: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    measuring: bool = False
    stopping: bool = False
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def seat_everyone(self) -> list[Any]:
        sockets: list[Any] = []
        tables = [FloorTable() for _ in range(self.players // self.seats)]
        for first in range(0, self.players, 200):
            batch = range(first, min(first + 200, self.players))
            opened = await asyncio.gather(
                *(
                    wsclient.connect(
                        f"{self.base}/ws?table={n // self.seats}&seat={n % self.seats}"
                    )
                    for n in batch
                )
            )
            for n, socket in zip(batch, opened, strict=True):
                sockets.append(socket)
                self._spawn(self.play(socket, tables[n // self.seats], n % self.seats))
        return sockets

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play(self, socket: Any, table: FloorTable, seat: int) -> None:
        try:
            async for raw in socket:
                if self.measuring:
                    self.frames += 1
                    self.frame_bytes += len(raw)
                frame = orjson.loads(raw)
                if frame["t"] == "error":
                    self.errors.append(raw)
                if frame["t"] != "hand":
                    continue
                actor = (frame["to_act"] - 1) % self.seats
                if actor in table.pending:
                    sent_at, waiting = table.pending[actor]
                    waiting.discard(seat)
                    if not waiting:
                        del table.pending[actor]
                        if self.measuring:
                            self.latencies_ms.append((time.perf_counter() - sent_at) * 1000)
                if frame["to_act"] == seat:
                    self._spawn(self.act(socket, table, seat))
        except websockets.ConnectionClosed as exc:
            if not self.stopping:
                self.errors.append(f"seat {seat}: {exc!r}")

    async def act(self, socket: Any, table: FloorTable, seat: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        if self.stopping:
            return
        table.pending[seat] = (time.perf_counter(), set(range(self.seats)))
        await socket.send(f'{{"t":"act","seat":{seat}}}')


async def measure(server: ServerProcess, shape: Shape) -> dict[str, Any]:
    assert server.proc is not None
    pid = server.proc.pid
    base = server.base.replace("http://", "ws://")
    run = FloorRun(base, shape.players, shape.seats, shape.think, random.Random(shape.seed))
    started = time.perf_counter()
    sockets = await run.seat_everyone()
    setup_s = time.perf_counter() - started
    await asyncio.sleep(shape.warmup)
    run.measuring = True
    cpu0, sys0, wall0 = server.cpu_seconds(), process_system_cpu_seconds(pid), time.perf_counter()
    client0 = time.process_time()
    await asyncio.sleep(shape.duration)
    wall = time.perf_counter() - wall0
    cpu = server.cpu_seconds() - cpu0
    sys_cpu = process_system_cpu_seconds(pid) - sys0
    client_cpu = time.process_time() - client0
    run.measuring, run.stopping = False, True
    frames = run.frames
    for socket in sockets:
        await socket.close()
    for task in list(run.tasks):
        task.cancel()
    if frames == 0 or not run.latencies_ms:
        raise NothingMeasured(f"the floor measured nothing: {run.errors[:3]}")
    return {
        "setup_s": round(setup_s, 1),
        "frames_per_s": round(frames / wall, 1),
        "bytes_per_frame": round(run.frame_bytes / frames),
        "actions_measured": len(run.latencies_ms),
        "frames_per_action": round(frames / len(run.latencies_ms), 2),
        "p50_ms": round(percentile(run.latencies_ms, 50), 1),
        "p99_ms": round(percentile(run.latencies_ms, 99), 1),
        "errors": len(run.errors),
        "error_samples": run.errors[:3],
        "server_cpu_pct": round(100 * cpu / wall, 1),
        "server_cpu_us_per_frame": round(1e6 * cpu / frames, 1),
        "server_sys_cpu_us_per_frame": round(1e6 * sys_cpu / frames, 1),
        "client_cpu_us_per_frame": round(1e6 * client_cpu / frames, 1),
    }


@dataclass(frozen=True)
class Shape:
    """The traffic: ``players`` at tables of ``seats``, each action's think time and the
    frames' size, the measured window."""

    players: int
    seats: int
    think: float
    frame_bytes: int
    duration: float
    warmup: float
    seed: int


def run_floor(write: str, shape: Shape) -> dict[str, Any]:
    env = {
        "AHIKO_FLOOR_WRITE": write,
        "AHIKO_FLOOR_BYTES": str(shape.frame_bytes),
        "AHIKO_FLOOR_SEATS": str(shape.seats),
    }
    with running_server(env=env, script=SCRIPT) as server:
        return run_clients(measure(server, shape))


# what the Ahiko server's run reports beside its floors
AHIKO_KEYS = (
    "server_cpu_us_per_frame",
    "server_sys_cpu_us_per_frame",
    "frames_per_s",
    "bytes_per_frame",
    "p99_ms",
)


def _floors(text: str) -> tuple[str, ...]:
    floors = tuple(text.split(","))
    unknown = [f for f in floors if f not in WRITES]
    if unknown:
        raise argparse.ArgumentTypeError(f"no floor {', '.join(unknown)}; use {', '.join(WRITES)}")
    return floors


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:  # running_server's child: --serve DATA PORT
        serve(int(argv[2]))
        return 0
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=4000)
    parser.add_argument("--seats", type=int, default=SEATS, help="players a frame goes to")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--duration", type=float, default=40.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument(
        "--frame-bytes",
        type=int,
        default=1950,
        help="a hand frame's JSON size: with the acknowledgements, frames average about the"
        " Ahiko server's (bench/load.py's bytes_per_frame: 1,762 at 4,000 players)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--write",
        type=_floors,
        default=WRITES,
        metavar="FLOOR[,FLOOR...]",
        help=f"the floors to measure, of {', '.join(WRITES)} (default: all; uws needs the "
        "bench extra and libuv1)",
    )
    parser.add_argument(
        "--with-load", action="store_true", help="then bench/load.py at the same players"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if args.players % args.seats:
        parser.error("--players must be a multiple of --seats: every table full")
    shape = Shape(
        args.players,
        args.seats,
        args.think,
        args.frame_bytes,
        args.duration,
        args.warmup,
        args.seed,
    )
    writes = args.write
    result: dict[str, Any] = {"players": args.players, "seats": args.seats, "think_s": args.think}
    try:
        for write in writes:
            floor = run_floor(write, shape)
            result.update({f"floor_{write}_{key}": value for key, value in floor.items()})
        if args.with_load:
            from load import run_load

            ours = run_load(
                args.players,
                args.players // args.seats,  # the same tables as the floor
                args.think,
                args.duration,
                args.seed,
                args.warmup,
            )
            result.update({f"ahiko_{key}": ours[key] for key in AHIKO_KEYS})
            result["ahiko_errors"], result["ahiko_ledger_ok"] = ours["errors"], ours["ledger_ok"]
            for write in writes:
                floor_us = result[f"floor_{write}_server_cpu_us_per_frame"]
                result[f"ahiko_over_floor_{write}"] = round(
                    ours["server_cpu_us_per_frame"] / floor_us, 2
                )
    except NothingMeasured as exc:
        print(f"bench/floor.py: {exc}", file=sys.stderr)
        return 2
    result["load_average_1m"] = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>42}: {value}")
    errors = sum(v for k, v in result.items() if k.endswith("_errors"))
    return 1 if errors or result.get("ahiko_ledger_ok") is False else 0


if __name__ == "__main__":
    sys.exit(main())
