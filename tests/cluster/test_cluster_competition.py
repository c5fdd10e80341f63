"""Issue 20 across the nodes of issue 14: sit & go's and MTTs on a cluster. Real ``ahiko serve
--redis-url`` processes, a real ``redis-server``, a real PostgreSQL (or SQLite for the
in-process fence test), real sockets.

- The competitions run on the leader only; the sit & go routes answer on every node (a node
  that does not lead forwards them to the leader over the relay, with the player's identity).
  A heads-up coin sit & go registered from two nodes is played to the end with the players'
  sockets on different nodes (the non-leader's through the relay); the payout is right on
  both nodes' wallet views and ``ahiko admin check-ledger`` is clean.
- The old leader's pool write is refused by the database once a newer leader claimed the
  leader's fence, and the new leader's recovery refunds the pool once.
- The leader killed with a running sit & go, an unfilled queue and an MTT registration: the
  next leader refunds every buy-in once; a further leader change refunds nothing more.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
import redis.asyncio as redis
from cluster_entrants import CompetitionPlayer, until_wallets_agree
from nodes import Node, check_ledger
from sqlalchemy import func, select

from ahiko.competition.live_sitgo import SitGoRooms
from ahiko.rooms.registry import RoomRegistry
from ahiko.server.cluster.leader import LEADER, Leadership
from ahiko.server.cluster.lease import Leases
from ahiko.server.cluster.ownership import room_lease
from ahiko.store.engine import make_engine
from ahiko.store.fences import LEADER_FENCE, FenceBook, FencedOut, claim_fence, install_fences
from ahiko.store.schema import ledger_transactions
from ahiko.store.writer import InlineWriter
from ahiko.wallet.check import check_ledger as ledger_problems
from ahiko.wallet.operations import Wallet
from ahiko.wallet.policy import SIGNUP_GRANT
from ahiko.wallet.sitgo import SitGoBank
from archive_factory import add_person

pytestmark = pytest.mark.cluster

LEASE_MS = 2000
BUY_IN = 100  # the "hu-100" queue


async def holder(redis_url: str, name: str) -> str | None:
    client = redis.Redis.from_url(redis_url)
    try:
        found = await Leases(client, "probe", 1000).holder(name)
    finally:
        await client.aclose()
    return None if found is None else found[0]


def _is(node: Node, name: str | None) -> bool:
    """The lease holder ``name`` (``HOST-PORT-PID``) is ``node``."""
    pid = node.process.pid if node.process else 0
    return name is not None and name.endswith(f"-{node.port}-{pid}")


def _two_nodes(redis_url: str, postgres_url: str, tmp_path: Path) -> tuple[Path, Node, Node]:
    """Node A, started first (it leads), then node B, on one data folder."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    a = Node("a", redis_url, postgres_url, data, lease_ms=LEASE_MS).start()
    return data, a, Node("b", redis_url, postgres_url, data, lease_ms=LEASE_MS).start()


async def _signed_up(address: str, name: str) -> CompetitionPlayer:
    player = CompetitionPlayer(address)
    await player.sign_up(name)
    return player


