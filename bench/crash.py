"""Crash drill: a server under load is killed with SIGKILL at random moments and restarted.

    python bench/crash.py --kills 20 --players 32 --tables 4 [--json]

Players (real WebSocket clients from ``bench/load.py``) buy in at Ahiko tables and play; at
a random moment the server process gets SIGKILL. With the server dead, the drill reads what
each player owns in the ledger (wallet + chips at the table as of the last settled hand) and
runs ``ahiko admin check-ledger``; then it restarts the server on the same data folder and
checks, every time:

- the ledger is clean (``check-ledger``);
- no coin is lost: each player owns after the restart (wallet + chips at tables) exactly
  what they owned before it;
- every hand that was in progress is now cancelled (its chips back at the hand's start,
  R-FD-06 / store.rooms) and none is left ``in_progress``;
- the players come back: they reconnect to their old room and seat (recorded per kill);
  where the server did not keep it, they buy in again. Either way they play on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets
from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_server import ServerProcess, check_ledger, free_port

from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.schema import hands
from ahiko.wallet.operations import Wallet
from load import LoadRun


def holdings(data_dir: Path, user_ids: list[int]) -> dict[int, tuple[int, int]]:
    """user id -> (wallet, chips at tables), read straight from the database."""
    engine = make_engine(Settings(data_dir=data_dir).resolved_database_url)
    try:
        wallet = Wallet(engine)
        return {
            uid: (found.wallet, found.in_seats)
            for uid in user_ids
            for found in [wallet.holdings(uid)]
        }
    finally:
        engine.dispose()


def hand_statuses(data_dir: Path) -> dict[str, int]:
    engine = make_engine(Settings(data_dir=data_dir).resolved_database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(hands.c.status, func.count()).group_by(hands.c.status))
            return {str(status): int(count) for status, count in rows}
    finally:
        engine.dispose()


async def players_back_in_their_seats(run: LoadRun, base: str) -> int:
    """How many players, reconnecting to the room they sat in, find their seat kept."""
    ws_base = base.replace("http://", "ws://")

    async def back(table: Any, player: Any) -> bool:
        async with websockets.connect(
            f"{ws_base}/ws/rooms/{table.room_id}",
            additional_headers={"Cookie": f"ahiko_session={player.cookie}"},
            proxy=None,
        ) as ws:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
        return bool(frame.get("t") == "snapshot" and frame["you"].get("seat") == player.seat)

    found = await asyncio.gather(*(back(t, p) for t in run.tables for p in t.players))
    return sum(found)


def run_drill(
    kills: int,
    players: int,
    tables: int,
    think: float,
    seed: int = 7,
    speed: float = 4.0,
    min_s: float = 2.0,
    max_s: float = 10.0,
) -> dict[str, Any]:
    rng = random.Random(seed)
    rounds: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="ahiko-crash-") as tmp:
        data_dir = Path(tmp) / "data"
        env = {"AHIKO_BENCH_SPEED": str(speed)}

        def start() -> ServerProcess:
            server = ServerProcess(data_dir, free_port(), Path(tmp) / "server.log", env=env)
            server.start()
            return server

        server = start()
        run = LoadRun(server.base, players, tables, think, seed, "ahiko")

        async def play_then_kill(seconds: float, kill: bool) -> None:
            await run.seat_everyone()
            await asyncio.sleep(seconds)
            run.stopping = True  # the sockets about to drop are not errors
            if kill:
                server.kill()
            await run.close_all()

        asyncio.run(run.sign_up_all())
        user_ids = [int(p.player_id) for t in run.tables for p in t.players]
        for k in range(kills):
            played_for = rng.uniform(min_s, max_s)
            asyncio.run(play_then_kill(played_for, kill=True))
            ledger_dead, ledger_text = check_ledger(data_dir)
            before = holdings(data_dir, user_ids)
            statuses_before = hand_statuses(data_dir)
            started = time.perf_counter()
            server = start()
            restart_s = time.perf_counter() - started
            after = holdings(data_dir, user_ids)
            statuses_after = hand_statuses(data_dir)
            ledger_ok, _ = check_ledger(data_dir)
            back = asyncio.run(players_back_in_their_seats(run, server.base))
            reseated = back == players
            interrupted = statuses_before.get("in_progress", 0)
            rounds.append(
                {
                    "kill": k + 1,
                    "after_s": round(played_for, 1),
                    "restart_s": round(restart_s, 2),
                    "ledger_ok_while_dead": ledger_dead,
                    "ledger_ok_after_restart": ledger_ok,
                    "coins_before": sum(w + s for w, s in before.values()),
                    "coins_after": sum(w + s for w, s in after.values()),
                    "players_whole": all(sum(after[u]) == sum(before[u]) for u in user_ids),
                    "players_changed": {
                        u: {"before": before[u], "after": after[u]}
                        for u in user_ids
                        if sum(after[u]) != sum(before[u])
                    },
                    "hands_interrupted": interrupted,
                    "hands_cancelled_now": statuses_after.get("cancelled", 0)
                    - statuses_before.get("cancelled", 0),
                    "hands_left_in_progress": statuses_after.get("in_progress", 0),
                    "players_back_in_seat": back,
                    "ledger": ledger_text if not ledger_dead else "",
                }
            )
            run.restart(server.base, keep_rooms=reseated)
        # After the last restart the players buy in and play once more.
        asyncio.run(play_then_kill(min_s, kill=False))
        errors, samples = run.stats.errors, run.stats.error_samples
        server.stop()
        final_ok, _ = check_ledger(data_dir)
        tracebacks = (Path(tmp) / "server.log").read_text(errors="replace").count("Traceback")
    ok = final_ok and all(
        r["ledger_ok_while_dead"]
        and r["ledger_ok_after_restart"]
        and r["players_whole"]
        and r["coins_before"] == r["coins_after"]
        and r["hands_cancelled_now"] == r["hands_interrupted"]
        and r["hands_left_in_progress"] == 0
        for r in rounds
    )
    return {
        "kills": kills,
        "players": players,
        "tables": tables,
        "ok": ok,
        "ledger_ok": final_ok,
        "hands_interrupted": sum(r["hands_interrupted"] for r in rounds),
        "players_back_in_seat": min((r["players_back_in_seat"] for r in rounds), default=0),
        "errors": errors,
        "error_samples": samples,
        "server_log_tracebacks": tracebacks,
        "rounds": rounds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--speed", type=float, default=4.0, help="room clock speed-up")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run_drill(args.kills, args.players, args.tables, args.think, args.seed, args.speed)
    if args.json:
        summary = {k: v for k, v in result.items() if k != "rounds"}
        print(json.dumps(summary))
    else:
        for line in result["rounds"]:
            print(json.dumps(line))
        print(json.dumps({k: v for k, v in result.items() if k != "rounds"}))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
