"""Issue 14: one owner per room. Leases in a real ``redis-server`` with fencing tokens that only
grow; the database refuses every write about a room (seats, hand records, participations, the
table's ledger postings) by an owner older than the newest; and an owner frozen with SIGSTOP
past its lease, then resumed, has its writes refused and drops the room."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis.asyncio as redis
from progress import wait_on
from sqlalchemy import Engine, select

from ahiko.server.cluster.lease import Leases
from ahiko.store.engine import make_engine
from ahiko.store.fences import FenceBook, FencedOut, claim_fence, install_fences, newest_token
from ahiko.store.rooms import OpenStay, SeatRecord, load_rooms, open_stays, save_room
from ahiko.store.schema import hands
from ahiko.wallet.check import check_ledger
from ahiko.wallet.operations import Wallet
from store_helpers import record_hand, save_seats

pytestmark = pytest.mark.cluster

WORKER = Path(__file__).with_name("fence_worker.py")


def test_lease_tokens_only_grow_and_a_stale_holder_cannot_renew_or_release(
    redis_url: str,
) -> None:
    async def scenario() -> None:
        client = redis.Redis.from_url(redis_url)
        a, b = Leases(client, "a", 200), Leases(client, "b", 200)
        first = await a.acquire("room:r1")
        assert first is not None and first.token == 1
        assert await b.acquire("room:r1") is None  # held
        assert await a.renew(first)
        assert await a.holder("room:r1") == ("a", 1)
        await asyncio.sleep(0.35)  # a does not renew: the lease expires
        second = await b.acquire("room:r1")
        assert second is not None and second.token == 2  # one more for every new holder
        assert not await a.renew(first)  # a stale holder cannot extend the new one's
        assert not await a.release(first)  # ... nor delete it
        assert await b.holder("room:r1") == ("b", 2)
        assert await b.release(second)
        third = await a.acquire("room:r1")
        assert third is not None and third.token == 3
        assert await a.raise_floor("room:r1", 10) == 10  # Redis lost its data: move past
        await a.release(third)
        fourth = await b.acquire("room:r1")
        assert fourth is not None and fourth.token == 11
        await client.aclose()

    asyncio.run(scenario())


def test_a_write_by_an_older_owner_is_refused_by_the_database(database_url: str) -> None:
    """Two nodes on one database; node A owned the room with token 1, node B took it over with
    token 2. Every kind of write A still tries is refused in its own transaction, changing
    nothing; B's go through."""
    node_a, node_b = make_engine(database_url), make_engine(database_url)
    book_a, book_b = FenceBook("a"), FenceBook("b")
    install_fences(node_a, book_a)
    install_fences(node_b, book_b)
    claim_fence(node_a, "r1", 1, "a")
    book_a.hold("r1", 1)
    save_room(node_a, "r1", "ahiko", {"tier": "micro"})
    save_seats(node_a, "r1", [SeatRecord(1, "bot", "a-seat", 100)])
    record_hand(node_a, "r1", 1, [{"t": "hand_ended"}], "finished")
    Wallet(node_a).bot_fund("r1", 2, 500, "fund-a")

    claim_fence(node_b, "r1", 2, "b")  # the takeover
    book_b.hold("r1", 2)
    with pytest.raises(FencedOut) as refused:
        save_seats(node_a, "r1", [SeatRecord(1, "bot", "a-stale", 999)])
    assert refused.value.token == 1 and refused.value.newest == 2
    assert "older than the newest owner's (2)" in str(refused.value)
    with pytest.raises(FencedOut):
        record_hand(node_a, "r1", 2, [{"t": "hand_ended"}], "finished")
    with pytest.raises(FencedOut):
        Wallet(node_a).bot_fund("r1", 3, 500, "fund-a-stale")
    [participation] = [s.participation_id for s in _open_bot_stays(node_b)]
    with pytest.raises(FencedOut):
        Wallet(node_a).bot_return(participation, "return-a-stale")
    assert book_a.refused == 4
    # nothing of A's refused writes is there; B writes as the owner
    [room] = load_rooms(node_b)
    assert [(s.name, s.stack) for s in room.seats] == [("a-seat", 100)]
    with node_b.connect() as conn:
        assert conn.execute(select(hands.c.hand_no).where(hands.c.room_id == "r1")).all() == [(1,)]
    Wallet(node_b).bot_return(participation, "return-b")
    save_seats(node_b, "r1", [SeatRecord(1, "bot", "b-seat", 100)])
    assert Wallet(node_b).reserve_balance() == 100_000
    assert check_ledger(node_b) == []
    # an older token can never claim again; a node with no lease on a room cannot write it
    with pytest.raises(FencedOut):
        claim_fence(node_a, "r1", 1, "a")
    with pytest.raises(FencedOut) as unowned:
        save_seats(node_a, "r2", [])
    assert unowned.value.token is None
    node_a.dispose()
    node_b.dispose()


