"""Issue 14: players are sent to their table's owner (``--node-route``), behind the balancer
of docs/deploy.md. Two real ``ahiko serve --redis-url`` nodes on one PostgreSQL and one Redis,
and Debian's nginx running ``docs/deploy/nginx.conf`` itself (its addresses replaced by the
test's ports).

Node A leads and owns the house rooms. Ana's socket reaches A's route and is served there;
Bia's reaches B's: B answers an ``owner`` frame naming A's route and closes with 4308, and her
socket, reopened there, is served by the owner (no second ``owner`` frame, no relay). A socket
that does not ask (no ``direct=1``) is served through the relay as before. They play two hands
and cash out; the wallets add up and ``ahiko admin check-ledger`` is clean. A route without
``--redis-url`` is refused at start with a message that names the fix."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis.asyncio as redis
import websockets
from house_players import Frame, HousePlayer
from nodes import BIN, Node, check_ledger, free_port
from test_cross_node_ahiko import _ended

from ahiko.rooms.registry import RoomRegistry
from ahiko.server.cluster.lease import lease_key
from ahiko.server.cluster.node import ClusterNode, route_key
from ahiko.server.cluster.ownership import room_lease
from ahiko.store.engine import make_engine

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "docs" / "deploy" / "nginx.conf"


class BalancedPlayer(HousePlayer):
    """A player behind the balancer: HTTP through it, and a socket entering at ``entry`` (a
    node's route) that asks to be sent to the owner and follows the ``owner`` frame, as the
    browser's ``RoomConnection`` does."""

    def __init__(self, balancer: str, room_id: str, entry: str) -> None:
        super().__init__(balancer, room_id)
        self.entry = entry
        self.opened: list[str] = []  # every socket path, in order
        self.owner_frames: list[dict[str, str]] = []

    async def open(self, address: str | None = None, *, route: str | None = None) -> None:
        path = f"{route if route is not None else self.entry}/ws/rooms/{self.room_id}"
        query = "" if route is not None else "?direct=1"
        self.opened.append(path + query)
        await self.connect(path + query)

    async def join(self) -> None:
        """Opens the socket, and reopens it at the owner's route when told: up to the
        snapshot."""
        await self.open()
        first = await self.recv()
        if first["t"] == "owner":
            self.owner_frames.append(first)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await self.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4308
            await self.open(route=first["route"])
            first = await self.recv()
        assert first["t"] == "snapshot", first


@pytest.fixture
def balancer(tmp_path: Path) -> Iterator[tuple[str, int, int]]:
    """nginx on a free port with the documented configuration, balancing two node ports."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "nginx not installed: .ci/run installs Debian's nginx"
    port, port_a, port_b = free_port(), free_port(), free_port()
    text = CONF.read_text()
    for documented, ours in (
        ("127.0.0.1:8001", f"127.0.0.1:{port_a}"),
        ("127.0.0.1:8002", f"127.0.0.1:{port_b}"),
        ("listen 8080;", f"listen 127.0.0.1:{port};"),
    ):
        assert documented in text
        text = text.replace(documented, ours)
    prefix = tmp_path / "nginx"
    (prefix / "logs").mkdir(parents=True)
    conf = prefix / "nginx.conf"
    conf.write_text(text)
    process = subprocess.Popen(
        [nginx, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.05)
        yield f"127.0.0.1:{port}", port_a, port_b
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_socket_is_sent_to_its_tables_owner_behind_the_documented_balancer(
    redis_url: str, postgres_url: str, tmp_path: Path, balancer: tuple[str, int, int]
) -> None:
    address, port_a, port_b = balancer
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    a = Node("a", redis_url, postgres_url, data, port=port_a, env={"AHIKO_NODE_ROUTE": "/n/a"})
    b = Node("b", redis_url, postgres_url, data, port=port_b, env={"AHIKO_NODE_ROUTE": "/n/b"})
    a.start()
    try:
        rooms = httpx.get(f"http://{address}/n/a/api/ahiko/rooms").json()
        room_id = next(r["id"] for r in rooms if r["tier"] == "iniciante")
        b.start()

        async def scenario() -> tuple[BalancedPlayer, BalancedPlayer, Frame]:
            ana = BalancedPlayer(address, room_id, "/n/a")
            bia = BalancedPlayer(address, room_id, "/n/b")
            for seat, (player, name) in enumerate(((ana, "ana"), (bia, "bia"))):
                await player.sign_up(name)
                await player.join()
                bought = await player.post("buy_in", {"seat": seat, "amount": 150, "key": name})
                assert bought.status_code == 200, bought.text
            # a socket that does not ask to be sent is served where it is, through the relay
            async with websockets.connect(
                f"ws://{address}/n/b/ws/rooms/{room_id}", open_timeout=10
            ) as relayed:
                first = json.loads(await asyncio.wait_for(relayed.recv(), 10))

            async def play(player: BalancedPlayer) -> None:
                await player.until(lambda _f: len(_ended(player)) >= 2, timeout=120)

            await asyncio.gather(play(ana), play(bia))
            for player in (ana, bia):
                left = await player.post("leave", {})
                assert left.status_code == 200, left.text
                await player.until(lambda f: f["t"] == "wallet", timeout=60)
                await player.close()
            return ana, bia, first

        ana, bia, relayed_first = asyncio.run(asyncio.wait_for(scenario(), 240))
        assert ana.owner_frames == [] and ana.opened == [f"/n/a/ws/rooms/{room_id}?direct=1"]
        assert bia.owner_frames == [{"t": "owner", "room_id": room_id, "route": "/n/a"}]
        assert bia.opened == [f"/n/b/ws/rooms/{room_id}?direct=1", f"/n/a/ws/rooms/{room_id}"]
        assert relayed_first["t"] == "snapshot"  # not an owner frame: it did not ask
        assert not [f for p in (ana, bia) for f in p.frames[1:] if f["t"] == "owner"]
        paid = [next(f for f in p.frames if f["t"] == "wallet")["amount"] for p in (ana, bia)]
        assert sum(paid) == 300 and _ended(ana) & _ended(bia)
    finally:
        a.stop()
        b.stop()
    checked = check_ledger(postgres_url, data)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_node_route_without_redis_is_refused_at_start(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BIN / "ahiko"), "serve", "--port", str(free_port()), "--data-dir", str(tmp_path),
         "--node-route", "/n/a"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--node-route" in done.stderr and "needs --redis-url" in done.stderr


def test_a_burst_of_owner_lookups_waits_for_a_redis_connection_instead_of_failing(
    redis_url: str, tmp_path: Path
) -> None:
    """Every socket of a failover reconnects at once: 500 lookups side by side on one node.
    redis-py's default pool refused the 101st command in flight (``MaxConnectionsError``),
    which refused those sockets (HTTP 403); the node's pool makes them wait their turn."""
    engine = make_engine(f"sqlite:///{tmp_path / 'burst.db'}")
    node = ClusterNode(redis_url, "burst-node", engine, RoomRegistry(), 2000, route="/n/a")

    async def burst() -> list[str | None]:
        other = redis.Redis.from_url(redis_url)
        await other.set(lease_key(room_lease("r-owned")), "other-node:7", px=10_000)
        await other.set(route_key("other-node"), "/n/b", px=10_000)
        await other.aclose()
        try:
            return await asyncio.gather(
                *(node.owner_route("r-owned" if n % 2 else f"r-{n}") for n in range(500))
            )
        finally:
            await node.redis.aclose()

    routes = asyncio.run(burst())
    assert routes == [("/n/b" if n % 2 else None) for n in range(500)]
    engine.dispose()
