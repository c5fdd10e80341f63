"""Crash drill at the storage level: a table process is killed with SIGKILL at random moments,
again and again, and restarted; every time the interrupted hand is cancelled with the chips
back at their start stacks, and at the end check-ledger is clean and every coin is accounted
for. (The same drill against the live server waits for the Ahiko rooms.)"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

from ahiko.store.accounts import insert_user
from ahiko.store.engine import make_engine, reading
from ahiko.store.rooms import load_rooms, recover_interrupted_hands, save_room
from ahiko.store.schema import hands
from ahiko.wallet import Wallet
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import open_wallet
from ahiko.wallet.policy import SIGNUP_GRANT

WORKER = Path(__file__).with_name("crash_drill_worker.py")
KILLS = 4
PLAYERS = 5


def test_sigkill_mid_hand_repeatedly_then_recover(database_url):
    engine = make_engine(database_url)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        users = [insert_user(conn, f"p{n}", "h", now) for n in range(PLAYERS)]
        for user_id in users:
            open_wallet(conn, user_id, now)
    save_room(engine, "drill", "ahiko", {"tier": "iniciante"})
    rng = random.Random(5)
    command = [sys.executable, str(WORKER), database_url, "drill", *map(str, users)]
    for kill in range(KILLS):
        played = _hands_recorded(engine)
        worker = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while _hands_recorded(engine) < played + 3:  # wait until it is really playing
            assert worker.poll() is None, worker.stderr.read() if worker.stderr else ""
            assert time.monotonic() < deadline, "the worker played no hand within 60 s"
            time.sleep(0.05)
        # The last kill waits for a hand in progress (a loaded machine may spend the random
        # pause between hands), so at least one lands mid-hand whatever the timing.
        time.sleep(rng.uniform(0, 0.3))
        while kill == KILLS - 1 and not _hand_in_progress(engine):
            assert worker.poll() is None, worker.stderr.read() if worker.stderr else ""
            time.sleep(0.005)
        worker.send_signal(signal.SIGKILL)
        worker.wait()

    interrupted = recover_interrupted_hands(engine)
    assert len(interrupted) <= 1
    with engine.connect() as conn:
        statuses = dict(
            conn.execute(select(hands.c.status, func.count()).group_by(hands.c.status)).all()
        )
    assert statuses.get("finished", 0) > KILLS
    assert "in_progress" not in statuses
    assert statuses.get("cancelled", 0) >= 1  # kills did land mid-hand
    assert check_ledger(engine) == []  # includes: every seat's chips == its escrow
    wallet = Wallet(engine)
    in_play = sum(seat.stack for seat in load_rooms(engine)[0].seats)
    held = sum(wallet.holdings(user_id).wallet for user_id in users)
    assert held + in_play == PLAYERS * SIGNUP_GRANT
    engine.dispose()


def _hand_in_progress(engine) -> bool:
    with reading(engine) as conn:
        query = select(func.count()).select_from(hands).where(hands.c.status == "in_progress")
        return int(conn.execute(query).scalar_one()) > 0


def _hands_recorded(engine) -> int:
    with reading(engine) as conn:
        return int(conn.execute(select(func.count()).select_from(hands)).scalar_one())
