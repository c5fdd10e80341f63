"""A player's page for an account with 20,000 archived hands.

Before, ``GET /api/players/{name}/profile`` rebuilt the figures from every archived hand of the
account on each request (14.9 s for 20,120 hands; 8 at once grew the server from 298 MB to
2,271 MB). Now the figures are stored as hands are archived and a profile is one read.

The archive: a few hundred real hands played by ``tests/archive_factory.py`` (the fair deal's
``TableHand``, random actions), copied under other room ids to ``--hands`` (each copy is a
real hand's log; sealed with the server's archive key as the server seals), then
``rebuild_player_figures`` (``ahiko admin rebuild-stats``) counts them. Measured against a
real server process: the profile read one after another (p50, p99), then ``--concurrency``
clients at once (p99, and the server's memory before and at its peak), beside two
references: the same figures computed hand by hand from the archive, as every profile did
before, and the floor of the machine at that moment (``GET /api/me``, the cheapest signed-in
read, timed the same way).

    python bench/player_figures.py [--hands 20000] [--requests 200] [--concurrency 8] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from random import Random
from typing import Any

import httpx
from sqlalchemy import Engine, func, insert, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the archive factory

from load_server import percentile, running_server  # noqa: E402

from ahiko.competition.player_figures import (  # noqa: E402
    hand_by_hand_figures,
    rebuild_player_figures,
)
from ahiko.fairness.keys import load_or_create_archive_key  # noqa: E402
from ahiko.rooms.blinds import Stakes  # noqa: E402
from ahiko.server.settings import Settings  # noqa: E402
from ahiko.store.engine import make_engine  # noqa: E402
from ahiko.store.hand_archive import install_sealer, seal_existing  # noqa: E402
from ahiko.store.migrate import upgrade  # noqa: E402
from ahiko.store.schema import archived_hand_players, archived_hands  # noqa: E402
from archive_factory import START, Sitter, add_person, cash_session  # noqa: E402

PLAYED = 300  # real hands played; the rest are copies of them
GOAL_P99_MS = 50.0
CSRF = {"X-Ahiko-CSRF": "1"}


def build_archive(engine: Engine, hands: int) -> int:
    """``hands`` archived hands of the account "grinder"; returns its user id."""
    rng = Random(40)
    grinder = int(add_person(engine, "grinder"))
    bots = [Sitter(f"robo{n}") for n in range(3)]
    played = min(PLAYED, hands)
    cash_session(
        engine, rng, room_id="ahiko-bench", room_kind="ahiko", variant="holdem",
        sitters={0: Sitter("grinder", grinder), 2: bots[0], 4: bots[1], 6: bots[2]},
        hands=played, stakes=Stakes(small_blind=5, big_blind=10), stack=1000, start=START,
    )  # fmt: skip
    with engine.begin() as conn:
        originals = conn.execute(select(archived_hands).order_by(archived_hands.c.id)).all()
        seats = conn.execute(select(archived_hand_players)).all()
        next_id = int(conn.execute(select(func.max(archived_hands.c.id))).scalar_one()) + 1
        by_hand: dict[int, list[Any]] = {}
        for seat in seats:
            by_hand.setdefault(int(seat.hand_id), []).append(seat)
        copies, players = [], []
        for n in range(hands - played):
            original = originals[n % len(originals)]
            row = dict(original._mapping)
            row.update(id=next_id, room_id=f"ahiko-bench-{n // len(originals)}")
            copies.append(row)
            for seat in by_hand[int(original.id)]:
                players.append({**seat._mapping, "hand_id": next_id})
            next_id += 1
        for start in range(0, len(copies), 2000):
            conn.execute(insert(archived_hands), copies[start : start + 2000])
        for start in range(0, len(players), 8000):
            conn.execute(insert(archived_hand_players), players[start : start + 8000])
    return grinder


def hand_by_hand_seconds(engine: Engine, user_id: int) -> float:
    """The reference: the figures computed from every archived hand, as profiles did before."""
    started = time.perf_counter()
    hand_by_hand_figures(engine, user_id)
    return time.perf_counter() - started


def timed_reads(base: str, cookie: str, path: str, count: int) -> list[float]:
    took = []
    with httpx.Client(base_url=base, cookies={"ahiko_session": cookie}, timeout=120) as client:
        for _ in range(count):
            started = time.perf_counter()
            response = client.get(path)
            took.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise RuntimeError(f"{path}: {response.status_code} {response.text[:200]}")
    return took


def run(hands: int, requests: int, concurrency: int, reference: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="ahiko-figures-") as tmp:
        data_dir = Path(tmp) / "data"
        data_dir.mkdir()
        settings = Settings(data_dir=data_dir)
        engine = make_engine(settings.resolved_database_url)
        upgrade(engine, settings.bot_reserve)
        started = time.perf_counter()
        grinder = build_archive(engine, hands)
        install_sealer(engine, load_or_create_archive_key(data_dir))
        seal_existing(engine)  # as the server would at start: every hand sealed
        setup_s = time.perf_counter() - started
        started = time.perf_counter()
        rebuild_player_figures(engine)
        rebuild_s = time.perf_counter() - started
        before_s = hand_by_hand_seconds(engine, grinder) if reference else None
        engine.dispose()
        env = {"AHIKO_FIGURE_READS": "1000000/1"}  # the bench reads far above a person's rate
        with running_server(data_dir=data_dir, env=env) as server:
            signed = httpx.post(
                f"{server.base}/api/accounts",
                json={"username": "viewer", "password": "correct horse"},
                headers=CSRF,
            )
            cookie = signed.cookies["ahiko_session"]
            profile = httpx.get(
                f"{server.base}/api/players/grinder/profile", cookies={"ahiko_session": cookie}
            ).json()
            assert profile["hands"] == hands, profile["hands"]
            path = "/api/players/grinder/profile"
            cpu = server.cpu_seconds()
            one_by_one = timed_reads(server.base, cookie, path, requests)
            # the server's CPU a profile costs: what a loaded machine cannot inflate
            profile_cpu_ms = (server.cpu_seconds() - cpu) * 1000 / requests
            line = timed_reads(server.base, cookie, f"/api/players/by-id/{grinder}/line", 50)
            # the floor on this machine now: the cheapest signed-in read, the same way
            cpu = server.cpu_seconds()
            floor = timed_reads(server.base, cookie, "/api/me", requests)
            floor_cpu_ms = (server.cpu_seconds() - cpu) * 1000 / requests
            rss_before = server.memory_kib().get("VmRSS", 0)
            per_client = max(1, requests // concurrency)
            with ThreadPoolExecutor(concurrency) as pool:
                runs = list(
                    pool.map(
                        lambda _n: timed_reads(server.base, cookie, path, per_client),
                        range(concurrency),
                    )
                )
            memory = server.memory_kib()
        together = [t for one in runs for t in one]
    return {
        "hands": hands,
        "profile_p50_ms": round(percentile(one_by_one, 50) * 1000, 2),
        "profile_p99_ms": round(percentile(one_by_one, 99) * 1000, 2),
        f"profile_p99_ms_{concurrency}_at_once": round(percentile(together, 99) * 1000, 2),
        "table_line_p99_ms": round(percentile(line, 99) * 1000, 2),
        "server_cpu_ms_per_profile": round(profile_cpu_ms, 2),
        "server_cpu_ms_per_me": round(floor_cpu_ms, 2),
        "floor_me_p50_ms": round(percentile(floor, 50) * 1000, 2),
        "floor_me_p99_ms": round(percentile(floor, 99) * 1000, 2),
        "server_rss_before_mib": round(rss_before / 1024, 1),
        "server_rss_after_mib": round(memory.get("VmRSS", 0) / 1024, 1),
        "server_rss_growth_mib": round((memory.get("VmRSS", 0) - rss_before) / 1024, 1),
        "server_peak_rss_mib": round(memory.get("VmHWM", 0) / 1024, 1),
        "rebuild_s": round(rebuild_s, 2),
        "setup_s": round(setup_s, 2),
        "hand_by_hand_s": None if before_s is None else round(before_s, 2),
        "goal_p99_ms": GOAL_P99_MS,
        "p99_under_goal": percentile(one_by_one, 99) * 1000 < GOAL_P99_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--no-reference", action="store_true", help="skip the hand-by-hand read")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.hands, args.requests, args.concurrency, not args.no_reference)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0  # a slow figure is reported as measured (a wrong profile fails its assertion)


if __name__ == "__main__":
    sys.exit(main())
