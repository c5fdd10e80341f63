"""The fair deal's pace: the time from the end of one hand to the first card of the next, with
the players' browsers shaping the shuffle (``pokerfair/2``) and without (``pokerfair/1``),
measured in the same run against one server process.

    python bench/fair_pace.py [--runs 3] [--hands 30] [--speed 50] [--json]

Each table is a recreational room of two people (real accounts, real WebSockets) and two
random bots. Under ``v2`` both people act as the table's browser does (``web/js/fairseed.js``):
a secret's commitment at sit-down and, on every commitment frame, the reveal of the secret it
lists and the commitment for the next hand. Under ``v1`` they send neither. One person's
socket times every frame as it arrives: a gap is from the last ``hand`` frame of hand N to the
first ``hand`` frame of hand N+1 (its deal: the first cards). The server's room clocks run
``--speed`` times faster (``AHIKO_BENCH_SPEED``): the rules' 8 s between hands and 2 s of
commitment before the cards become ``10 / speed`` seconds; the figures are the gap and its
excess over that nominal wait, in real milliseconds. Each run plays a v1 table and a v2 table
one after the other, the order alternating from run to run; the summary is the median of the
runs' medians.

A table that stops dealing is a finding, not a hang: no frame for ``STALL_S`` real seconds
ends the run with ``stalled`` and the last frames seen.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wsclient
from load_server import run_clients, running_server, serve_or_parse

from ahiko.fairness.contribution import seat_commitment
from ahiko.rooms.timing import COMMITMENT_DISPLAY_S, NEXT_HAND_DELAY_S

CSRF = {"X-Ahiko-CSRF": "1"}
STALL_S = 30.0  # real seconds without a frame: the table stopped
MODES = ("v1", "v2")


class Stalled(RuntimeError):
    """The table sent nothing for ``STALL_S`` seconds."""


@dataclass
class Person:
    name: str
    cookie: str
    seat: int
    contributes: bool
    rng: random.Random
    ws: Any = None
    secrets: dict[int, bytes] = field(default_factory=dict)  # hand number -> secret
    timed: list[tuple[float, str, int | None]] = field(default_factory=list)  # (t, kind, hand)
    reveals: int = 0
    commits: int = 0
    refused: list[str] = field(default_factory=list)
    sent: int = 0
    reentered_after: int = -1  # the room's hands_dealt when this person last re-entered

    async def send(self, t: str, **fields: Any) -> None:
        self.sent += 1
        await self.ws.send(json.dumps({"t": t, "id": f"{self.seat}-{self.sent}", **fields}))

    async def commit_for(self, room_id: str, hand_no: int) -> None:
        if hand_no in self.secrets:
            return
        secret = self.secrets[hand_no] = secrets.token_bytes(32)
        commitment = seat_commitment(room_id, hand_no, self.seat, secret)
        self.commits += 1
        await self.send("fair_commit", hand_no=hand_no, commitment=commitment.hex())

    async def on_commitment(self, room_id: str, frame: dict[str, Any]) -> None:
        """What ``SeatSeed.onCommitment`` does: reveal the listed secret, commit the next."""
        hand_no = frame["hand_no"]
        listed = [seat for seat, _ in (frame.get("contributors") or {}).get("seats", [])]
        if hand_no in self.secrets and self.seat in listed:
            self.reveals += 1
            await self.send("fair_reveal", hand_no=hand_no, secret=self.secrets[hand_no].hex())
        for old in [n for n in self.secrets if n <= hand_no]:
            del self.secrets[old]
        await self.commit_for(room_id, hand_no + 1)

    async def play(self, room_id: str) -> None:
        while True:
            try:
                text = await asyncio.wait_for(self.ws.recv(), STALL_S)
            except TimeoutError:
                raise Stalled(f"{self.name}: no frame for {STALL_S:.0f} s") from None
            except ConnectionClosed as exc:  # the table goes on without this person
                raise Stalled(f"{self.name}: socket closed: {exc}") from None
            now = time.perf_counter()
            frame = json.loads(text)
            kind = frame["t"]
            self.timed.append((now, kind, frame.get("hand_no")))
            if kind == "closed":
                return
            if kind == "error":
                self.refused.append(f"{frame.get('code')}: {frame.get('message')}")
            elif kind == "room":
                await self.maybe_reenter(frame["room"])
            elif kind == "commitment" and self.contributes:
                await self.on_commitment(room_id, frame)
            elif kind == "hand":
                view, legal = frame["view"], frame["view"].get("legal")
                if legal is not None and view["to_act"] == view["viewer"]:
                    await self.send("act", hand_no=frame["hand_no"], **self.choose(legal))

    async def maybe_reenter(self, room: dict[str, Any]) -> None:
        """Out of chips between hands: a new entry, once after each hand dealt."""
        mine = next((s for s in room.get("seats", []) if s["name"] == self.name), None)
        broke = mine is not None and mine["stack"] == 0 and room["hand_no"] is None
        if broke and room["hands_dealt"] != self.reentered_after:
            self.reentered_after = room["hands_dealt"]
            await self.send("new_entry")

    def choose(self, legal: dict[str, Any]) -> dict[str, Any]:
        r = self.rng.random()
        if legal["bet_kind"] and r < 0.2:
            return {"action": legal["bet_kind"], "amount": legal["min_to"]}
        if r < 0.3 and legal["can_fold"] and not legal["can_check"]:
            return {"action": "fold"}
        return {"action": "check" if legal["can_check"] else "call"}


def gaps_ms(timed: list[tuple[float, str, int | None]]) -> list[float]:
    """From the last ``hand`` frame of each hand to the first of the next one, in ms."""
    last: dict[int, float] = {}
    first: dict[int, float] = {}
    for t, kind, hand_no in timed:
        if kind == "hand" and hand_no is not None:
            first.setdefault(hand_no, t)
            last[hand_no] = t
    return [(first[n + 1] - last[n]) * 1000 for n in sorted(last) if n + 1 in first]


async def sign_up(http: httpx.AsyncClient, name: str) -> str:
    answer = await http.post("/api/accounts", json={"username": name, "password": "pace-pass"})
    answer.raise_for_status()
    return str(answer.cookies["ahiko_session"])


async def one_table(base: str, mode: str, hands: int, rng: random.Random) -> dict[str, Any]:
    tag = f"{mode}{rng.randrange(10**6)}"
    async with httpx.AsyncClient(base_url=base, headers=CSRF, timeout=60) as http:
        cookies = [await sign_up(http, f"pace{tag}_{i}") for i in range(2)]
        created = await http.post(
            "/api/rooms",
            json={"name": f"Ritmo {mode}", "limit_hands": hands},
            headers={"Cookie": f"ahiko_session={cookies[0]}"},
        )
        created.raise_for_status()
    room_id = created.json()["id"]
    people = [
        Person(f"pace{tag}_{i}", cookie, i, mode == "v2", random.Random(rng.random()))
        for i, cookie in enumerate(cookies)
    ]
    ws_url = f"{base.replace('http://', 'ws://')}/ws/rooms/{room_id}"
    for person in people:
        person.ws = await wsclient.connect(
            ws_url, additional_headers={"Cookie": f"ahiko_session={person.cookie}"}
        )
        await person.ws.recv()  # the snapshot
        await person.send("sit", seat=person.seat)
        if person.contributes:
            await person.commit_for(room_id, 1)  # at sit-down: the first hand's secret
    host = people[0]
    for _ in range(2):
        await host.send("add_bot", level="random")
    await host.send("start")
    try:
        await asyncio.gather(*(p.play(room_id) for p in people))
        stalled = None
    except Stalled as exc:
        stalled = str(exc)
    finally:
        for person in people:
            await person.ws.close()
    gaps = gaps_ms(host.timed)
    found: dict[str, Any] = {
        "mode": mode,
        "hands": len({n for _, kind, n in host.timed if kind == "hand"}),
        "gaps": len(gaps),
        "median_ms": round(statistics.median(gaps), 1) if gaps else None,
        "reveals": sum(p.reveals for p in people),
        "commits": sum(p.commits for p in people),
        "too_late": sum(r.startswith("fair_closed") for p in people for r in p.refused),
        "refused": sorted({r for p in people for r in p.refused if not r.startswith("fair_")}),
    }
    if stalled is not None:
        found["stalled"] = stalled
        found["last_frames"] = [(kind, n) for _, kind, n in host.timed[-8:]]
    return found


async def measure(base: str, runs: int, hands: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    tables = []
    for run in range(runs):
        order = MODES if run % 2 == 0 else tuple(reversed(MODES))
        for mode in order:
            tables.append({"run": run, **await one_table(base, mode, hands, rng)})
    return tables


def summary(tables: list[dict[str, Any]], speed: float) -> dict[str, Any]:
    """One flat JSON line (``make bench`` takes medians of each number over its runs)."""
    nominal_ms = (NEXT_HAND_DELAY_S + COMMITMENT_DISPLAY_S) / speed * 1000
    found: dict[str, Any] = {"speed": speed, "nominal_gap_ms": round(nominal_ms, 1)}
    for mode in MODES:
        mine = [t for t in tables if t["mode"] == mode]
        medians = [t["median_ms"] for t in mine if t["median_ms"] is not None]
        median = statistics.median(medians) if medians else float("nan")
        found[f"{mode}_gap_median_ms"] = round(median, 1)
        found[f"{mode}_excess_ms"] = round(median - nominal_ms, 1)
        found[f"{mode}_gaps"] = sum(t["gaps"] for t in mine)
    found["v2_minus_v1_ms"] = round(found["v2_gap_median_ms"] - found["v1_gap_median_ms"], 1)
    v2 = [t for t in tables if t["mode"] == "v2"]
    found["v2_reveals"] = sum(t["reveals"] for t in v2)
    found["v2_reveals_too_late"] = sum(t["too_late"] for t in v2)
    found["stalled_tables"] = sum(1 for t in tables if "stalled" in t)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = serve_or_parse(sys.argv[1:] if argv is None else argv, __doc__)
    if parser is None:
        return 0
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--speed", type=float, default=50.0)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    env = {"AHIKO_BENCH_SPEED": str(args.speed)}
    with running_server(env=env, script=Path(__file__).resolve()) as server:
        tables = run_clients(measure(server.base, args.runs, args.hands, args.seed))
    result = summary(tables, args.speed)
    if not args.json:
        for table in tables:
            print(json.dumps(table))
    print(json.dumps(result, indent=None if args.json else 1))
    return 1 if result["stalled_tables"] else 0


if __name__ == "__main__":
    sys.exit(main())