def test_a_heads_up_coin_sit_and_go_registered_and_played_from_two_nodes_pays_on_both(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data, a, b = _two_nodes(redis_url, postgres_url, tmp_path)

    async def scenario() -> None:
        assert _is(a, await holder(redis_url, LEADER))
        ana = await _signed_up(a.address, "ana")
        bia = await _signed_up(b.address, "bia")
        # the lobby answers on both nodes, the same (B's is the leader's, forwarded)
        on_a, on_b = (await ana.sitgo()), (await bia.sitgo())
        assert on_a.status_code == on_b.status_code == 200, on_b.text
        assert on_a.json()["queues"] == on_b.json()["queues"]
        first = await ana.sitgo("/queues/hu-100/register", {"key": "ana-1"})
        assert first.status_code == 201, first.text
        assert first.json()["sitgo"]["room_id"] is None  # one of two
        second = await bia.sitgo("/queues/hu-100/register", {"key": "bia-1"})  # through B
        assert second.status_code == 201, second.text
        body = second.json()
        assert body["applied"] is True and body["sitgo"]["status"] == "running"
        room_id = body["sitgo"]["room_id"]
        assert room_id is not None
        again = await bia.sitgo("/queues/hu-100/register", {"key": "bia-1"})  # a retry
        assert again.status_code == 201 and again.json()["applied"] is False
        other = await bia.sitgo("/queues/hu-free/register", {"key": "bia-2"})
        assert other.status_code == 409 and other.json()["error"] == "already_registered"
        mine = (await ana.sitgo()).json()["mine"]
        assert mine["room_id"] == room_id  # ana learns her table from A, as bia from B
        # the tournament room is owned by the leader like any room: a lease and a fence token
        assert _is(a, await holder(redis_url, room_lease(room_id)))
        for player in (ana, bia):
            assert await player.wallet_on(a.address) == SIGNUP_GRANT - BUY_IN
            player.room_id = room_id
            await player.open()  # ana's socket on A, bia's on B (through the relay)
        over = await asyncio.gather(
            *(p.until(lambda f: f["t"] == "tournament_over", timeout=150) for p in (ana, bia))
        )
        assert over[0]["results"] == over[1]["results"]
        results = over[0]["results"]
        winner = next(r for r in results if r["place"] == 1)
        assert winner["prize"] == 2 * BUY_IN
        assert sum(r.get("prize") or 0 for r in results) == 2 * BUY_IN
        expected = {
            p.name: SIGNUP_GRANT - BUY_IN + (2 * BUY_IN if p.user_id == winner["player_id"] else 0)
            for p in (ana, bia)
        }
        await until_wallets_agree((ana, bia), [a.address, b.address], expected)
        for player in (ana, bia):
            statement = await player.statement_on(b.address)
            assert statement == await player.statement_on(a.address)
        # a socket to a tournament table that is gone, on the node that does not lead: the
        # gateway asks the leader (which runs the MTTs) where its player sits now; for a
        # table they never sat at it answers nothing, and the socket hears only no_room
        await bia.ws.close()
        bia.room_id, bia.seq, bia.epoch = "mtt-nope-1", None, None
        start = len(bia.frames)
        await bia.open(b.address)
        gone = await bia.until(lambda f: f["t"] == "error", play=False, timeout=15)
        assert gone["code"] == "no_room"
        assert [f["t"] for f in bia.frames[start:]] == ["error"]  # no moved frame
        for player in (ana, bia):
            await player.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 240))
    finally:
        a.stop()
        b.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_old_leaders_pool_write_is_refused_by_the_database_and_the_new_one_refunds_once(
    database_url: str, redis_url: str
) -> None:
    """Node A leads (its leader token in the fence), escrows a buy-in, then is paused past
    its lease: B takes the lease, claims the fence with its newer token and, in its start-up
    recovery, refunds the pool. A, resumed and still believing it leads, tries a payout and a
    new escrow: both are refused by the database (``FencedOut``), nothing of them is written,
    the player got the buy-in back exactly once and the ledger is clean."""
    node_a, node_b = make_engine(database_url), make_engine(database_url)
    book_a, book_b = FenceBook("a"), FenceBook("b")
    install_fences(node_a, book_a)
    install_fences(node_b, book_b)
    ana = add_person(node_a, "ana")
    cara = add_person(node_a, "cara")

    async def scenario() -> None:
        client = redis.Redis.from_url(redis_url)
        lead_a = Leadership(Leases(client, "a", 300))
        lead_b = Leadership(Leases(client, "b", 300))
        assert await lead_a.step() and not await lead_b.step()
        assert lead_a.token is not None
        claim_fence(node_a, LEADER_FENCE, lead_a.token, "a")
        book_a.hold(LEADER_FENCE, lead_a.token)
        bank_a = SitGoBank(node_a)
        assert bank_a.hold("s1", ana, BUY_IN, "sng:s1:hold:ana")
        await asyncio.sleep(0.45)  # A is paused: it renews nothing, its lease runs out
        assert await lead_b.step()  # B leads with a newer token
        assert lead_b.token is not None and lead_b.token > lead_a.token
        claim_fence(node_b, LEADER_FENCE, lead_b.token, "b")
        book_b.hold(LEADER_FENCE, lead_b.token)
        recovered = SitGoRooms(RoomRegistry(), node_b, writer=InlineWriter()).start()
        assert recovered == {"s1": {ana: BUY_IN}}
        # A resumes: it has not noticed yet, and writes under its old token
        with pytest.raises(FencedOut) as refused:
            bank_a.pay("s1", {ana: BUY_IN}, "sng:s1:payout")
        print(f"\nrefused: {refused.value}")
        assert refused.value.token == lead_a.token and refused.value.newest == lead_b.token
        assert f"older than the newest owner's ({lead_b.token})" in str(refused.value)
        with pytest.raises(FencedOut):
            bank_a.hold("s2", cara, BUY_IN, "sng:s2:hold:cara")
        assert book_a.refused == 2
        assert not await lead_a.step()  # and then it learns it no longer leads
        # a second recovery (another leader later) finds nothing more to refund
        assert SitGoRooms(RoomRegistry(), node_b, writer=InlineWriter()).start() == {}
        await client.aclose()

    asyncio.run(scenario())
    wallet = Wallet(node_b)
    assert wallet.holdings(ana).wallet == SIGNUP_GRANT  # the buy-in back, once
    assert wallet.holdings(cara).wallet == SIGNUP_GRANT  # her refused escrow took nothing
    assert SitGoBank(node_b).pool_balance("s1") == 0 and SitGoBank(node_b).pool_balance("s2") == 0
    with node_b.connect() as conn:
        kinds = dict(
            conn.execute(
                select(ledger_transactions.c.kind, func.count())
                .where(ledger_transactions.c.kind.like("sng_%"))
                .group_by(ledger_transactions.c.kind)
            ).all()
        )
    assert kinds == {"sng_register": 1, "sng_refund": 1}  # no payout, no second escrow
    assert ledger_problems(node_b) == []
    node_a.dispose()
    node_b.dispose()


