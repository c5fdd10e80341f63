"""R-FD-06 after the reveals: once a hand's reveals closed and its cards are out, only a crash
of the node playing it can cancel it, and such cancellations are counted and published
(docs/fairness.md). A real server process runs an Ahiko table where both people's browsers
take part in the shuffle; after the mix and the first cards, with the hand recorded as in
progress, the process gets SIGKILL. Restarted on the same data, it cancels the hand (stacks
back, ledger clean) and the public figure (``/api/fairness/figures``) and ``/metrics`` both
went from 0 to 1."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select

from ahiko.fairness.contribution import seat_commitment
from ahiko.server.settings import Settings
from ahiko.store.engine import make_engine
from ahiko.store.schema import hands

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from load_server import ServerProcess, check_ledger, free_port

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("load")]
CSRF = {"X-Ahiko-CSRF": "1"}
TOKEN = "scraper-token"
SPEED = "4"  # the rules' waits four times faster: the table deals within seconds


def published(base: str) -> tuple[int, float]:
    """The public figure and the metric, as anyone (and the scraper) reads them."""
    figure = httpx.get(f"{base}/api/fairness/figures", timeout=30).json()
    scraped = httpx.get(
        f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30
    ).text
    found = re.search(r"^ahiko_hands_cancelled_after_deal_total (\S+)$", scraped, re.M)
    assert found is not None, scraped[-2000:]
    return int(figure["hands_cancelled_after_deal"]), float(found.group(1))


def hand_status(data_dir: Path, hand_no: int) -> str | None:
    engine = make_engine(Settings(data_dir=data_dir).resolved_database_url)
    try:
        with engine.connect() as conn:
            query = select(hands.c.status).where(hands.c.hand_no == hand_no)
            return conn.execute(query).scalar()
    finally:
        engine.dispose()


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.05)


async def play_until_dealt(base: str, data_dir: Path) -> tuple[int, list[str]]:
    """Two people buy in at a fresh Ahiko table, their browsers commit and reveal; returns
    the number of the first hand once its mix and first cards are out and the database holds
    it in progress, with the fair_mix's reveal kinds."""
    async with httpx.AsyncClient(base_url=base, headers=CSRF, timeout=60) as http:
        cookies = []
        for name in ("cai", "duda"):
            made = await http.post("/api/accounts", json={"username": name, "password": "pw-crash"})
            made.raise_for_status()
            cookies.append(made.cookies["ahiko_session"])
        opened = await http.post("/bench/open_ahiko_rooms", json={"tier": "iniciante", "count": 1})
        room_id = opened.json()["ids"][0]
        url = f"{base.replace('http://', 'ws://')}/ws/rooms/{room_id}"
        sockets = []
        for seat, cookie in enumerate(cookies):
            ws = await websockets.connect(
                url, additional_headers={"Cookie": f"ahiko_session={cookie}"}
            )
            await ws.recv()  # the snapshot
            bought = await http.post(
                f"/api/ahiko/rooms/{room_id}/buy_in",
                json={"seat": seat, "amount": 200, "key": f"crash-{seat}"},
                headers={"Cookie": f"ahiko_session={cookie}"},
            )
            assert bought.status_code == 200, bought.text
            sockets.append(ws)
    secret = {seat: secrets.token_bytes(32) for seat in range(2)}
    for seat, ws in enumerate(sockets):  # at sit-down: each browser's secret for hand 1
        commitment = seat_commitment(room_id, 1, seat, secret[seat]).hex()
        await ws.send(
            json.dumps({"t": "fair_commit", "id": "c", "hand_no": 1, "commitment": commitment})
        )

    async def follow(seat: int, ws: Any) -> list[str]:
        kinds: list[str] = []
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame["t"] == "commitment" and frame["hand_no"] == 1:
                assert [s for s, _ in frame["contributors"]["seats"]] == [0, 1]
                reveal = {"t": "fair_reveal", "id": "r", "hand_no": 1, "secret": secret[seat].hex()}
                await ws.send(json.dumps(reveal))
            elif frame["t"] == "fair_mix":
                kinds = [kind for _, kind, _ in frame["reveals"]]
            elif frame["t"] == "hand" and frame["hand_no"] == 1 and kinds:
                return kinds  # the first cards, after the reveals closed

    kinds = await asyncio.gather(*(follow(s, ws) for s, ws in enumerate(sockets)))
    await asyncio.to_thread(
        wait_for, lambda: hand_status(data_dir, 1) == "in_progress", "hand 1 in progress"
    )
    for ws in sockets:
        ws.transport.abort()  # the server is about to vanish: no closing handshake
    return 1, kinds[0]


def test_R_FD_06_a_crash_after_the_reveals_cancels_the_hand_and_the_count_is_published(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    env = {"AHIKO_BENCH_SPEED": SPEED, "AHIKO_METRICS_TOKEN": TOKEN}
    server = ServerProcess(data_dir, free_port(), tmp_path / "server.log", env=env)
    server.start()
    try:
        assert published(server.base) == (0, 0.0)
        hand_no, kinds = asyncio.run(play_until_dealt(server.base, data_dir))
        assert kinds == ["secret", "secret"]  # both browsers shaped this shuffle
        server.kill()  # SIGKILL: no shutdown code runs
        assert hand_status(data_dir, hand_no) == "in_progress"
        server = ServerProcess(data_dir, free_port(), tmp_path / "server.log", env=env)
        server.start()
        assert hand_status(data_dir, hand_no) == "cancelled"
        assert published(server.base) == (1, 1.0)
    finally:
        server.stop()
    ledger_ok, ledger = check_ledger(data_dir)
    assert ledger_ok, ledger