def _open_bot_stays(engine: Engine) -> list[OpenStay]:
    return open_stays(engine, "r1")


def _count(lines: list[str], prefix: str) -> int:
    return sum(line.startswith(prefix) for line in lines)


def _lines(process: subprocess.Popen[str], into: list[str]) -> threading.Thread:
    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            into.append(line.strip())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


@pytest.mark.postgres
@pytest.mark.parametrize("in_transaction", [False, True])
def test_an_owner_frozen_past_its_lease_is_fenced_out_and_drops_the_room(
    postgres_url: str, redis_url: str, in_transaction: bool
) -> None:
    """``in_transaction``: frozen while it holds a transaction open with the room's fence row
    locked; the database ends that session after ``POSTGRES_IDLE_IN_TRANSACTION_MS``, so the
    new owner's claim waits for that, not for as long as the old owner is frozen."""
    ttl_ms = 600
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    engine = make_engine(postgres_url)
    save_room(engine, "r1", "ahiko", {"tier": "micro"})  # (no fence book: an operator's write)

    def worker(node: str, *hold: str) -> tuple[subprocess.Popen[str], list[str]]:
        process = subprocess.Popen(
            [sys.executable, str(WORKER), postgres_url, redis_url, "r1", node, str(ttl_ms), *hold],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )  # fmt: skip
        out: list[str] = []
        _lines(process, out)
        return process, out

    # Every wait follows the workers' progress (their lines, their CPU time), not a wall
    # clock: on a loaded machine a worker may take many seconds just to start.
    a, a_out = worker("a", *(["hold"] if in_transaction else []))
    b = None
    try:
        wait_on([(a, a_out)], lambda: _count(a_out, "wrote") >= 3, "a's writes")
        if in_transaction:
            wait_on([(a, a_out)], lambda: _count(a_out, "holding") >= 1, "a holding")
        assert a_out[0] == "owner 1"
        a.send_signal(signal.SIGSTOP)  # frozen mid-stride, its lease still in Redis
        b, b_out = worker("b")
        wait_on([(b, b_out)], lambda: "owner 2" in b_out, "b to take over after a's lease")
        wait_on([(b, b_out)], lambda: _count(b_out, "wrote") >= 3, "b's writes")
        a.send_signal(signal.SIGCONT)
        wait_on([(a, a_out)], lambda: a.poll() is not None, "a to learn it lost the room")
        refused = [line for line in a_out if line.startswith("refused")]
        assert refused, "\n".join(a_out)
        if in_transaction:  # its held transaction ended by the database, then refused
            assert any(line.startswith("lost") for line in a_out), a_out
            assert "owner's (2)" in refused[0] or "no lease" in refused[0], refused
        else:
            assert "older than the newest owner's (2)" in refused[0]
        assert any(line.startswith("dropped r1") for line in a_out), a_out
        # after its refused write a wrote nothing more
        assert not any(line.startswith("wrote") for line in a_out[a_out.index(refused[0]) :])
        wait_on([(b, b_out)], lambda: _count(b_out, "wrote") >= 6, "b goes on")
        b.send_signal(signal.SIGTERM)
        b.wait(timeout=30)
        [room] = load_rooms(engine)
        assert room.seats[0].name.startswith("b-")  # the last word is the newest owner's
        assert newest_token(engine, "r1") == 2
        # a's refused hand left no finished record: a's hands are 1001.., b's 2001..
        with engine.connect() as conn:
            finished = conn.execute(select(hands.c.hand_no).where(hands.c.status == "finished"))
            numbers = [n for (n,) in finished.all()]
        a_wrote = {int(line.split()[1]) for line in a_out if line.startswith("recorded")}
        assert {n for n in numbers if n < 2000} == a_wrote
    finally:
        for process in (a, b):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGCONT)
                process.kill()
                process.wait()
        engine.dispose()