def _sng_refunds(database_url: str) -> dict[int, int]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(ledger_transactions.c.user_id, func.count())
                .where(ledger_transactions.c.kind == "sng_refund")
                .group_by(ledger_transactions.c.user_id)
            ).all()
    finally:
        engine.dispose()
    return {int(user): int(count) for user, count in rows}


def test_the_leader_killed_with_tournaments_under_way_the_next_leader_refunds_every_buy_in_once(
    redis_url: str, postgres_url: str, tmp_path: Path
) -> None:
    data, a, b = _two_nodes(redis_url, postgres_url, tmp_path)
    c = Node("c", redis_url, postgres_url, data, lease_ms=LEASE_MS)
    people: list[CompetitionPlayer] = []

    async def before() -> None:
        assert _is(a, await holder(redis_url, LEADER))
        for name in ("ana", "bia", "cara", "dan"):
            people.append(await _signed_up(b.address, name))  # everything through B
        ana, bia, cara, dan = people
        for player, key in ((ana, "a"), (bia, "b")):  # a running heads-up sit & go
            done = await player.sitgo("/queues/hu-100/register", {"key": key})
            assert done.status_code == 201, done.text
        assert done.json()["sitgo"]["status"] == "running"
        waiting = await cara.sitgo("/queues/hu-100/register", {"key": "c"})  # an unfilled one
        assert waiting.status_code == 201 and waiting.json()["sitgo"]["status"] == "registering"
        made = await dan.mtt("", {"name": "Dan's", "buy_in": 50, "starts_in_minutes": 60})
        assert made.status_code == 201, made.text
        mtt_id = made.json()["mtt"]["id"]
        joined = await dan.mtt(f"/{mtt_id}/register", {"key": "d"})  # an MTT registration
        assert joined.status_code == 201, joined.text
        for player, paid in zip(people, (BUY_IN, BUY_IN, BUY_IN, 50), strict=True):
            assert await player.wallet_on(b.address) == SIGNUP_GRANT - paid

    async def lobby_after_the_kill() -> list[str]:
        """B's lobby after A died: refusals naming why, until B leads and answers itself."""
        codes = []
        deadline = time.monotonic() + LEASE_MS / 1000 + 20
        while time.monotonic() < deadline:
            answer = await people[0].sitgo()
            if answer.status_code == 200:
                assert answer.json()["mine"] is None  # the old sit & go's are gone
                return codes
            assert answer.status_code == 503, answer.text
            codes.append(answer.json()["error"])
            await asyncio.sleep(0.1)
        raise AssertionError(f"B never answered the lobby: {codes}")

    async def scenario() -> None:
        await before()
        a.kill()  # kill -9: no lease given back, nothing closed
        codes = await lobby_after_the_kill()
        assert set(codes) <= {"leader_unreachable", "no_leader", "leader_starting"}, codes
        assert _is(b, await holder(redis_url, LEADER))
        by_user = _sng_refunds(postgres_url)
        assert by_user == {int(p.user_id): 1 for p in people}, by_user  # each buy-in, once
        for player in people:
            assert await player.wallet_on(b.address) == SIGNUP_GRANT
        # another leader change: B stops, C leads, and its recovery finds nothing to refund
        c.start()
        b.stop()
        deadline = time.monotonic() + LEASE_MS / 1000 + 10
        while not _is(c, await holder(redis_url, LEADER)):
            assert time.monotonic() < deadline, "C never led"
            await asyncio.sleep(0.1)
        deadline = time.monotonic() + 10
        while (await people[0].http.get(f"{c.url}/api/sitgo")).status_code != 200:
            assert time.monotonic() < deadline, "C never opened the sit & go's"
            await asyncio.sleep(0.1)
        assert _sng_refunds(postgres_url) == by_user  # nobody refunded twice
        for player in people:
            assert await player.wallet_on(c.address) == SIGNUP_GRANT
            await player.http.aclose()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        a.kill()
        b.stop()
        c.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr
